import Backends
import Foundation
import Testing
import TackCore
import TackFront
import TackLean

/// The lean hot path (the `tack` executable) must agree with TackCore on everything it re-implements.
@Suite struct LeanAgreementTests {
    @Test func constantsAgree() {
        #expect(LeanSnapshot.formatVersion.description == Snapshot.formatVersion)
        #expect(Launcher.emptyDigest.description == ShellHook.emptyDigest)
    }

    @Test func environmentKeyAgrees() {
        let lean = String(decoding: LeanContext.environmentKey(), as: UTF8.self)
        #expect(lean == Snapshot.environmentKey(ProcessInfo.processInfo.environment))
    }

    @Test func sha256AgreesWithSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hex(bytes) == Hashing.sha256(bytes), "length \(length)")
        }
    }
}

/// Shims apply what `tack exec` applies; stale snapshots never win.
@Suite struct ShimEnvironmentTests {
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

/// `tack` answers from the snapshot alone (shims, `exec`, `which`, the prompt hook): shown by
/// running a copy of it with no `tack-front` beside it, which must still do all of these once a
/// snapshot exists, and must say clearly what is missing for everything else.
@Suite struct LauncherTests {
    @Test func snapshotAnswersWithoutTheFrontEnd() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.mkdir("app/a/b")
        #expect(try s.tack(["install"], in: "app").status == 0)
        // The full tack writes the snapshot for app/a/b.
        let which = try s.tack(["which", "hello"], in: "app/a/b")
        #expect(which.status == 0)
        let installed = which.stdout
        #expect(installed.hasSuffix("/installs/hello/1.0.0/bin/hello\n"), "\(installed)")

        // What the full tack prints, to compare with what the lone `tack` prints below.
        let currentForms = [["current"], ["current", "--json"], ["current", "hello"], ["current", "--json", "hello"], ["current", "hello", "--json"]]
        var expected: [[String]: String] = [:]
        for args in currentForms {
            let r = try s.tack(args, in: "app/a/b")
            #expect(r.status == 0 && !r.stdout.isEmpty && r.stderr == "", "\(args): \(r)")
            expected[args] = r.stdout
        }
        #expect(expected[["current", "hello"]]?.hasPrefix("1.0.0 (set by ") == true)
        #expect(expected[["current", "--json"]]?.hasPrefix("[{") == true)

        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Sandbox.binary(), toPath: lonely + "/tack")
        try FileManager.default.createSymbolicLink(atPath: lonely + "/hello", withDestinationPath: lonely + "/tack")
        let tack = lonely + "/tack"

        let w = try s.run(tack, ["which", "hello"], in: "app/a/b")
        #expect(w.status == 0 && w.stdout == installed && w.stderr == "", "\(w)")
        let e = try s.run(tack, ["exec", "--", "hello", "there"], in: "app/a/b")
        #expect(e.status == 0 && e.stdout == "hello 1.0.0\n" && e.stderr == "", "\(e)")
        let shim = try s.run(lonely + "/hello", ["x"], in: "app/a/b")
        #expect(shim.status == 0 && shim.stdout == "hello 1.0.0\n", "\(shim)")

        let notFound = try s.run(tack, ["exec", "no-such-command"], in: "app/a/b")
        #expect(notFound.status == 127 && notFound.stderr == "tack: no-such-command: command not found\n", "\(notFound)")

        for args in currentForms {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 0 && r.stdout == expected[args] && r.stderr == "", "\(args): \(r)")
        }
        for args in [["install"], ["install", "--frozen"]] {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 0 && r.stdout == "" && r.stderr == "", "\(args): \(r)")
        }

        // Not answerable from a snapshot: handed to tack-front, which is not there.
        let missing = "tack: tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh\n"
        let notAnswered = [
            ["current", "nothing"], ["current", "--json", "--json"], ["current", "hello", "hello"], ["current", "-v"],
            ["which", "nothing-of-the-kind"], ["exec", "hello@1.0.0", "--", "hello"], ["install", "--offline"], ["--version"], ["ls"],
        ]
        for args in notAnswered {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 127 && r.stdout == "" && r.stderr == missing, "\(args): \(r)")
        }
        // An edit makes the snapshot stale: install then has work to do, which the lone tack cannot.
        try s.write("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n  other: { path: ../other }\n")
        let stale = try s.run(tack, ["install"], in: "app/a/b")
        #expect(stale.status == 127 && stale.stderr == missing, "\(stale)")
        // Nor is anything outside a snapshot's directory.
        let elsewhere = try s.run(tack, ["which", "hello"], in: "app")
        #expect(elsewhere.status == 127 && elsewhere.stderr == missing, "\(elsewhere)")
    }

    /// The relay leaves a snapshot behind: after `tack install` and `tack use` the very next
    /// shim is answered by `tack` alone, and a touch of tack.yml that changes no byte keeps it.
    @Test func theFirstShimAfterAChangeTakesTheHotPath() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "2.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Sandbox.binary(), toPath: lonely + "/tack")
        try FileManager.default.createSymbolicLink(atPath: lonely + "/hello", withDestinationPath: lonely + "/tack")
        let missing = "tack: tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh\n"

        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install)")
        let first = try s.run(lonely + "/hello", [], in: "app")
        #expect(first.status == 0 && first.stdout == "hello 1.0.0\n" && first.stderr == "", "\(first)")

        let use = try s.tack(["use", "hello@2.0.0"], in: "app")
        #expect(use.status == 0, "\(use)")
        let afterUse = try s.run(lonely + "/hello", [], in: "app")
        #expect(afterUse.status == 0 && afterUse.stdout == "hello 2.0.0\n" && afterUse.stderr == "", "\(afterUse)")

        // The same bytes with new times: still the hot path.
        let yml = s.root + "/app/tack.yml"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: yml)
        let touched = try s.run(lonely + "/hello", [], in: "app")
        #expect(touched.status == 0 && touched.stdout == "hello 2.0.0\n" && touched.stderr == "", "\(touched)")
        // Other bytes: stale, so the lone tack hands over (and there is nothing to hand to).
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        try (text + "# edited\n").write(toFile: yml, atomically: false, encoding: .utf8)
        let edited = try s.run(lonely + "/hello", [], in: "app")
        #expect(edited.status == 127 && edited.stderr == missing, "\(edited)")
    }
}
