import Foundation
import Testing

@Suite(.ownThreads) struct ExecTrustTests {
    @Test func execPutsPinnedToolsFirstAndPassesEverythingThrough() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.mkdir("app/a/b/c")
        // Missing tools are installed first.
        let first = try s.tack(["exec", "--", "hello"], in: "app/a/b/c")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "hello 1.0.0\n")
        #expect(try s.tack(["exec", "hello"], in: "app").stdout == "hello 1.0.0\n")
        #expect(try s.tack(["exec", "--", "sh", "-c", "exit 7"], in: "app").status == 7)
        #expect(try s.tack(["exec", "--", "sh", "-c", "echo out; echo err >&2"], in: "app").stderr == "err\n")
        let missing = try s.tack(["exec", "--", "no-such-command-anywhere"], in: "app")
        #expect(missing.status == 127)
        #expect(missing.stderr == "tack: no-such-command-anywhere: command not found\n")
        // tool@version on the command line, installed on the way.
        let other = try s.tack(["exec", "hello@1.1.0", "--", "hello"], in: "app")
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout == "hello 1.1.0\n")
        // Frozen: nothing is installed.
        let frozen = try s.tack(["exec", "hello@1.0.0", "--", "hello"], in: "app", env: ["TACK_FROZEN": "1", "TACK_HELLO_VERSION": ""])
        #expect(frozen.status == 0)
        try repo.commitAndTag("1.2.0")
        let refused = try s.tack(["exec", "--frozen", "hello@1.2.0", "--", "hello"], in: "app")
        #expect(refused.status == 1)
        #expect(refused.stderr == "tack: hello 1.2.0 is not installed (set by `tack exec hello@1.2.0`), and --frozen (or TACK_FROZEN) forbids installing it — install it first with `tack install hello@1.2.0`\n")
        #expect(!s.exists("tack-home/installs/hello/1.2.0"))
    }

    @Test func envAppliesOnlyToTrustedManifestsAndAChangeNeedsTrustAgain() throws {
        let s = try Sandbox()
        let manifest = "tools:\n  mytool: { path: ../bin-dir }\nenv:\n  GREETING: hello\n"
        try s.write("app/tack.yml", manifest)
        try s.mkdir("bin-dir")
        let untrusted = try s.tack(["exec", "--", "sh", "-c", "echo \"[$GREETING]\""], in: "app")
        #expect(untrusted.status == 0)
        #expect(untrusted.stdout == "[]\n")
        #expect(untrusted.stderr == "tack: \(s.root)/app/tack.yml is not trusted, so its env and path: pins were not applied — read it, then run `tack trust \(s.root)/app`\n")
        let t = try s.tack(["trust"], in: "app")
        #expect(t.status == 0)
        #expect(t.stderr == "trusted: \(s.root)/app/tack.yml\n")
        let trusted = try s.tack(["exec", "--", "sh", "-c", "echo \"[$GREETING]\""], in: "app")
        #expect(trusted.stdout == "[hello]\n")
        #expect(trusted.stderr == "")
        // Any change to the file needs trust again.
        try s.write("app/tack.yml", manifest.replacingOccurrences(of: "hello", with: "changed"))
        #expect(try s.tack(["exec", "--", "sh", "-c", "echo \"[$GREETING]\""], in: "app").stdout == "[]\n")
        #expect(try s.tack(["trust", "app"]).status == 0)
        #expect(try s.tack(["exec", "--", "sh", "-c", "echo \"[$GREETING]\""], in: "app").stdout == "[changed]\n")
        // Trust lives in TACK_HOME, never in the project.
        #expect(s.read("tack-home/state/trust")?.contains("  \(s.root)/app/tack.yml\n") == true)
        let u = try s.tack(["trust", "--untrust"], in: "app")
        #expect(u.stderr == "no longer trusted: \(s.root)/app/tack.yml\n")
        #expect(try s.tack(["exec", "--", "sh", "-c", "echo \"[$GREETING]\""], in: "app").stdout == "[]\n")
        try s.mkdir("nowhere")
        #expect(try s.tack(["trust"], in: "nowhere").status == 1)
    }
}
