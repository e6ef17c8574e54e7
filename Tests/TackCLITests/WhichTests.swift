import Foundation
import Testing

@Suite(.ownThreads) struct WhichTests {
    @Test func pinnedInstalledNotInstalledAndPathFallback() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.mkdir("app/sub")
        let missing = try s.tack(["which", "hello"], in: "app/sub")
        #expect(missing.status == 1)
        #expect(missing.stderr == "tack: hello 1.0.0 is not installed (set by \(s.root)/app/tack.yml:2) — run `tack install`\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let found = try s.tack(["which", "hello"], in: "app/sub")
        #expect(found.status == 0)
        #expect(found.stdout == "\(s.root)/tack-home/installs/hello/1.0.0/bin/hello\n")
        // Elsewhere, nothing pins it: not found, naming the installed tools that have it.
        try s.mkdir("elsewhere")
        let none = try s.tack(["which", "hello"], in: "elsewhere")
        #expect(none.status == 127)
        #expect(none.stderr.hasPrefix("tack: hello: command not found; the `hello` command exists in these installed tools: hello 1.0.0 — pin it with `tack use hello@1.0.0 --git "), "\(none.stderr)")
        // The environment override picks another version.
        let env = try s.tack(["which", "hello"], in: "app", env: ["TACK_HELLO_VERSION": "1.1.0"])
        #expect(env.status == 1)
        #expect(env.stderr.contains("hello 1.1.0 is not installed (set by TACK_HELLO_VERSION)"))
    }

    @Test func fallsThroughToPathSkippingShims() throws {
        let s = try Sandbox()
        try s.mkdir("empty")
        try s.write("tack-home/shims/sh", "#!/bin/sh\nexit 99\n")
        chmod(s.root + "/tack-home/shims/sh", 0o755)
        s.environment["PATH"] = "\(s.root)/tack-home/shims:/usr/bin:/bin:\(s.root)/tack-home/shims"
        let r = try s.tack(["which", "sh"], in: "empty")
        #expect(r.status == 0)
        #expect(r.stdout == "/usr/bin/sh\n" || r.stdout == "/bin/sh\n")
        #expect(try s.tack(["which", "no-such-command-anywhere"], in: "empty").status == 127)
        #expect(try s.tack(["which", "../sh"], in: "empty").status == 2)
    }

    @Test func pathPinsProvideTheirBinaries() throws {
        let s = try Sandbox()
        try s.write("src/mytool/bin/mytool", "#!/bin/sh\necho mine\n")
        chmod(s.root + "/src/mytool/bin/mytool", 0o755)
        try s.writeTrusted("app/tack.yml", "tools:\n  mytool: { path: ../src/mytool }\n")
        let r = try s.tack(["which", "mytool"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "\(s.root)/src/mytool/bin/mytool\n")
    }
}
