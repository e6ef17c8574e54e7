import Foundation
import BackendKinds
import TackCore
import Testing

/// The domain's file work goes through `FileSystem` (issue 45: "the domain makes no system
/// calls"): shims and emptying a tool's directory run on the in-memory file system as on disk.
/// (The install lock, a real `flock`, does not yet: `Remover` and `Installer` need a disk.)
@Suite struct EffectsSeamTests {
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
