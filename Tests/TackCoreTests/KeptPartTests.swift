import Foundation
@testable import TackCore
import Testing

/// A part of an install kept on its removal (a pip tool's environment): moved into the cache
/// with the path it came from, never from or to anywhere a record's text could point outside
/// the install and the cache.
@Suite struct KeptPartTests {
    @Test func onlyPlainRelativePathsAreKept() {
        #expect(KeptPart(part: "venv", cacheEntry: "pip-envs/ab12") != nil)
        #expect(KeptPart(recorded: "venv:pip-envs/ab12") == KeptPart(part: "venv", cacheEntry: "pip-envs/ab12"))
        for (part, entry) in [("../x", "pip-envs/k"), ("venv", "../../etc"), ("/venv", "pip-envs/k"), ("venv", "/tmp/k"),
                              ("a/../b", "pip-envs/k"), ("venv", "pip-envs/./k"), ("", "pip-envs/k"), ("venv", "k"), ("venv", "pip-envs//k")] {
            #expect(KeptPart(part: part, cacheEntry: entry) == nil, "\(part) → \(entry)")
        }
        #expect(KeptPart(recorded: "venv") == nil && KeptPart(recorded: "venv:pip-envs/a:b") == nil)
    }

    /// Installs `jq 1.0` with a `venv` and a record holding `built.keep: KEEP`.
    func install(_ keep: String, root: String) throws -> Store {
        let fs = LocalFileSystem()
        let store = Store(root: root + "/tack-home", fs: fs, backends: .standard)
        let dir = store.installDirectory("jq", Version("1.0.0")!)
        try fs.createDirectory(dir + "/venv/bin")
        try fs.writeAtomically(dir + "/venv/bin/jq", Array("#!\(dir)/venv/bin/python\n".utf8))
        try fs.writeAtomically(dir + "/" + Store.installRecordFile, Array("""
            version: 1
            tools:
              jq:
                backend: "pip"
                built:
                  keep: "\(keep)"
                requested: "1.0.0"
                source: "jq"
                version: "1.0.0"

            """.utf8))
        #expect(store.installedEntry("jq", Version("1.0.0")!) != nil, "the record must be readable")
        return store
    }

    @Test func removingAnInstallKeepsItsPartInTheCacheOnce() throws {
        let root = NSTemporaryDirectory() + "kept-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try install("venv:pip-envs/k1", root: root)
        let dir = store.installDirectory("jq", Version("1.0.0")!)
        try Remover(store: store).remove("jq", Version("1.0.0")!)
        #expect(!FileManager.default.fileExists(atPath: dir))
        let entry = store.cache + "/pip-envs/k1"
        #expect(try String(contentsOfFile: entry + "/prefix", encoding: .utf8) == dir)
        #expect(try String(contentsOfFile: entry + "/venv/bin/jq", encoding: .utf8) == "#!\(dir)/venv/bin/python\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cache + "/pip-envs") == ["k1"], "no temporary directory is left")

        // Removed again: the entry there stays as it was.
        let again = try install("venv:pip-envs/k1", root: root)
        try FileManager.default.removeItem(atPath: dir + "/venv/bin/jq")
        try Remover(store: again).remove("jq", Version("1.0.0")!)
        #expect(FileManager.default.fileExists(atPath: entry + "/venv/bin/jq"))
    }

    @Test func aRecordThatPointsOutsideMovesNothing() throws {
        let root = NSTemporaryDirectory() + "kept-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
        let store = try install("venv:../../outside/k", root: root)
        try Remover(store: store).remove("jq", Version("1.0.0")!)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/outside").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.cache + "/pip-envs"))
    }

    /// A build's facts from elsewhere (the team cache's `built`) cannot name a part to keep:
    /// only this machine's install says so.
    @Test func onlyThisMachinesOutcomeNamesAPartToKeep() throws {
        let locked = LockedTool(name: "jq", version: Version("1.0.0")!, requested: "1.0.0", backend: "pip", source: "jq", fields: [:])
        let item = Installer.Item(request: ToolRequest(name: "jq", requirement: .latest, origin: .commandLine), locked: locked)
        let pulled = InstallOutcome(binaries: ["bin/jq"], metadata: ["python": "/usr/bin (3.11.2)", KeptPart.builtField: "venv:pip-envs/other"])
        #expect(Installer.record(item, outcome: pulled, key: nil, pulled: nil).built == ["python": "/usr/bin (3.11.2)"])
        var own = pulled
        own.kept = KeptPart(part: "venv", cacheEntry: "pip-envs/mine")
        #expect(Installer.record(item, outcome: own, key: nil, pulled: nil).built[KeptPart.builtField] == nil, "the record pushed never holds it")
    }
}
