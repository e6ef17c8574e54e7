import Backends
import Foundation
import Testing
import TackCore
import TackFront
import TackLean

/// Shims apply what `tack exec` applies; stale snapshots never win.
@Suite(.ownThreads) struct ShimEnvironmentTests {
    /// A project whose tool is a `path:` checkout with a `show` command, and a shim for it.
    func project() throws -> (Sandbox, shims: String) {
        let s = try Sandbox()
        try s.write("tool/bin/show", "#!/bin/sh\necho \"greeting=[$GREETING] first=$(echo \"$PATH\" | cut -d: -f1)\"\n")
        chmod(s.root + "/tool/bin/show", 0o755)
        try s.write("app/tack.yml", "tools:\n  show: { path: ../tool }\nenv:\n  GREETING: hello\n")
        try s.mkdir("app/a/b/c")
        let shims = s.root + "/tack-home/shims"
        try FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: shims + "/show", withDestinationPath: try Sandbox.binary())
        s.environment["PATH"] = shims + ":/usr/bin:/bin"
        return (s, shims)
    }

    @Test func trustedEnvAndPathApplyThroughShims() throws {
        let (s, shims) = try project()
        let warning = "tack: \(s.root)/app/tack.yml is not trusted, so its env and path: pins were not applied — read it, then run `tack trust \(s.root)/app`\n"
        // Twice each: the first run resolves and writes the snapshot, the second reads it.
        // Untrusted, neither the env nor the `path:` pin applies: the command is not found,
        // and the warning is said once for this version of the file, not at every call.
        for round in 0..<2 {
            let r = try s.run(shims + "/show", [], in: "app/a/b/c")
            #expect(r.status == 127)
            #expect(r.stdout == "")
            #expect(r.stderr == (round == 0 ? warning : "") + "tack: show: command not found\n", "\(r.stderr)")
        }
        #expect(try s.tack(["trust"], in: "app").status == 0)
        for _ in 0..<2 {
            let r = try s.run(shims + "/show", [], in: "app/a/b/c")
            #expect(r.stdout == "greeting=[hello] first=\(s.root)/tool/bin\n")
            #expect(r.stderr == "")
        }
        // Any edit needs trust again, on the very next run.
        try s.write("app/tack.yml", "tools:\n  show: { path: ../tool }\nenv:\n  GREETING: changed\n")
        let edited = try s.run(shims + "/show", [], in: "app/a/b/c")
        #expect(edited.stdout == "")
        #expect(edited.stderr == warning + "tack: show: command not found\n", "\(edited.stderr)")
    }

    @Test func aManifestThatIsALinkGoesStaleWhenItsTargetChanges() throws {
        let (s, shims) = try project()
        try s.write("shared/tack.yml", "tools:\n  show: { path: ../tool }\nenv:\n  GREETING: one\n")
        try FileManager.default.removeItem(atPath: s.root + "/app/tack.yml")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/app/tack.yml", withDestinationPath: s.root + "/shared/tack.yml")
        #expect(try s.tack(["trust"], in: "app").status == 0)
        #expect(try s.run(shims + "/show", [], in: "app").stdout == "greeting=[one] first=\(s.root)/tool/bin\n")
        #expect(try s.run(shims + "/show", [], in: "app").stdout == "greeting=[one] first=\(s.root)/tool/bin\n")
        try s.write("shared/tack.yml", "tools:\n  show: { path: ../tool }\nenv:\n  GREETING: two\n")
        #expect(try s.tack(["trust"], in: "app").status == 0)
        #expect(try s.run(shims + "/show", [], in: "app").stdout == "greeting=[two] first=\(s.root)/tool/bin\n")
    }

    @Test func aBadVersionOverrideThroughAShimFailsClearly() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let shim = s.root + "/tack-home/shims/hello"
        #expect(try s.run(shim, [], in: "app").stdout == "hello 1.0.0\n")
        for bad in ["~>> 1", "../../etc", "not a version!"] {
            let r = try s.run(shim, [], in: "app", env: ["TACK_HELLO_VERSION": bad])
            #expect(r.status == 1, "\(bad)")
            #expect(r.stdout == "")
            #expect(r.stderr.hasPrefix("tack: TACK_HELLO_VERSION"), "\(bad): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        let missing = try s.run(shim, [], in: "app", env: ["TACK_HELLO_VERSION": "9.9.9"])
        #expect(missing.status == 127)
        #expect(missing.stderr == "tack: hello 9.9.9 is not installed (set by TACK_HELLO_VERSION) — run `tack install`\n")
        // And nothing was left behind or changed by the bad runs.
        #expect(try s.run(shim, [], in: "app").stdout == "hello 1.0.0\n")
    }
}
