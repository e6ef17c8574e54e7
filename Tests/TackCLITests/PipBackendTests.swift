import Foundation
import Testing

/// Where uv is (./bootstrap.sh --dev installs it with pip): on PATH, or in ~/.local/bin.
func uvDirectory() throws -> String {
    var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    dirs.append(NSHomeDirectory() + "/.local/bin")
    for dir in dirs where FileManager.default.isExecutableFile(atPath: dir + "/uv") { return dir }
    Issue.record("uv is not installed; run ./bootstrap.sh --dev")
    throw FixtureServer.FixtureFailed()
}

/// The pip backend against wheels built in the test and a PEP 503 index on a loopback server.
@Suite(.ownThreads) struct PipBackendTests {
    static let fixtures = FixtureServer.script

    func python(_ args: [String]) throws {
        try FixturePython.check([Self.fixtures] + args)
    }

    /// `greet` 1.0.0 and 1.1.0 (which needs `helper`), `helper` 1.2.0, and their index.
    func setUp(uv: Bool) throws -> (Sandbox, FixtureServer) {
        let s = try Sandbox()
        let dists = s.root + "/dists"
        try s.mkdir("dists")
        try python(["wheel", "greet", "1.0.0", dists])
        try python(["wheel", "greet", "1.1.0", dists, "helper>=1"])
        try python(["wheel", "helper", "1.2.0", dists])
        try python(["simple", dists])
        let server = try FixtureServer(serving: dists)
        // /usr/bin has python3; uv only where the test asks for it.
        s.environment["PATH"] = (uv ? try uvDirectory() + ":" : "") + "/usr/bin:/bin"
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: \"~> 1.0\", index_url: \"\(server.url("static/simple"))\" }\n")
        return (s, server)
    }

    func sha256(of path: String) throws -> String { try TackCLITests.sha256(path) }

    @Test(arguments: [true, false])
    func installsLocksWithHashesRunsAndRefusesATamperedWheel(uv: Bool) throws {
        let (s, server) = try setUp(uv: uv)
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")

        // The lock: the version, and every distribution installed with its SHA-256.
        let lock = try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8)
        let greetHash = try sha256(of: s.root + "/dists/greet-1.1.0-py3-none-any.whl")
        let helperHash = try sha256(of: s.root + "/dists/helper-1.2.0-py3-none-any.whl")
        #expect(lock.contains("backend: \"pip\""), "\(lock)")
        #expect(lock.contains("version: \"1.1.0\""), "\(lock)")
        #expect(lock.contains("greet: \"sha256:\(greetHash)\""), "\(lock)")
        #expect(lock.contains("helper: \"sha256:\(helperHash)\""), "\(lock)")
        #expect(lock.contains("helper: \"1.2.0\""), "\(lock)")
        let metadata = try String(contentsOfFile: s.root + "/tack-home/installs/greet/1.1.0/.tack-install.lock", encoding: .utf8)
        #expect(metadata.contains(uv ? "installer: \"uv " : "installer: \"pip\""), "\(metadata)")

        // Through the shim and through exec, from a subdirectory.
        try s.mkdir("app/a/b")
        let shim = try s.run(s.root + "/tack-home/shims/greet", ["hi"], in: "app/a/b")
        #expect(shim.status == 0 && shim.stdout == "greet 1.1.0 hi\n", "\(shim)")
        let exec = try s.tack(["exec", "--", "greet", "there"], in: "app/a/b")
        #expect(exec.status == 0 && exec.stdout == "greet 1.1.0 there\n", "\(exec)")
        #expect(try s.tack(["which", "greet"], in: "app").stdout == s.root + "/tack-home/installs/greet/1.1.0/bin/greet\n")

        // Installing again from the lock: exactly the locked distributions, hash-checked.
        #expect(try s.tack(["uninstall", "greet@1.1.0"], in: "app").status == 0)
        let again = try s.tack(["install", "--frozen"], in: "app")
        #expect(again.status == 0, "\(again.stderr)")
        // Exactly the environment made before: cloned from tack's cache, not made again.
        #expect(again.stderr.contains("greet 1.1.0: from the environment cache"), "\(again.stderr)")
        #expect(try s.run(s.root + "/tack-home/shims/greet", [], in: "app").stdout == "greet 1.1.0\n")

        // A changed artifact on the index (same name and version, other bytes) fails --frozen.
        #expect(try s.tack(["uninstall", "greet@1.1.0"], in: "app").status == 0)
        try FileManager.default.removeItem(atPath: s.root + "/dists/greet-1.1.0-py3-none-any.whl")
        try python(["wheel", "greet", "1.1.0", s.root + "/dists", "helper>=1.1"])
        try python(["simple", s.root + "/dists"])
        #expect(try sha256(of: s.root + "/dists/greet-1.1.0-py3-none-any.whl") != greetHash)
        // (On a machine without the original in its caches: tack's environment cache and uv's
        // would install the cached, hash-checked original, which is right, but then the index
        // is never read.)
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/pip-envs")
        let tampered = try s.tack(["install", "--frozen"], in: "app", env: ["UV_CACHE_DIR": s.root + "/fresh-cache", "PIP_NO_CACHE_DIR": "1"])
        #expect(tampered.status != 0)
        #expect(tampered.stderr.contains("greet 1.1.0") && tampered.stderr.lowercased().contains("hash"), "\(tampered.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/greet/1.1.0"))
        #expect(try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8) == lock)
        _ = server
    }

    /// A python pinned here (a git tool whose `python3` logs each run, then runs the system's)
    /// is installed first, and the pip tool's environment is made with it.
    @Test func aPythonPinnedHereIsUsed() throws {
        let (s, server) = try setUp(uv: false)
        let log = s.root + "/python-runs.log"
        let repo = GitFixture(path: s.root + "/mypython", environment: [
            "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": s.root + "/home", "PATH": "/usr/bin:/bin",
        ])
        try s.write("mypython/build.sh", "mkdir -p out\nprintf '#!/bin/sh\\necho ran >> \(log)\\nexec /usr/bin/python3 \"$@\"\\n' > out/python3\nchmod +x out/python3\n")
        try repo.git("init", "-q", "-b", "main")
        try repo.git("add", ".")
        try repo.git("commit", "-q", "-m", "python")
        try repo.git("tag", "1.0.0")
        try s.writeTrusted("app/tack.yml", """
            tools:
              greet: { pip: greet, version: "~> 1.0", index_url: "\(server.url("static/simple"))" }
              python: { git: "\(repo.path)", version: 1.0.0, build: sh build.sh, bin: [out/python3] }

            """)
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect((try? String(contentsOfFile: log, encoding: .utf8))?.contains("ran") == true, "the pinned python3 never ran")
        #expect(try s.tack(["exec", "--", "greet"], in: "app").stdout == "greet 1.1.0\n")
    }

    @Test func versionsListAndBadInput() throws {
        let (s, server) = try setUp(uv: true)
        let remote = try s.tack(["ls-remote", "greet"], in: "app")
        #expect(remote.status == 0 && remote.stdout.contains("1.0.0") && remote.stdout.contains("1.1.0"), "\(remote)")

        // find_links: a directory of wheels, relative to the manifest, beside an index that has none.
        try s.write("links/tack.yml", "tools:\n  greet: { pip: greet, version: \"~> 1.0\", find_links: ../dists, index_url: \"\(server.url("static/nothing"))\" }\n")
        let links = try s.tack(["install"], in: "links")
        #expect(links.status == 0, "\(links.stderr)")
        #expect(try s.tack(["exec", "--", "greet"], in: "links").stdout == "greet 1.1.0\n")
        // Its environment goes into the cache when the install is removed (a rename: a first
        // install copies nothing), and prune removes it while no install uses it.
        let envs = s.root + "/tack-home/cache/pip-envs"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: envs)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty)
        #expect(try s.tack(["prune"], in: "links").stdout == "nothing to prune\n")
        #expect(try s.tack(["uninstall", "greet@1.1.0"], in: "links").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: envs).filter { !$0.hasPrefix(".") }.count == 1)
        let pruned = try s.tack(["prune"], in: "links")
        #expect(pruned.stdout.hasPrefix("removed ") && pruned.stdout.contains("/cache/pip-envs/"), "\(pruned.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: envs).isEmpty)

        // A pin the index cannot satisfy, a package the index does not have, a library without
        // scripts: each fails clearly, and installs nothing.
        try s.write("bad/tack.yml", "tools:\n  greet: { pip: greet, version: \"~> 2.0\", index_url: \"\(server.url("static/simple"))\" }\n")
        let none = try s.tack(["install"], in: "bad")
        #expect(none.status != 0 && none.stderr.contains("greet"), "\(none.stderr)")
        try s.write("missing/tack.yml", "tools:\n  nope: { pip: no-such-package, version: \"~> 1.0\", index_url: \"\(server.url("static/simple"))\" }\n")
        let missing = try s.tack(["install"], in: "missing")
        #expect(missing.status != 0 && missing.stderr.contains("404"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/nope"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/missing/tack.lock"))
    }
}

/// The real PyPI: only when TACK_NETWORK_TESTS=1.
@Suite(.ownThreads, .enabled(if: ProcessInfo.processInfo.environment["TACK_NETWORK_TESTS"] == "1"))
struct PipNetworkTests {
    @Test func cowsayAndRuffFromPyPI() throws {
        let s = try Sandbox()
        s.environment["PATH"] = try uvDirectory() + ":/usr/bin:/bin"
        try s.write("app/tack.yml", "tools:\n  cowsay: { pip: cowsay, version: \"~> 6.1\" }\n  ruff: { pip: ruff, version: \">= 0.6\" }\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        let cow = try s.tack(["exec", "--", "cowsay", "-t", "tack"], in: "app")
        #expect(cow.status == 0 && cow.stdout.contains("tack"), "\(cow)")
        let ruff = try s.run(s.root + "/tack-home/shims/ruff", ["--version"], in: "app")
        #expect(ruff.status == 0 && ruff.stdout.hasPrefix("ruff "), "\(ruff)")
        let lock = try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8)
        #expect(lock.contains("ruff: \"sha256:") && lock.contains("cowsay: \"sha256:"), "\(lock)")
    }
}
