import Foundation
import Testing

/// The commands mise and rbenv users reach for, and advice that fits (issue 15).
@Suite(.ownThreads) struct CommandsTests {
    /// A url tool `sc` with releases 1.0.0, 1.1.0 and 2.0.0 and an index listing them.
    func releases(_ s: Sandbox, version: String = "1.0.0") throws -> FixtureServer {
        try s.mkdir("www")
        var index = ""
        for v in ["1.0.0", "1.1.0", "2.0.0"] {
            try FixtureServer.archive("tar.gz", s.root + "/www/shellcheck-v\(v).tar.gz", version: v)
            index += "<a href=\"shellcheck-v\(v).tar.gz\">\(v)</a>\n"
        }
        try s.write("www/index.html", index)
        let server = try FixtureServer(serving: s.root + "/www")
        try pin(s, server, version)
        return server
    }

    func pin(_ s: Sandbox, _ server: FixtureServer, _ version: String, as names: [String] = ["sc"]) throws {
        try s.write("app/tack.yml", "tools:\n" + names.map { name in
            "  \(name): { url: \"\(server.url("files/shellcheck-v{version}.tar.gz"))\", version: \"\(version)\", bin: \"shellcheck-v{version}/shellcheck\", versions: { url: \"\(server.url("files/index.html"))\", regex: \"shellcheck-v([0-9.]+)[.]tar\" } }\n"
        }.joined())
    }

    @Test func installTakesToolsWithVersions() throws {
        let s = try Sandbox()
        let server = try releases(s)
        try pin(s, server, "1.0.0", as: ["sc", "other"])
        #expect(try s.tack(["install", "sc"], in: "app").status == 0)
        #expect(!s.exists("tack-home/installs/other"), "only what was named")
        let manifest = s.read("app/tack.yml"), lock = s.read("app/tack.lock")
        // A version pinned nowhere, beside a pinned tool: installed, nothing pinned or locked.
        let r = try s.tack(["install", "sc@1.1.0", "other"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.exists("tack-home/installs/sc/1.1.0/bin/shellcheck"))
        #expect(s.exists("tack-home/installs/other/1.0.0/bin/shellcheck"))
        #expect(s.read("app/tack.yml") == manifest)
        #expect(s.read("app/tack.lock")?.contains("other:") == true)
        #expect(s.read("app/tack.lock")?.contains("1.1.0") == false, "\(lock ?? "")")
        // One version of a tool per command line.
        let twice = try s.tack(["install", "sc@1.1.0", "sc"], in: "app")
        #expect(twice.status == 2)
        #expect(twice.stderr == "tack: sc is named twice — install one version of a tool at a time\n")
        #expect(try s.tack(["current", "sc"], in: "app").stdout.hasPrefix("1.0.0 "))
        // `where` finds each.
        #expect(try s.tack(["where", "sc"], in: "app").stdout == s.root + "/tack-home/installs/sc/1.0.0\n")
        #expect(try s.tack(["where", "sc@1.1"], in: "app").stdout == s.root + "/tack-home/installs/sc/1.1.0\n")
        let none = try s.tack(["where", "sc@2"], in: "app")
        #expect(none.status == 1)
        // What it suggests installs without changing the pin (issue 43, item 16).
        #expect(none.stderr == "tack: no installed version of sc satisfies 2 (installed: 1.0.0, 1.1.0) — install one without pinning it: `tack install sc@2`\n")
        // A tool pinned nowhere without a version cannot be installed, and says how.
        let unpinned = try s.tack(["install", "nosuch"], in: "app")
        #expect(unpinned.status == 1)
        #expect(unpinned.stderr == "tack: nosuch is not pinned here — no registry knows nosuch, so pin it with its source: `tack use nosuch@VERSION` with --github OWNER/REPO, --git URL, --url URL, --release OWNER/REPO, --aqua OWNER/REPO, --pip PACKAGE or --gem GEM\n")
    }

    @Test func useWithoutAVersionPinsTheNewest() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        let r = try s.tack(["use", "sc"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("pinned sc 2.0.0 in "))
        #expect(s.read("app/tack.yml")?.contains("version: \"2.0.0\"") == true || s.read("app/tack.yml")?.contains("version: 2.0.0") == true, "\(s.read("app/tack.yml") ?? "")")
        #expect(s.exists("tack-home/installs/sc/2.0.0"))
    }

    /// An exact url pin listed only itself: `versions(of:)` answered without the index.
    @Test func outdatedAndLsRemoteReadTheIndexForAnExactPin() throws {
        let s = try Sandbox()
        let server = try releases(s)
        #expect(try s.tack(["install"], in: "app").status == 0)
        let remote = try s.tack(["ls-remote", "sc"], in: "app")
        #expect(remote.stdout == "1.0.0\n1.1.0\n2.0.0\n", "\(remote.stderr)")
        #expect(try s.tack(["ls-remote", "sc", "1."], in: "app").stdout == "1.0.0\n1.1.0\n")
        #expect(try s.tack(["ls-remote", "sc", "--json"], in: "app").stdout == "[{\"version\":\"1.0.0\"},{\"version\":\"1.1.0\"},{\"version\":\"2.0.0\"}]\n")
        let outdated = try s.tack(["outdated", "--json"], in: "app")
        #expect(outdated.stdout == "[{\"tool\":\"sc\",\"current\":\"1.0.0\",\"wanted\":\"1.0.0\",\"latest\":\"2.0.0\"}]\n", "\(outdated.stderr)")
        // After the requirement changes, `current` is still what is installed.
        try pin(s, server, "~> 1.1")
        let changed = try s.tack(["outdated", "--json"], in: "app")
        #expect(changed.stdout == "[{\"tool\":\"sc\",\"current\":\"1.0.0\",\"wanted\":\"1.1.0\",\"latest\":\"2.0.0\"}]\n", "\(changed.stderr)")
    }

    @Test func lsRemoteNeedsNoPin() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["v1.0.0", "v1.2.0", "v2.0.0"])
        try s.mkdir("elsewhere")
        let r = try s.tack(["ls-remote", "file://" + repo.path], in: "elsewhere")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "1.0.0\n1.2.0\n2.0.0\n")
        #expect(try s.tack(["ls-remote", "file://" + repo.path, "1"], in: "elsewhere").stdout == "1.0.0\n1.2.0\n")
        for bad in ["a/b/c", "../x", "-x", "owner/"] {
            let b = try s.tack(["ls-remote", bad], in: "elsewhere")
            #expect(b.status == 2, "\(bad)")
        }
    }

    @Test func envWhereVersionAndCompletion() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        try s.writeTrusted("app/tack.yml", (s.read("app/tack.yml") ?? "") + "env:\n  GREETING: \"it's here\"\n")
        let bin = s.root + "/tack-home/installs/sc/1.0.0/bin"
        let path = s.environment["PATH"] ?? ""
        let env = try s.tack(["env", "bash"], in: "app")
        #expect(env.stdout == "export PATH='\(bin):\(path)'\nexport GREETING='it'\\''s here'\n", "\(env.stderr)")
        #expect(try s.tack(["env", "fish"], in: "app").stdout.hasPrefix("set -gx PATH "))
        let json = try s.tack(["env", "--json"], in: "app")
        #expect(json.stdout == "{\"PATH\":\"\(bin):\(path)\",\"GREETING\":\"it's here\"}\n")
        #expect(try s.tack(["version"], in: "app").stdout == (try s.tack(["--version"], in: "app")).stdout)
        #expect(try s.tack(["version"], in: "app").stdout.hasPrefix("tack "))
        for shell in ["bash", "zsh", "fish"] {
            let c = try s.tack(["completion", shell], in: "app")
            #expect(c.status == 0)
            #expect(c.stdout.contains("ls-remote"), "\(shell) completes the commands")
        }
        let bashScript = try s.tack(["completion", "bash"], in: "app").stdout
        let check = try s.run("/bin/bash", ["-n", "-c", bashScript])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// `tack deactivate` in an activated bash puts PATH and env back and removes the hook.
    @Test func deactivateUndoesActivate() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        try s.writeTrusted("app/tack.yml", (s.read("app/tack.yml") ?? "") + "env:\n  GREETING: hi\n")
        let tack = try Sandbox.binary()
        let script = """
            before="$PATH"
            eval "$('\(tack)' activate bash)"
            cd '\(s.root)/app' && _tack_hook
            echo "in: ${GREETING-unset} $(command -v shellcheck)"
            tack deactivate
            echo "out: ${GREETING-unset} ${__TACK_HOOK-none} $(type -t _tack_hook || echo no-hook) $(type -t tack || echo no-function)"
            [ "$PATH" = "$before" ] && echo "PATH restored"
            """
        let r = try s.run("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(r.stdout == """
            in: hi \(s.root)/tack-home/installs/sc/1.0.0/bin/shellcheck
            out: unset none no-hook no-function
            PATH restored

            """, "\(r.stderr)")
    }

    @Test func installFailuresAreSaidOnce() throws {
        let s = try Sandbox()
        let server = try releases(s)
        let url = server.url("files/nothing-here-{version}.tar.gz")
        try s.write("app/tack.yml", "tools:\n  sc: { url: \"\(url)\", version: 1.0.0, bin: x }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        let concrete = url.replacingOccurrences(of: "{version}", with: "1.0.0")
        #expect(r.stderr.components(separatedBy: concrete).count == 2, "the URL once: \(r.stderr)")
        #expect(r.stderr.components(separatedBy: "answered 404").count == 2, "the error once: \(r.stderr)")
        #expect(r.stderr.contains("sc 1.0.0: failed\n"))
        // A dead server: one line naming it once.
        try s.write("app/tack.yml", "tools:\n  sc: { url: \"http://127.0.0.1:9/sc-{version}.tar.gz\", version: 1.0.0, bin: x }\n")
        let dead = try s.tack(["install"], in: "app")
        #expect(dead.status == 1)
        #expect(dead.stderr.components(separatedBy: "127.0.0.1:9").count == 2, "\(dead.stderr)")
    }

    @Test func quietAndVerbose() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        let loud = try s.tack(["install", "-v"], in: "app")
        #expect(loud.status == 0)
        #expect(loud.stderr.contains("tack: fetching http://127.0.0.1:"), "\(loud.stderr)")
        #expect(!loud.stderr.hasPrefix("\n"), "no stray blank line")
        #expect(try s.tack(["uninstall", "sc@1.0.0"], in: "app").status == 0)
        let quiet = try s.tack(["-q", "install"], in: "app")
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
        // Errors are still said.
        #expect(try s.tack(["--quiet", "where", "nosuch"], in: "app").stderr.hasPrefix("tack: "))
    }

    @Test func adviceFits() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        // bootstrap outside any project.
        try s.mkdir("empty")
        let boot = try s.tack(["bootstrap", "--dry-run"], in: "empty")
        #expect(boot.status == 1)
        #expect(boot.stderr == "tack: no tack.yml or version file in \(s.root)/empty or any directory above it, so there is nothing to set up — run tack bootstrap in a project\n")
        // `current` of a tool the registry does not know: a `tack use` with a source option,
        // which works (issue 43, item 9).
        let unknown = try s.tack(["current", "nosuch"], in: "app")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no registry knows nosuch, so pin it with its source: `tack use nosuch@VERSION` with --github OWNER/REPO, --git URL, --url URL, --release OWNER/REPO, --aqua OWNER/REPO, --pip PACKAGE or --gem GEM"), "\(unknown.stderr)")
        // --frozen, with a lock that does not lock what is pinned: `tack lock`, not `install`.
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let manifest = try #require(s.read("app/tack.yml"))
        try s.write("app/tack.yml", manifest.replacingOccurrences(of: "version: \"1.0.0\"", with: "version: \"1.1.0\""))
        let frozen = try s.tack(["exec", "--frozen", "--", "shellcheck"], in: "app")
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("tack.lock does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it"), "\(frozen.stderr)")
        #expect(frozen.stderr.contains("run `tack lock` and commit tack.lock"))
        // After uninstall, the shim of a tool still pinned says what to run (not the
        // shellcheck further down PATH, nor the shell's "command not found").
        try pin(s, server, "1.0.0", as: ["shellcheck"])
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["uninstall", "shellcheck@1.0.0"], in: "app").status == 0)
        let shim = try s.tack([], in: "app", program: s.root + "/tack-home/shims/shellcheck")
        #expect(shim.status == 127)
        #expect(shim.stderr == "tack: shellcheck 1.0.0 is not installed (set by \(s.root)/app/tack.yml:2) — run `tack install`\n")
    }

    @Test func doctorChecksMoreAndAnswersJSON() throws {
        let s = try Sandbox()
        let server = try releases(s)
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        try s.mkdir("gone")
        try s.write("gone/tack.yml", s.read("app/tack.yml") ?? "")
        #expect(try s.tack(["install"], in: "gone").status == 0)
        try FileManager.default.removeItem(atPath: s.root + "/gone")
        let r = try s.tack(["doctor", "--json"], in: "app")
        #expect(r.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: String]])
        #expect(object["problems"] as? Int == checks.filter { $0["status"] == "problem" }.count)
        let problems = checks.filter { $0["status"] == "problem" }.compactMap { $0["message"] }
        #expect(problems.contains { $0.hasPrefix("neither the shims directory") }, "\(problems)")
        #expect(problems.contains { $0.contains("no longer exist") && $0.contains("tack prune") }, "\(problems)")
        // With the shims on PATH and the project forgotten, those problems go.
        #expect(try s.tack(["prune"], in: "app").stdout.contains("forgot \(s.root)/gone"))
        let fixed = try s.tack(["doctor"], in: "app", env: ["PATH": s.root + "/tack-home/shims:" + (s.environment["PATH"] ?? "")])
        #expect(fixed.stdout.contains("ok       the shims directory is on PATH"), "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("no longer exist"))
    }
}

/// Long work shows life: at a terminal the tool's line counts the seconds; piped, plain lines.
@Suite(.ownThreads) struct ProgressTests {
    @Test func aSlowBuildShowsElapsedTimeAtATerminalAndPlainLinesWhenPiped() async throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], sleep: 2.5)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let tack = try Sandbox.binary()
        // `script` gives tack a terminal; what it drew comes back on stdout.
        let live = try await s.run("/usr/bin/script", ["-qec", "'\(tack)' install", "/dev/null"], in: "app", env: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(live.status == 0, "\(live.stdout)")
        #expect(live.stdout.contains("hello 1.0.0: building… 1s") || live.stdout.contains("hello 1.0.0: building… 2s"), "\(live.stdout.debugDescription)")
        #expect(live.stdout.contains("hello 1.0.0: installed in 2s") || live.stdout.contains("hello 1.0.0: installed in 3s"))
        #expect(!live.stdout.hasPrefix("\r\n"), "no stray blank line")

        #expect(try await s.tack(["uninstall", "hello@1.0.0"], in: "app").status == 0)
        let piped = try await s.tack(["install"], in: "app")
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\u{1B}") && !piped.stderr.contains("\r"))
        #expect(piped.stderr.hasPrefix("hello 1.0.0: fetching\n"), "\(piped.stderr)")
        #expect(piped.stderr.contains("hello 1.0.0: building\n"))
    }
}
