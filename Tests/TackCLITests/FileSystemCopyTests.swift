import Foundation
import Testing
import TackCore

/// `FileSystem.copy`: what the backends copy into an install (binaries, resource bundles) —
/// files with their mode, directories whole, links as links, nothing over what exists.
@Suite(.ownThreads) struct FileSystemCopyTests {
    @Test func copiesFilesDirectoriesAndLinksAsTheyAre() throws {
        let s = try Sandbox()
        let fs = LocalFileSystem()
        try s.write("src/tool", "#!/bin/sh\necho hi\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: s.root + "/src/tool")
        try s.write("src/Res.bundle/data/a.txt", "a")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/src/Res.bundle/link", withDestinationPath: "data/a.txt")
        try fs.copy(s.root + "/src/tool", to: s.root + "/dst-tool")
        #expect(s.read("dst-tool") == "#!/bin/sh\necho hi\n")
        let mode = try FileManager.default.attributesOfItem(atPath: s.root + "/dst-tool")[.posixPermissions] as? Int
        #expect(mode == 0o750)
        try fs.copy(s.root + "/src/Res.bundle", to: s.root + "/dst.bundle")
        #expect(s.read("dst.bundle/data/a.txt") == "a")
        #expect(fs.linkTarget(s.root + "/dst.bundle/link") == "data/a.txt")
        // Never over what exists; copyReplacing replaces it.
        #expect(throws: FileSystemError.self) { try fs.copy(s.root + "/src/tool", to: s.root + "/dst-tool") }
        try s.write("other", "other\n")
        try fs.copyReplacing(s.root + "/other", to: s.root + "/dst-tool")
        #expect(s.read("dst-tool") == "other\n")
        #expect(throws: TackError.self) { try fs.copyReplacing(s.root + "/missing", to: s.root + "/x") }
    }

    @Test func inMemoryCopiesTrees() throws {
        let fs = InMemoryFileSystem(files: ["/a/b/c.txt": "c", "/a/d.txt": "d"])
        #expect(throws: FileSystemError.self) { try fs.copy("/a", to: "/z/a") }  // as on disk: /z must be there
        try fs.createDirectory("/z")
        try fs.copy("/a", to: "/z/a")
        #expect(try fs.read("/z/a/b/c.txt") == Array("c".utf8))
        #expect(try fs.read("/z/a/d.txt") == Array("d".utf8))
        #expect(throws: FileSystemError.self) { try fs.copy("/a", to: "/z/a") }
    }
}
