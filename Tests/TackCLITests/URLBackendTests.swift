import Foundation
import TackCore
import Testing

/// A loopback HTTP server the test starts and stops: a directory served in-process
/// (`LoopbackFileServer`), or one of fixtures.py's other servers (Fixtures/fixtures.py).
final class FixtureServer {
    private let process: Process?
    private let stdin = Pipe()
    private let files: LoopbackFileServer?
    let port: Int
    let root: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fixtures.py").path

    /// The python3 on PATH, found once: the interpreter itself, not a version manager's shim
    /// (pyenv's runs some fifteen processes before Python starts, for each fixture).
    static let python: String = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let out = Pipe()
        p.standardOutput = out
        guard (try? p.run()) != nil else { return "/usr/bin/python3" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilDone()
        return p.terminationStatus == 0 && text.hasPrefix("/") ? text : "/usr/bin/python3"
    }()

    init(serving root: String) throws {
        let files = try LoopbackFileServer(root: root)
        self.root = root
        self.files = files
        self.process = nil
        port = files.port
    }

    /// fixtures.py with `arguments` (a server mode that prints its port first).
    init(_ arguments: [String], root: String = "") throws {
        self.root = root
        self.files = nil
        let process = Process()
        self.process = process
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: FixtureServer.python)
        process.arguments = [Self.script] + arguments
        process.standardInput = stdin
        process.standardOutput = out
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let p = Int(String(decoding: line, as: UTF8.self)) else { throw FixtureFailed() }
        port = p
    }

    deinit {
        guard let process else { return }
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilDone()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// How many requests `path` has had (the server counts them), asked with curl: the test
    /// process has no HTTP client of Foundation's (tack's own is libcurl).
    func requests(_ path: String) throws -> Int {
        Int(try runProgram("/usr/bin/env", ["curl", "-sf", url("count/" + path)])) ?? -1
    }

    /// An archive fixtures.py makes (the same arguments give the same files), made once per
    /// test run (`FixtureCache`).
    static func archive(_ kind: String, _ out: String, version: String, hostile: String? = nil) throws {
        try FixtureCache.copy("archive-\(kind)-\(version)-\(hostile ?? "plain")", to: out) { path in
            try FixturePython.check([script, "archive", kind, path, version] + (hostile.map { [$0] } ?? []))
        }
    }

    struct FixtureFailed: Error {}
}

func sha256(_ path: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sha256sum", path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilDone()
    return String(text.prefix(64))
}

@Suite(.ownThreads) struct URLBackendTests {
    func setUp(_ kind: String, hostile: String? = nil) throws -> (Sandbox, FixtureServer, String) {
        let s = try Sandbox()
        try s.mkdir("www")
        let name = "shellcheck-v0.10.0.\(kind == "binary" ? "bin" : kind)"
        try FixtureServer.archive(kind, s.root + "/www/" + name, version: "0.10.0", hostile: hostile)
        return (s, try FixtureServer(serving: s.root + "/www"), name)
    }

    func manifest(_ s: Sandbox, url: String, bin: String? = "shellcheck-v{version}/shellcheck", extra: String = "") throws {
        var entry = "{ url: \"\(url)\", version: 0.10.0"
        if let bin { entry += ", bin: \"\(bin)\"" }
        entry += extra + " }"
        try s.write("app/tack.yml", "tools:\n  shellcheck: \(entry)\n")
    }

    @Test(arguments: ["tar.gz", "tar.xz", "zip", "binary"])
    func installsEachKind(_ kind: String) throws {
        let (s, server, name) = try setUp(kind)
        try manifest(s, url: server.url("files/" + name.replacingOccurrences(of: "0.10.0", with: "{version}")), bin: kind == "binary" ? "shellcheck" : "shellcheck-v{version}/shellcheck")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let sum = try sha256(s.root + "/www/" + name)
        #expect(r.stderr.contains("shellcheck 0.10.0: recorded the checksum of its linux-"))
        #expect(s.read("app/tack.lock")?.contains(": \"\(sum)\"") == true)
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/0.10.0/bin/shellcheck") == "shellcheck 0.10.0\n")
        // The download is cached by checksum: a reinstall fetches nothing.
        #expect(try s.tack(["uninstall", "shellcheck@0.10.0"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try server.requests("files/" + name) == 1)
    }

    @Test func checksumMismatchInstallsNothing() throws {
        let (s, server, name) = try setUp("tar.gz")
        let wrong = String(repeating: "ab", count: 32)
        try manifest(s, url: server.url("files/" + name), extra: ", checksum: \"\(wrong)\"")
        let before = s.read("app/tack.yml")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        let sum = try sha256(s.root + "/www/" + name)
        #expect(r.failures.map(\.cause) == [.install(.checksumMismatch(tool: "shellcheck 0.10.0", platform: "linux-x86_64", expected: wrong, actual: sum, origin: .manifest))], "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck/0.10.0"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/downloads").isEmpty, "no partial download kept")
        #expect(s.read("app/tack.yml") == before)
        // A lock whose recorded checksum disagrees fails the same way, frozen or not.
        try manifest(s, url: server.url("files/" + name))
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        #expect(lock.contains(sum), "`tack lock` recorded the checksum")
        try s.write("app/tack.lock", lock.replacingOccurrences(of: sum, with: wrong))
        let frozen = try s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status == 1)
        #expect(frozen.failures.map(\.cause) == [.install(.checksumMismatch(tool: "shellcheck 0.10.0", platform: "linux-x86_64", expected: wrong, actual: sum, origin: .lock))], "\(frozen.stderr)")
    }

    @Test func serverErrorsAreRetried() throws {
        let (s, server, name) = try setUp("tar.gz")
        try manifest(s, url: server.url("flaky/2/" + name))
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try server.requests("flaky/2/" + name) == 3)
    }

    @Test func truncatedNotFoundAndHTML() throws {
        let (s, server, name) = try setUp("tar.gz")
        try manifest(s, url: server.url("truncated/" + name))
        let t = try s.tack(["install"], in: "app")
        #expect(t.status == 1)
        guard case .fetch(let cut, .cutShort)? = t.failures.first?.cause else { Issue.record("\(t.failures)"); return }
        #expect(cut == server.url("truncated/" + name) && t.failures.count == 1, "\(t.stderr)")
        #expect(try server.requests("truncated/" + name) == 5, "a cut connection is retried")

        try manifest(s, url: server.url("nothing-here/" + name))
        let n = try s.tack(["install"], in: "app")
        #expect(n.status == 1)
        #expect(n.failures.map(\.cause) == [.fetch(url: server.url("nothing-here/" + name), .answered(status: 404, redirectedTo: nil))], "\(n.stderr)")
        #expect(try server.requests("nothing-here/" + name) == 1, "a 404 is not retried")

        try manifest(s, url: server.url("html/" + name))
        let h = try s.tack(["install"], in: "app")
        #expect(h.status == 1)
        #expect(h.stderr.contains("tack: \(server.url("html/" + name)) sent a web page, not an archive: "))
        #expect(!s.exists("tack-home/installs/shellcheck"))
        #expect(try s.tack(["ls", "--json"], in: "app").stdout == "[]\n")
    }

    @Test(arguments: [
        ("dotdot", "/tmp/tack-evil-dotdot", "leaves the install directory"),
        ("absolute", "/tmp/tack-evil-absolute", "is an absolute path"),
        ("symlink-escape", "/tmp/tack-evil-symlink", "points to the absolute path `/tmp`"),
        ("symlink-dotdot", "/tmp/tack-evil-symlink2", "points outside the install directory"),
        ("hardlink-outside", "", "points outside the archive (`/etc/passwd`)"),
        ("device", "", "is a device, pipe or socket"),
    ])
    func hostileArchivesAreRejected(_ hostile: String, _ outside: String, _ why: String) throws {
        if !outside.isEmpty { try? FileManager.default.removeItem(atPath: outside) }
        let (s, server, name) = try setUp("tar.gz", hostile: hostile)
        try manifest(s, url: server.url("files/" + name))
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains(why), "\(r.stderr)")
        #expect(r.stderr.contains("— nothing was installed"))
        if !outside.isEmpty { #expect(!FileManager.default.fileExists(atPath: outside), "nothing written outside") }
        #expect(!s.exists("tack-home/installs/shellcheck"))
    }

    @Test func setuidBitIsRemovedAndSaid() throws {
        let (s, server, name) = try setUp("tar.gz", hostile: "setuid")
        try manifest(s, url: server.url("files/" + name))
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("shellcheck 0.10.0: removed the setuid/setgid bit from shellcheck-v0.10.0/suid (tack never installs setuid files)"))
        let attrs = try FileManager.default.attributesOfItem(atPath: s.root + "/tack-home/installs/shellcheck/0.10.0/files/shellcheck-v0.10.0/suid")
        #expect((attrs[.posixPermissions] as? Int).map { $0 & 0o6000 } == 0)
    }

    @Test func killedDownloadLeavesNothingBroken() throws {
        let (s, server, name) = try setUp("tar.gz")
        try manifest(s, url: server.url("slow/" + name))
        for delay in [0.3, 0.8, 1.5] {
            let p = try s.spawn(["install"], in: "app", log: s.root + "/killed.log")
            Thread.sleep(forTimeInterval: delay)
            kill(-p.processIdentifier, SIGKILL)
            p.waitUntilDone()
            #expect(try s.tack(["ls", "--json"], in: "app").stdout == "[]\n")
            let cached = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/downloads")) ?? []
            #expect(cached.allSatisfy { $0.hasPrefix(".partial-") }, "only partial files, never under a checksum name: \(cached)")
        }
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/0.10.0/bin/shellcheck") == "shellcheck 0.10.0\n")
    }

    @Test func versionIndexListsVersions() throws {
        let s = try Sandbox()
        try s.write("www/index.json", #"[{"version":"v20.11.1","lts":"Iron"},{"version":"v21.6.2","lts":false},{"version":"v18.19.1","lts":"Hydrogen"}]"#)
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  node: { url: \"\(server.url("files/node-v{version}.tar.xz"))\", version: \"~> 20.0\", versions: { url: \"\(server.url("files/index.json"))\", regex: '\"version\":\"v([0-9.]+)\"' } }\n")
        let r = try s.tack(["ls-remote", "node"], in: "app")
        #expect(r.stdout == "18.19.1\n20.11.1\n21.6.2\n", "\(r.stderr)")
        // `tack lock` records the artifact's checksum, so the artifact must exist.
        let missing = try s.tack(["lock"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot download node 20.11.1 from \(server.url("files/node-v20.11.1.tar.xz"))"), "\(missing.stderr)")
        try s.write("www/node-v20.11.1.tar.xz", "node\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(s.read("app/tack.lock")?.contains("version: \"20.11.1\"") == true)
    }
}
