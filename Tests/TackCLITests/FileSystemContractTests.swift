import Foundation
import Testing
import TackCore

/// What the backends ask of a file system beyond reading and writing — links, walks, moves,
/// executables, permissions — answered alike by the disk and by the in-memory fake the
/// service tests run on.
@Suite(.ownThreads) struct FileSystemContractTests {
    /// Each file system with a directory of its own to work in.
    static func systems() throws -> [(any FileSystem, String, Sandbox?)] {
        let s = try Sandbox()
        return [(LocalFileSystem(), s.root + "/fs", s), (InMemoryFileSystem(), "/fs", nil)]
    }

    /// A lock excludes every other value for its path until it is released or its value goes,
    /// says who holds it, and wakes one that waits for it; it is held once however often taken.
    @Test func locksExcludeSayWhoHoldsThemAndWakeAWaiter() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root + "/locks")
            #expect(throws: TackError.self) { _ = try fs.lock(at: root + "/missing/tool@1.0.lock") }
            let path = root + "/locks/tool@1.0.lock"
            let a = try fs.lock(at: path), b = try fs.lock(at: path)
            #expect(a.tryLock() && a.tryLock(), "\(fs): taken again, it is still held once")
            a.record("installing tool 1.0")
            #expect(!b.tryLock(), "\(fs)")
            #expect(b.holder() == LockHolder(pid: getpid(), doing: "installing tool 1.0") && fs.lockHolder(at: path) == b.holder(), "\(fs)")
            // One waiting on another thread has it once it is released.
            let taken = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                b.lock()
                taken.signal()
            }
            #expect(taken.wait(timeout: .now() + 0.1) == .timedOut, "\(fs): taken while held")
            a.unlock()
            #expect(taken.wait(timeout: .now() + 10) == .success, "\(fs): the waiter was not woken")
            #expect(fs.lockHolder(at: path) == nil, "\(fs): released, it says nobody")
            #expect(!a.tryLock(), "\(fs)")
            b.unlock()
            // A value that goes lets go.
            var c: (any ExclusiveLock)? = try fs.lock(at: path)
            #expect(c?.tryLock() == true && !a.tryLock(), "\(fs)")
            c = nil
            #expect(a.tryLock(), "\(fs): the lock of a value that went is still held")
            a.unlock()
        }
    }

    @Test func linksAreListedWalkedAndNeverFollowed() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root + "/tree/lib/python3")
            try fs.writeAtomically(root + "/tree/lib/python3/site.py", Array("x".utf8))
            try fs.makeLink(root + "/tree/lib64", to: "lib")
            try fs.makeLink(root + "/tree/bin", to: "../elsewhere/bin")
            #expect(fs.linkTarget(root + "/tree/lib64") == "lib")
            #expect(fs.walk(root + "/tree") == ["bin", "lib", "lib/python3", "lib/python3/site.py", "lib64"], "\(fs)")
            #expect(throws: FileSystemError.self) { try fs.makeLink(root + "/tree/lib64", to: "other") }
            #expect(fs.walk(root + "/missing").isEmpty)
            // Copied and moved as links, alone or inside a tree.
            try fs.copy(root + "/tree", to: root + "/copy")
            #expect(fs.linkTarget(root + "/copy/lib64") == "lib")
            try fs.move(root + "/copy", to: root + "/moved")
            #expect(fs.linkTarget(root + "/moved/lib64") == "lib" && fs.linkTarget(root + "/copy/lib64") == nil)
            try fs.move(root + "/moved/bin", to: root + "/moved/bin2")
            #expect(fs.linkTarget(root + "/moved/bin2") == "../elsewhere/bin")
        }
    }

    @Test func executablesArePlainFilesWithTheirBitSet() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root)
            #expect(throws: FileSystemError.self) { try fs.writeAtomically(root + "/no/such/dir/file", []) }
            try fs.writeAtomically(root + "/tool", Array("#!/bin/sh\n".utf8), permissions: 0o755)
            try fs.writeAtomically(root + "/data", Array("x".utf8))
            try fs.createDirectory(root + "/dir")
            #expect(fs.isExecutable(root + "/tool"))
            #expect(fs.info(root + "/tool")?.permissions == 0o755)
            #expect(!fs.isExecutable(root + "/data"))
            #expect(!fs.isExecutable(root + "/dir"), "a directory is never taken for a program")
            #expect(!fs.isExecutable(root + "/missing"))
            // Written again without permissions: what a rewrite must carry over itself.
            try fs.writeAtomically(root + "/tool", Array("#!/bin/bash\n".utf8))
            #expect(!fs.isExecutable(root + "/tool"))
        }
    }

    @Test func movesReplaceAFileAndTakeWholeTrees() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root + "/tmp/venv/bin")
            try fs.writeAtomically(root + "/tmp/venv/bin/tool", Array("new".utf8), permissions: 0o755)
            try fs.move(root + "/tmp", to: root + "/kept")
            #expect(try fs.read(root + "/kept/venv/bin/tool") == Array("new".utf8))
            #expect(fs.isExecutable(root + "/kept/venv/bin/tool"))
            #expect(fs.info(root + "/tmp") == nil)
            try fs.writeAtomically(root + "/a", Array("a".utf8))
            try fs.writeAtomically(root + "/b", Array("b".utf8))
            try fs.move(root + "/a", to: root + "/b")
            #expect(try fs.read(root + "/b") == Array("a".utf8))
            #expect(throws: FileSystemError.self) { try fs.move(root + "/gone", to: root + "/c") }
            // A directory onto one that holds something: refused, both left as they were.
            try fs.createDirectory(root + "/x")
            try fs.writeAtomically(root + "/x/1", Array("1".utf8))
            #expect(throws: FileSystemError.self) { try fs.move(root + "/x", to: root + "/kept") }
            #expect(try fs.read(root + "/kept/venv/bin/tool") == Array("new".utf8))
        }
    }

    @Test func aLinkedCopyIsTheSameBytes() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root)
            try fs.writeAtomically(root + "/one", Array("same".utf8), permissions: 0o750)
            try fs.linkOrCopy(root + "/one", to: root + "/two")
            #expect(try fs.read(root + "/two") == Array("same".utf8))
            #expect(throws: FileSystemError.self) { try fs.linkOrCopy(root + "/one", to: root + "/two") }
        }
    }

    /// What says "this file changed" (warnings said once per version) changes with every
    /// write, and is `-` for no file.
    @Test func aVersionKeyChangesWithEveryWrite() throws {
        for (fs, root, keep) in try Self.systems() {
            _ = keep
            try fs.createDirectory(root)
            #expect(fs.versionKey(root + "/f") == "-")
            try fs.writeAtomically(root + "/f", Array("one".utf8))
            let first = fs.versionKey(root + "/f")
            #expect(fs.versionKey(root + "/f") == first)
            try fs.writeAtomically(root + "/f", Array("two".utf8))
            #expect(fs.versionKey(root + "/f") != first, "\(fs)")
        }
    }
}
