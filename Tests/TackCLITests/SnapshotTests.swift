import Foundation
import Testing

/// The hot path's snapshot is never used stale: every change takes effect on the next run.
@Suite(.ownThreads) struct SnapshotTests {
    func current(_ s: Sandbox, _ dir: String = "app/a/b", env: [String: String] = [:]) throws -> String {
        let r = try s.tack(["current", "--json"], in: dir, env: env)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    func snapshots(_ s: Sandbox) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/state/snapshots")) ?? []
    }

    @Test func everyChangeTakesEffectOnTheNextRun() throws {
        let s = try Sandbox()
        let jq = try s.plainJQ()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.mkdir("app/a/b")
        // Files changed within the file system clock's current tick are never trusted to a
        // snapshot (see `Snapshot.racy`): let the setup's files age past it first.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try current(s).contains(#""tool":"jq","requested":"1.7.1""#))
        #expect(snapshots(s).count == 1, "the first run writes a snapshot")
        #expect(try current(s).contains(#""requested":"1.7.1""#), "and the second reads it")

        // An edit of the same size, then a touch back to the old modification time.
        let yml = s.root + "/app/tack.yml"
        let old = try FileManager.default.attributesOfItem(atPath: yml)[.modificationDate] as! Date
        try s.write("app/tack.yml", "tools:\n  jq: 1.6.0\n")
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: yml)
        #expect(try current(s).contains(#""requested":"1.6.0""#))

        // A nearer file appears, and pins jq itself.
        try s.write("app/a/tack.yml", "tools:\n  jq: 1.5.0\n")
        #expect(try current(s).contains(#""requested":"1.5.0""#))
        // tack.local.yml beside it.
        try s.write("app/a/tack.local.yml", "tools:\n  jq: 1.4.0\n")
        #expect(try current(s).contains(#""requested":"1.4.0""#))
        // A compatible file in the current directory.
        try s.write("app/a/b/.tool-versions", "jq 1.3.0\n")
        #expect(try current(s).contains(#""requested":"1.3.0""#))
        // Deleted again.
        try FileManager.default.removeItem(atPath: s.root + "/app/a/b/.tool-versions")
        #expect(try current(s).contains(#""requested":"1.4.0""#))
        // The environment.
        #expect(try current(s, env: ["TACK_JQ_VERSION": "1.2.0"]).contains(#""requested":"1.2.0""#))
        #expect(try current(s).contains(#""requested":"1.4.0""#))
        // An install, then an uninstall, of the pinned version.
        try s.fakeInstall("jq", "1.4.0", backend: "url", source: jq)
        #expect(try current(s).contains(#""installed":true"#))
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/jq/1.4.0")
        #expect(try current(s).contains(#""installed":false"#))
        // A lock appears for a range.
        try s.write("app/a/tack.local.yml", "tools:\n  jq: \"~> 1.4\"\n")
        #expect(try current(s).contains(#""version":null"#))
        try s.write("app/a/tack.lock", "version: 1\ntools:\n  jq:\n    backend: \"url\"\n    requested: \"~> 1.4\"\n    source: \"\(jq)\"\n    version: \"1.4.1\"\n")
        #expect(try current(s).contains(#""version":"1.4.1""#))
        // A broken manifest is an error every time, never served from a snapshot.
        try s.write("app/a/tack.yml", "tools:\n  jq: [\n")
        #expect(try s.tack(["current"], in: "app/a/b").status == 1)
        #expect(try s.tack(["current"], in: "app/a/b").status == 1)
    }

    @Test func unwritableTackHomeOnlyMakesItSlower() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.write("tack-home", "not a directory\n")  // nothing can be written under it
        let r = try s.tack(["current", "jq"], in: "app")
        #expect(r.status == 1, "not installed")
        #expect(r.stdout.hasPrefix("1.7.1 (set by"))
        #expect(try s.tack(["which", "sh"], in: "app").status == 0)
    }

    @Test func removedInstallDirectoryIsNoticedByShimsAndWhich() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["which", "hello"], in: "app").status == 0)
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/hello/1.0.0")
        let r = try s.tack(["which", "hello"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr == "tack: hello 1.0.0 is not installed (set by \(s.root)/app/tack.yml:2) — run `tack install`\n")
    }
}
