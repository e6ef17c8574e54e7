import Foundation
import Testing

@Suite(.ownThreads) struct ShimTests {
    /// Runs `command` as a user would: found on PATH (the shims first), under `timeout` so a
    /// shim loop would fail the test instead of hanging it.
    func run(_ s: Sandbox, _ command: String, in dir: String, path: String) throws -> Sandbox.Result {
        ProcessStartLog.note(s.root + "/tack-home/shims/" + command)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["10", "/usr/bin/env", command]
        p.currentDirectoryURL = URL(fileURLWithPath: s.root + "/" + dir)
        var env = s.environment
        env["PATH"] = path
        env["PWD"] = s.root + "/" + dir
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilDone()
        return .init(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Another build of the pinned version (a fork's 1.0.0, from another source) is not the
    /// pin's install: neither a shim, nor `tack which`, nor the slow path that explains a
    /// missing tool runs or names it (before, the slow path's own search took the version's
    /// directory, whoever built it, and ran the fork).
    @Test func anotherBuildOfThePinnedVersionIsNotRun() throws {
        let s = try Sandbox()
        let original = "https://example.org/hello-{version}", fork = "https://example.org/fork/hello-{version}"
        try s.fakeInstall("hello", "1.0.0", backend: "url", source: fork)
        try s.write("tack-home/installs/hello/1.0.0/bin/hello", "#!/bin/sh\necho the fork\n")
        chmod(s.root + "/tack-home/installs/hello/1.0.0/bin/hello", 0o755)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { url: \"\(original)\", version: \"1.0.0\" }\n")
        try s.write("app/tack.lock", "version: 1\ntools:\n  hello: { backend: \"url\", requested: \"1.0.0\", source: \"\(original)\", version: \"1.0.0\" }\n")
        let shims = s.root + "/tack-home/shims"
        try s.mkdir("tack-home/shims")
        try FileManager.default.createSymbolicLink(atPath: shims + "/hello", withDestinationPath: try Sandbox.binary())
        let said = "tack: hello 1.0.0 is not installed (set by \(s.root)/app/tack.yml:2) — run `tack install`\n"
        // Twice: the first run resolves, the second answers from the snapshot.
        for _ in 0..<2 {
            let shim = try run(s, "hello", in: "app", path: "\(shims):/usr/bin:/bin")
            #expect(shim.status == 127 && shim.stdout.isEmpty && shim.stderr == said, "\(shim)")
            let which = try s.tack(["which", "hello"], in: "app")
            #expect(which.status != 0 && !which.stdout.contains("installs/hello"), "\(which)")
        }
    }

    @Test func shimsRunThePinnedVersionOrFallThroughWithoutLooping() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0", "1.2.0"])
        try s.writeTrusted("one/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.writeTrusted("two/tack.yml", "tools:\n  hello: \(repo.entry("1.1.0"))\n")
        try s.writeTrusted("three/tack.yml", "tools:\n  hello: \(repo.entry("1.2.0"))\n")
        try s.mkdir("one/a/b/c")
        try s.mkdir("nothing")
        #expect(try s.tack(["install"], in: "one").status == 0)
        #expect(try s.tack(["install"], in: "two").status == 0)
        let shims = s.root + "/tack-home/shims"
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: shims + "/hello")
        #expect(link.hasSuffix("/tack"))

        let path = "\(shims):/usr/bin:/bin"
        #expect(try run(s, "hello", in: "one/a/b/c", path: path).stdout == "hello 1.0.0\n")
        #expect(try run(s, "hello", in: "two", path: path).stdout == "hello 1.1.0\n")
        let notInstalled = try run(s, "hello", in: "three", path: path)
        #expect(notInstalled.status == 127)
        #expect(notInstalled.stderr == "tack: hello 1.2.0 is not installed (set by \(s.root)/three/tack.yml:2) — run `tack install`\n")

        // Pinned nowhere, and only shims on PATH (twice, and through an alias): no loop.
        try FileManager.default.createSymbolicLink(atPath: s.root + "/alias", withDestinationPath: shims)
        let loop = try run(s, "hello", in: "nothing", path: "\(shims):\(s.root)/alias:\(shims):/usr/bin:/bin")
        #expect(loop.status == 127, "not 124 (a timeout): \(loop.stderr)")
        // With a `tack use` that works: the source each was installed from (no registry knows hello).
        #expect(loop.stderr.hasPrefix("tack: hello: command not found; the `hello` command exists in these installed tools: hello 1.0.0, hello 1.1.0 — pin one with `tack use hello@1.0.0 --git "), "\(loop.stderr)")
        #expect(loop.stderr.contains("` or `tack use hello@1.1.0 --git "), "\(loop.stderr)")

        // Pinned nowhere, with a system `hello` after the shims: that one runs.
        try s.write("sys/hello", "#!/bin/sh\necho system hello \"$@\"\n")
        chmod(s.root + "/sys/hello", 0o755)
        let system = try run(s, "hello", in: "nothing", path: "\(shims):\(s.root)/alias:\(s.root)/sys:/usr/bin:/bin")
        #expect(system.stdout == "system hello\n")

        // Uninstalling the last versions (where they are pinned nowhere) removes the shim.
        #expect(try s.tack(["uninstall", "hello@1.0.0"], in: "nothing").status == 0)
        #expect(FileManager.default.fileExists(atPath: shims + "/hello"))
        #expect(try s.tack(["uninstall", "hello@1.1.0"], in: "nothing").status == 0)
        #expect(!FileManager.default.fileExists(atPath: shims + "/hello"))
        let r = try s.tack(["reshim"])
        #expect(r.stderr == "shims in \(shims): up to date\n")
    }
}
