import Foundation
import Testing

/// `tack current` through the built binary, for each precedence case docs/compatible-files.md lists.
@Suite(.ownThreads) struct CurrentEndToEndTests {
    @Test func nestedDirectories() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  swiftlint: 0.57.0\n  jq: 1.7.1\n")
        try s.write("app/sub/tack.yml", "tools:\n  swiftlint: 0.55.0\n")
        try s.mkdir("app/sub/a/b/c")
        let r = try s.tack(["current"], in: "app/sub/a/b/c")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            jq         1.7.1   (set by \(s.root)/app/tack.yml:3) — not installed; run `tack install`
            swiftlint  0.55.0  (set by \(s.root)/app/sub/tack.yml:2) — not installed; run `tack install`

            """)
        let one = try s.tack(["current", "swiftlint"], in: "app/sub/a")
        #expect(one.stdout == "0.55.0 (set by \(s.root)/app/sub/tack.yml:2) — not installed; run `tack install`\n")
    }

    @Test func manifestBesideCompatibleFiles() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  ruby: 3.3.0\n")
        try s.write("app/.ruby-version", "ruby-3.2.2\n")
        try s.write("app/.tool-versions", "nodejs 20.11.1\n")
        try s.write("app/.python-version", "3.12.1\n")
        try s.write("app/Mintfile", "realm/SwiftLint@0.54.0\n")
        let r = try s.tack(["current", "--json"], in: "app")
        #expect(r.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        let summary = rows.map { "\($0["tool"]!) \($0["version"]!) \(($0["source"] as! String).split(separator: "/").last!):\($0["line"]!)" }
        #expect(summary == ["node 20.11.1 .tool-versions:1", "python 3.12.1 .python-version:1", "ruby 3.3.0 tack.yml:2", "swiftlint 0.54.0 Mintfile:1"])
        #expect(rows[3]["backend"] as? String == "git")
    }

    @Test func localManifest() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n  yq: 4.44.1\n")
        try s.write("app/tack.local.yml", "tools:\n  jq: 1.6.0\n")
        let r = try s.tack(["current", "jq"], in: "app")
        #expect(r.stdout == "1.6.0 (set by \(s.root)/app/tack.local.yml:2) — not installed; run `tack install`\n")
        #expect(try s.tack(["current", "yq"], in: "app").stdout.hasPrefix("4.44.1 (set by \(s.root)/app/tack.yml:3)"))
    }

    @Test func environmentOverride() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  swift-format: 600.0.0\n")
        let r = try s.tack(["current", "swift-format"], in: "app", env: ["TACK_SWIFT_FORMAT_VERSION": "510.1.0"])
        #expect(r.stdout == "510.1.0 (set by TACK_SWIFT_FORMAT_VERSION) — not installed; run `tack install`\n")
        let json = try s.tack(["current", "--json"], in: "app", env: ["TACK_SWIFT_FORMAT_VERSION": "510.1.0"])
        #expect(json.stdout == #"[{"tool":"swift-format","requested":"510.1.0","version":"510.1.0","backend":"git","source":"TACK_SWIFT_FORMAT_VERSION","line":null,"installed":false}]"# + "\n")
    }

    @Test func globalManifest() throws {
        let s = try Sandbox()
        try s.write("home/.config/tack/tack.yml", "tools:\n  shellcheck: 0.10.0\n  jq: 1.6.0\n")
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        let r = try s.tack(["current"], in: "app")
        #expect(r.stdout == """
            jq          1.7.1   (set by \(s.root)/app/tack.yml:2) — not installed; run `tack install`
            shellcheck  0.10.0  (set by ~/.config/tack/tack.yml:2) — not installed; run `tack install`

            """)
        // XDG_CONFIG_HOME moves the global manifest.
        try s.write("xdg/tack/tack.yml", "tools:\n  gh: 2.50.0\n")
        let x = try s.tack(["current", "gh"], in: "app", env: ["XDG_CONFIG_HOME": s.root + "/xdg"])
        #expect(x.stdout.hasPrefix("2.50.0 (set by \(s.root)/xdg/tack/tack.yml:2)"))
    }

    @Test func pinnedNowhere() throws {
        let s = try Sandbox()
        try s.mkdir("empty")
        let r = try s.tack(["current", "jq"], in: "empty")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "tack: jq is not pinned for \(s.root)/empty (no tack.yml, version file, global manifest or TACK_JQ_VERSION pins it) — pin it with `tack use jq`\n")
        let all = try s.tack(["current", "--json"], in: "empty")
        #expect(all.status == 0)
        #expect(all.stdout == "[]\n")
    }

    @Test func installedAndLocked() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  mylint: \"~> 0.54\"\n")
        try s.write("app/tack.lock", """
            version: 1
            tools:
              mylint:
                backend: "git"
                requested: "~> 0.54"
                source: "https://github.com/realm/SwiftLint.git"
                version: "0.54.1"

            """)
        try s.fakeInstall("mylint", "0.54.1", backend: "git", source: "https://github.com/realm/SwiftLint.git", requested: "~> 0.54")
        let r = try s.tack(["current", "--json"], in: "app")
        #expect(r.stdout == #"[{"tool":"mylint","requested":"~> 0.54","version":"0.54.1","backend":"git","source":"\#(s.root)/app/tack.yml","line":2,"installed":true}]"# + "\n")
        #expect(try s.tack(["current", "mylint"], in: "app").stdout == "0.54.1 (set by \(s.root)/app/tack.yml:2)\n")
    }

    @Test func homeIsAbbreviated() throws {
        let s = try Sandbox()
        try s.write("home/app/tack.yml", "tools:\n  swiftlint: 0.57.0\n")
        let r = try s.tack(["current", "swiftlint"], in: "home/app")
        #expect(r.stdout == "0.57.0 (set by ~/app/tack.yml:2) — not installed; run `tack install`\n")
    }

    @Test func versionHelpAndDoctor() throws {
        let s = try Sandbox()
        #expect(try s.tack(["--version"]).stdout == "tack 0.1.0\n")
        let help = try s.tack(["current", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: tack current [<tool>] [--json]"))
        let top = try s.tack(["--help"])
        #expect(top.stdout.contains("current") && top.stdout.contains("doctor"))
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        let doctor = try s.tack(["doctor"], in: "app")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("ok       libyaml 0."))
        #expect(doctor.stdout.contains("ok       libgit2 1."))
        #expect(doctor.stdout.contains("ok       TACK_HOME \(s.root)/tack-home will be created on first install"))
        #expect(doctor.stdout.contains("problem  jq 1.7.1 is not installed (set by \(s.root)/app/tack.yml:2) — run `tack install`"))
        #expect(doctor.stdout.contains("ok       binaries: ") && doctor.stdout.contains("/tack-front") && doctor.stdout.contains("/tack-cli"), "\(doctor.stdout)")
        let jq = try s.plainJQ()
        try s.fakeInstall("jq", "1.7.1", backend: "url", source: jq)
        #expect(try s.tack(["doctor"], in: "app", env: s.healthy).status == 0)
        // A shim left by another tack (an older installation) is a problem `tack reshim` fixes.
        try s.mkdir("tack-home/shims")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tack-home/shims/old", withDestinationPath: "/opt/old/libexec/tack/tack-shim")
        let stale = try s.tack(["doctor"], in: "app")
        #expect(stale.status == 1 && stale.stdout.contains("1 shim in") && stale.stdout.contains("run `tack reshim`"), "\(stale.stdout)")
        #expect(try s.tack(["reshim"], in: "app").status == 0)
        #expect(try s.tack(["doctor"], in: "app", env: s.healthy).status == 0)
    }
}
