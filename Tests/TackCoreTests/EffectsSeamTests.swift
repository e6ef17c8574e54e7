import Foundation
import BackendKinds
import TackCore
import Testing

/// The domain's file work goes through `FileSystem` (issue 45: "the domain makes no system
/// calls"): shims, emptying a tool's directory, removing a version under its lock and the
/// snapshot's probes run on the in-memory file system as on disk.
@Suite struct EffectsSeamTests {
    /// A stat key is `inode:size:mtime:ctime`, each time as seconds and nanoseconds, the inode
    /// unsigned: what both snapshot readers compare.
    @Test func aStatKeyReadsAsItsNumbers() {
        #expect(FileInfo(kind: .file, size: 52, mtime: 1_700_000_000_500_000_000, inode: 1234, ctime: 1_700_000_001_000_000_007).statKey
            == "1234:52:1700000000.500000000:1700000001.7")
        #expect(FileInfo(kind: .file, size: 0, mtime: 0, inode: 0).statKey == "0:0:0.0:0.0")
        #expect(FileInfo(kind: .directory, size: 4096, mtime: -1, inode: UInt64.max).statKey == "18446744073709551615:4096:-1.999999999:-1.999999999")
        // The widest numbers a FileInfo can hold still fit.
        #expect(FileInfo(kind: .other, size: Int.min, mtime: Int64.min, inode: UInt64.max, ctime: Int64.max).statKey
            == "18446744073709551615:-9223372036854775808:-9223372037.145224192:9223372036.854775807")
    }

    @Test func anEmptyDirectoryGoesAndAFullOneStays() throws {
        let memory = InMemoryFileSystem(files: ["/t/installs/jq/1.7.1/bin/jq": "x"])
        try memory.createDirectory("/t/installs/empty")
        #expect(!memory.removeEmptyDirectory("/t/installs/jq") && memory.isDirectory("/t/installs/jq/1.7.1"))
        #expect(memory.removeEmptyDirectory("/t/installs/empty") && !memory.isDirectory("/t/installs/empty"))
        #expect(!memory.removeEmptyDirectory("/t/installs/none"))
        let root = NSTemporaryDirectory() + "seam-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let disk = LocalFileSystem()
        try disk.createDirectory(root + "/full/sub")
        try disk.createDirectory(root + "/empty")
        #expect(!disk.removeEmptyDirectory(root + "/full") && disk.isDirectory(root + "/full/sub"))
        #expect(disk.removeEmptyDirectory(root + "/empty") && !disk.isDirectory(root + "/empty"))
        #expect(disk.syncDirectory(root) && !disk.syncDirectory(root + "/empty"))
    }

    @Test func aVersionIsRemovedUnderItsLockInMemory() throws {
        let record = "version: 1\ntools:\n  jq:\n    backend: \"url\"\n    binaries: [\"bin/jq\"]\n    requested: \"1.7.1\"\n    source: \"https://example.org/jq\"\n    version: \"1.7.1\"\n"
        let fs = InMemoryFileSystem(files: ["/t/installs/jq/1.7.1/.tack-install.lock": record, "/t/installs/jq/1.7.1/bin/jq": "x"])
        let store = Store(root: "/t", fs: fs, backends: .standard)
        // Held by another: the removal waits for it (here it is let go once the removal has
        // started waiting on another thread).
        try fs.createDirectory("/t/state/locks")
        let other = try fs.lock(at: "/t/state/locks/jq@1.7.1.lock")
        #expect(other.tryLock())
        let removed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? Remover(store: store).remove("jq", Version("1.7.1")!)
            removed.signal()
        }
        #expect(removed.wait(timeout: .now() + 0.1) == .timedOut, "removed while another held the version's lock")
        #expect(fs.isDirectory("/t/installs/jq/1.7.1"))
        other.unlock()
        #expect(removed.wait(timeout: .now() + 10) == .success)
        #expect(!fs.isDirectory("/t/installs/jq/1.7.1") && !fs.isDirectory("/t/installs/jq"))
    }

    /// A snapshot made over the in-memory file system holds until a file it read changes.
    @Test func aSnapshotHoldsUntilAFileItReadChangesInMemory() throws {
        let fs = InMemoryFileSystem(files: ["/app/tack.yml": "tools:\n  jq: 1.7.1\n", "/home/me/.keep": ""])
        let settings = Settings(environment: ["HOME": "/home/me", "TACK_HOME": "/tack"], cwd: "/app", fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: try resolution.current(settings: settings), executable: nil, reads: nil)
        #expect(snapshot.probes.contains { $0.path == "/app/tack.yml" && $0.key != "-" })
        snapshot.save(settings: settings)
        #expect(Snapshot.load(settings: settings) == snapshot)
        try fs.writeAtomically("/app/tack.yml", Array("tools:\n  jq: 1.7.0\n".utf8))
        #expect(Snapshot.load(settings: settings) == nil, "a changed tack.yml")
    }

    @Test func shimsRunOnTheInMemoryFileSystem() throws {
        let record = "version: 1\ntools:\n  jq:\n    backend: \"url\"\n    binaries: [\"bin/jq\"]\n    requested: \"1.7.1\"\n    source: \"https://example.org/jq\"\n    version: \"1.7.1\"\n"
        let fs = InMemoryFileSystem(files: ["/t/installs/jq/1.7.1/.tack-install.lock": record, "/t/installs/jq/1.7.1/bin/jq": "x"])
        let store = Store(root: "/t", fs: fs, backends: .standard)
        let made = try Shims.rebuild(store: store, front: "/usr/local/bin/tack")
        #expect(made.added == ["jq"] && fs.linkTarget("/t/shims/jq") == "/usr/local/bin/tack")
        #expect(try Shims.rebuild(store: store, front: "/usr/local/bin/tack").added.isEmpty, "a shim that is right stays")
        try fs.remove("/t/installs/jq")
        #expect(try Shims.rebuild(store: store, front: "/usr/local/bin/tack").removed == ["jq"])
        #expect(fs.linkTarget("/t/shims/jq") == nil)
    }
}
