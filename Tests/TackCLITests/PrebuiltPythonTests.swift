import Foundation
import Testing
import TackCore

/// `python` from the built-in registry: python-build-standalone's install_only archives, the
/// newest build of the version asked for, checked against the release's SHA256SUMS. Served on
/// loopback (Fixtures/fixtures.py `pbs`): a GitHub-shaped releases listing (TACK_GITHUB_API)
/// and a mirror of the release downloads (TACK_PYTHON_MIRROR), whose archives hold a small
/// `python/bin/python3`.
@Suite(.ownThreads) struct PrebuiltPythonTests {
    func setUp(_ mode: String? = nil) throws -> (Sandbox, FixtureServer, [String: String]) {
        let s = try Sandbox()
        try s.mkdir("www")
        let p = try FixturePython.run([FixtureServer.script, "pbs", s.root + "/www", Platform.current.triple] + (mode.map { [$0] } ?? []))
        #expect(p.status == 0, "\(p.stderr)")
        let server = try FixtureServer(serving: s.root + "/www")
        return (s, server, ["TACK_GITHUB_API": server.url("static"), "TACK_PYTHON_MIRROR": server.url("static/pbs")])
    }

    @Test func theNewestBuildOfTheVersionCheckedAgainstThePublishersSums() throws {
        let (s, server, env) = try setUp()
        defer { withExtendedLifetime(server) {} }
        try s.write("app/tack.yml", "tools:\n  python: \"3.12\"\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("python 3.12.2: recorded the publisher's checksum of its \(Platform.current) download"), "\(r.stderr)")
        let lock = s.read("app/tack.lock") ?? ""
        #expect(lock.contains("build: \"20240201\""), "\(lock)")
        let sum = try sha256(s.root + "/www/pbs/20240201/cpython-3.12.2+20240201-\(Platform.current.triple)-install_only.tar.gz")
        #expect(lock.contains("\(Platform.current): \"\(sum)\""), "\(lock)")
        let home = s.root + "/tack-home/installs/python/3.12.2/bin/"
        #expect(try runProgram(home + "python3", ["--version"]) == "Python 3.12.2 (20240201)\n")
        #expect(try runProgram(home + "python", ["--version"]) == "Python 3.12.2 (20240201)\n")
        #expect(try runProgram(home + "pip") == "pip from python 3.12.2\n")
        // An exact version comes in its newest build too: 3.12.1 is in 20240101 and 20240201.
        try s.write("app/tack.yml", "tools:\n  python: 3.12.1\n")
        #expect(try s.tack(["install"], in: "app", env: env).status == 0)
        #expect(try runProgram(s.root + "/tack-home/installs/python/3.12.1/bin/python3") == "Python 3.12.1 (20240201)\n")
        // tack lock --verify checks the lock against the publisher's sums as well as the download.
        let verify = try s.tack(["lock", "--verify"], in: "app", env: env)
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    /// `.python-version` pins it the same way (pyenv's file, read as tack reads it).
    @Test func aPythonVersionFileInstallsThePrebuiltOne() throws {
        let (s, server, env) = try setUp()
        defer { withExtendedLifetime(server) {} }
        try s.write("app/.python-version", "3.11\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/python/3.11.7/bin/python3") == "Python 3.11.7 (20240101)\n")
    }

    /// Not trust on first use: a download the publisher's sums disagree with, or do not list,
    /// installs and locks nothing, and the error names both values.
    @Test(arguments: ["tampered", "missing"])
    func aDownloadThePublishersSumsDoNotVouchForInstallsNothing(_ mode: String) throws {
        let (s, server, env) = try setUp(mode)
        try s.write("app/tack.yml", "tools:\n  python: 3.11.7\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 1)
        let name = "cpython-3.11.7+20240101-\(Platform.current.triple)-install_only.tar.gz"
        let sums = server.url("static/pbs/20240101/SHA256SUMS")
        if mode == "tampered" {
            let sum = try sha256(s.root + "/www/pbs/20240101/" + name)
            #expect(r.failures.map(\.cause) == [.install(.checksumMismatch(
                tool: "python 3.11.7", platform: Platform.current.description, expected: String(repeating: "0", count: 64), actual: sum,
                origin: .publisher(says: "the publisher's checksums (\(sums)) say")))], "\(r.stderr)")
            // The publisher's list is not the user's to fix: no advice to edit tack.yml.
            #expect(r.stderr.contains("the file served is not the one its publisher lists") && !r.stderr.contains("fix the checksum in tack.yml"), "\(r.stderr)")
        } else {
            #expect(r.stderr.contains("the checksums of python 3.11.7 at \(sums) list nothing for \(name) — nothing was installed"), "\(r.stderr)")
        }
        #expect(!s.exists("tack-home/installs/python/3.11.7"))
        #expect(!(s.read("app/tack.lock") ?? "").contains("sha256"))
    }

    /// A lock that names a build which is not a plain word is refused before any URL is made:
    /// `..` would climb out of the publisher's release path (curl resolves dot segments) to
    /// another repository's release and its own SHA256SUMS.
    @Test(arguments: ["../../evil", ".."]) func aHostileBuildInTheLockIsRefused(_ build: String) throws {
        let (s, server, env) = try setUp()
        defer { withExtendedLifetime(server) {} }
        try s.write("app/tack.yml", "tools:\n  python: 3.12.2\n")
        #expect(try s.tack(["lock"], in: "app", env: env).status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "build: \"20240201\"", with: "build: \"\(build)\""))
        let r = try s.tack(["install", "--frozen"], in: "app", env: env)
        #expect(r.status == 1 && r.stderr.contains("tack.lock's build of python 3.12.2 is \"\(build)\", not a build name — nothing was installed"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/python/3.12.2"))
    }

    @Test func publisherChecksumFilesInTheirCommonShapes() throws {
        let name = "tool-1.0-linux.tar.gz", hash = String(repeating: "ab", count: 32)
        #expect(try PublisherChecksums("\(hash)  \(name)\n\(String(repeating: "cd", count: 32))  other.zip\n").sum(for: name) == hash)
        #expect(try PublisherChecksums("\(hash.uppercased()) *./dist/\(name)\n").sum(for: name) == hash)
        #expect(try PublisherChecksums("SHA256 (\(name)) = \(hash)\n").sum(for: name) == hash)
        #expect(try PublisherChecksums("\(hash)\n").sum(for: name) == hash, "a per-file .sha256")
        #expect(try PublisherChecksums("\(hash)  other.zip\n\(hash)  more.zip\n").sum(for: name) == nil)
        #expect(try PublisherChecksums("not a checksum file").sum(for: name) == nil)
    }
}

/// A real CPython from python-build-standalone, installed with no compiler on PATH. Slow and
/// needs a download the tester makes: set TACK_TEST_PYTHON_DIR to a directory holding one
/// release's `cpython-VERSION+BUILD-TRIPLE-install_only.tar.gz` for this machine and that
/// release's `SHA256SUMS` (both from github.com/astral-sh/python-build-standalone/releases).
@Suite(.ownThreads, .enabled(if: ProcessInfo.processInfo.environment["TACK_TEST_PYTHON_DIR"] != nil)) struct RealPythonTests {
    @Test func aRealCPythonRunsWithoutACompiler() throws {
        let dir = try #require(ProcessInfo.processInfo.environment["TACK_TEST_PYTHON_DIR"])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        let archive = try #require(files.first { $0.hasPrefix("cpython-") && $0.hasSuffix("-\(Platform.current.triple)-install_only.tar.gz") })
        // cpython-3.12.7+20241016-x86_64-unknown-linux-gnu-install_only.tar.gz
        let versionAndBuild = archive.dropFirst("cpython-".count).split(separator: "-")[0].split(separator: "+")
        let (version, build) = (String(versionAndBuild[0]), String(versionAndBuild[1]))
        let s = try Sandbox()
        try s.mkdir("www/pbs/\(build)")
        for name in [archive, "SHA256SUMS"] {
            try FileManager.default.copyItem(atPath: dir + "/" + name, toPath: s.root + "/www/pbs/\(build)/" + name)
        }
        try s.mkdir("www/repos/astral-sh/python-build-standalone")
        try s.write("www/repos/astral-sh/python-build-standalone/releases", #"[{"tag_name":"\#(build)","assets":[{"name":"\#(archive)"}]}]"#)
        let server = try FixtureServer(serving: s.root + "/www")
        // No compiler, nor anything else, on PATH: the install needs none.
        try s.mkdir("nothing-on-path")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_PYTHON_MIRROR": server.url("static/pbs"), "PATH": s.root + "/nothing-on-path"]
        try s.write("app/.python-version", version + "\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let python = s.root + "/tack-home/installs/python/\(version)/bin/python3"
        #expect(try runProgram(python, ["-c", "import sys, ssl, sqlite3; print(sys.version.split()[0])"]) == version + "\n")
        #expect(try runProgram(s.root + "/tack-home/installs/python/\(version)/bin/pip", ["--version"]).contains("python"))
        withExtendedLifetime(server) {}
    }
}
