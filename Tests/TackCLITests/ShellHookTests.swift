import Foundation
import Testing

/// `tack activate` in the real shells, scripted: cd into a project, into a subdirectory with
/// another pin, out again, then edit the manifest; PATH and env must follow, and leaving must
/// restore exactly what was there (including a variable the project overrode).
@Suite(.ownThreads) struct ShellHookTests {
    static let expected = """
        app: hello 1.0.0 GREETING=hello EXISTING=project
        sub: hello 1.1.0 GREETING=hello EXISTING=project
        out: none GREETING=unset EXISTING=before
        out: PATH restored
        edited: hello 1.1.0 GREETING=unset EXISTING=before
        trusted: hello 1.1.0 GREETING=changed EXISTING=before
        left: none GREETING=unset EXISTING=before

        """

    func project() throws -> Sandbox {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\nenv:\n  GREETING: hello\n  EXISTING: project\n")
        try s.writeTrusted("app/sub/tack.yml", "tools:\n  hello: \(repo.entry("1.1.0"))\n")
        try s.write("edited.yml", "tools:\n  hello: \(repo.entry("1.1.0"))\nenv:\n  GREETING: changed\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "app/sub").status == 0)
        #expect(try s.tack(["trust"], in: "app").status == 0)
        // The tools are reachable only through the hook: no shims on PATH.
        s.environment["PATH"] = "/usr/bin:/bin"
        s.environment["TERM"] = "dumb"
        return s
    }

    func posixScript(_ shell: String, tack: String) -> String {
        """
        export EXISTING=before
        ORIGINAL_PATH="$PATH"
        eval "$('\(tack)' activate \(shell))"
        show() { echo "$1: $(hello 2>/dev/null || echo none) GREETING=${GREETING-unset} EXISTING=${EXISTING-unset}"; }
        cd app
        show app
        cd sub
        show sub
        cd ../..
        show out
        if [ "$PATH" = "$ORIGINAL_PATH" ]; then echo "out: PATH restored"; else echo "out: PATH is $PATH"; fi
        cd app
        cp ../edited.yml tack.yml
        show edited
        '\(tack)' trust >/dev/null 2>&1
        show trusted
        cd ..
        show left

        """
    }

    func check(_ r: Sandbox.Result, _ s: Sandbox) {
        #expect(r.stdout == Self.expected, "stderr: \(r.stderr)")
        // One warning when the edited manifest became untrusted, none at other prompts.
        let warning = "tack: \(s.root)/app/tack.yml is not trusted, so its env and path: pins were not applied — read it, then run `tack trust \(s.root)/app`"
        #expect(r.stderr.components(separatedBy: warning).count == 2, "stderr: \(r.stderr)")
    }

    @Test func bash() throws {
        let s = try project()
        let r = try s.run("/bin/bash", ["--norc", "--noprofile", "-i"], input: posixScript("bash", tack: try Sandbox.binary()))
        check(r, s)
    }

    @Test func zsh() throws {
        let s = try project()
        let r = try s.run("/usr/bin/zsh", ["-f", "-i"], input: posixScript("zsh", tack: try Sandbox.binary()))
        check(r, s)
    }

    /// fish reads a piped script without prompts, so the script emits `fish_prompt` where an
    /// interactive fish would draw one after a command that did not change directory.
    @Test func fish() throws {
        let s = try project()
        let tack = try Sandbox.binary()
        let script = """
            set -gx EXISTING before
            set original (string join : $PATH)
            '\(tack)' activate fish | source
            function show
                set -l v (hello 2>/dev/null; or echo none)
                set -l g unset; set -q GREETING; and set g $GREETING
                set -l e unset; set -q EXISTING; and set e $EXISTING
                echo "$argv[1]: $v GREETING=$g EXISTING=$e"
            end
            cd app
            show app
            cd sub
            show sub
            cd ../..
            show out
            if test (string join : $PATH) = $original; echo "out: PATH restored"; else; echo "out: PATH is $PATH"; end
            cd app
            cp ../edited.yml tack.yml; emit fish_prompt
            show edited
            '\(tack)' trust >/dev/null 2>&1; emit fish_prompt
            show trusted
            cd ..
            show left

            """
        let r = try s.run("/usr/bin/fish", ["--no-config"], input: script)
        check(r, s)
    }

    /// With nothing changed, the hook prints nothing, through tack (the snapshot) and through tack-front (which resolves).
    @Test func hookEnvIsSilentWhenNothingChanged() throws {
        let s = try project()
        let first = try s.tack(["hook-env", "bash"], in: "app")
        #expect(first.status == 0)
        // What the shell has after evaluating it (no value here holds a quote).
        var env: [String: String] = [:]
        for line in first.stdout.split(separator: "\n") {
            let assignment = try #require(line.hasPrefix("export ") ? line.dropFirst("export ".count) : nil, "\(line)")
            let eq = try #require(assignment.firstIndex(of: "="))
            env[String(assignment[..<eq])] = String(assignment[assignment.index(after: eq)...].dropFirst().dropLast())
        }
        #expect(env["GREETING"] == "hello" && env["PATH"]?.hasSuffix(":/usr/bin:/bin") == true && env["__TACK_HOOK"] != nil, "\(env)")
        let front = URL(fileURLWithPath: try Sandbox.binary()).deletingLastPathComponent().appendingPathComponent("tack-front").path
        for program in [try Sandbox.binary(), front] {
            let again = try s.run(program, ["hook-env", "bash"], in: "app/sub/..", env: env)
            #expect(again.status == 0)
            #expect(again.stdout == "" && again.stderr == "", "\(program): \(again.stdout) \(again.stderr)")
        }
        // Leaving: everything the hook set is taken back.
        let out = try s.run(try Sandbox.binary(), ["hook-env", "bash"], env: env)
        #expect(out.stdout.contains("unset GREETING\n") && out.stdout.contains("unset __TACK_HOOK\n") && out.stdout.contains("unset __TACK_DIFF\n"), "\(out.stdout)")
        let bad = try s.tack(["hook-env", "tcsh"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("tcsh"))
    }

    /// A broken manifest is reported at the first prompt, not at every one; fixing it clears it.
    @Test func aResolutionErrorIsSaidOnce() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools: [\n")
        let first = try s.tack(["hook-env", "bash"], in: "app")
        #expect(first.status == 0)
        #expect(first.stderr.hasPrefix("tack: \(s.root)/app/tack.yml:") && first.stderr.split(separator: "\n").count == 1, "\(first.stderr)")
        let line = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("export __TACK_ERROR=") })
        let key = String(line.dropFirst("export __TACK_ERROR=".count).dropFirst().dropLast())
        let again = try s.tack(["hook-env", "bash"], in: "app", env: ["__TACK_ERROR": key])
        #expect(again.status == 0 && again.stdout == "" && again.stderr == "", "\(again)")
        // Another error is said again.
        try s.write("app/tack.yml", "tols: {}\n")
        let other = try s.tack(["hook-env", "bash"], in: "app", env: ["__TACK_ERROR": key])
        #expect(other.stderr.contains("unknown key `tols`") && other.stdout.contains("export __TACK_ERROR="), "\(other)")
        // Fixed: the fingerprint goes.
        try s.write("app/tack.yml", "tools: {}\n")
        let fixed = try s.tack(["hook-env", "bash"], in: "app", env: ["__TACK_ERROR": key])
        #expect(fixed.stderr == "" && fixed.stdout.contains("unset __TACK_ERROR"), "\(fixed)")
    }
}
