import Foundation
import Testing

/// The shell scripts in the repository pass shellcheck (installed by `./bootstrap.sh --dev`).
@Suite(.ownThreads) struct ScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A program's exit status and its output and errors together (started with a clean
    /// signal mask; waited for itself, not for the pipes of anything it left running).
    static func run(_ executable: String, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
        try CleanProcess.run(executable, arguments)
    }

    @Test(arguments: ["bootstrap.sh", "bench/run", "bench/pip", "Fuzz/run", ".ci/run", "Tests/bare-machine/run", "Tests/slow"])
    func shellcheck(_ script: String) throws {
        let r = try Self.run("/usr/bin/env", ["shellcheck", Self.repository + "/" + script])
        #expect(r.status == 0, "shellcheck \(script) (missing? run ./bootstrap.sh --dev):\n\(r.output)")
    }

    @Test func bootstrapHelp() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.repository + "/bootstrap.sh")
        p.arguments = ["--help"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilDone()
        #expect(p.terminationStatus == 0)
        #expect(text.hasPrefix("Usage: ./bootstrap.sh"))
    }

    /// bootstrap.sh twice in a clean clone, into a temporary prefix: the first run builds and
    /// installs, the second changes nothing and says so. A full release build takes minutes,
    /// so this runs only when TACK_SLOW_TESTS=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TACK_SLOW_TESTS"] == "1"))
    func bootstrapTwiceInACleanClone() throws {
        let s = try Sandbox()
        s.environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let clone = try s.run("/usr/bin/env", ["git", "clone", "-q", Self.repository, s.root + "/clone"])
        #expect(clone.status == 0, "\(clone.stderr)")
        let first = try s.run(s.root + "/clone/bootstrap.sh", ["--prefix", s.root + "/prefix"], in: "clone")
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("installed \(s.root)/prefix/bin/tack"), "\(first.stdout)")
        for installed in ["bin/tack", "libexec/tack/tack-front", "libexec/tack/tack-cli"] {
            #expect(FileManager.default.isExecutableFile(atPath: s.root + "/prefix/" + installed), "\(installed)")
        }
        let version = try s.run(s.root + "/prefix/bin/tack", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("tack "), "\(version)")
        let second = try s.run(s.root + "/clone/bootstrap.sh", ["--prefix", s.root + "/prefix"], in: "clone")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("system packages: already installed"), "\(second.stdout)")
        #expect(!second.stdout.contains("==> installed "), "\(second.stdout)")
        #expect(second.stdout.contains("next:") || second.stdout.contains("add tack to your PATH"), "\(second.stdout)")
    }

    /// A new machine, for real: Tests/bare-machine/run debootstraps a minimal Debian, and as
    /// an ordinary user with sudo rights runs bootstrap.sh from a clone and `tack bootstrap` in
    /// a project, and as one without checks that tack bootstrap leaves the packages to an
    /// administrator and carries on. Root, Debian's mirror and about a quarter of an hour:
    /// only when TACK_SLOW_TESTS=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TACK_SLOW_TESTS"] == "1" && getuid() == 0))
    func aBareDebianMachineAsAnOrdinaryUser() throws {
        let r = try Self.run(Self.repository + "/Tests/bare-machine/run")
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("==> ") && r.output.contains("passed in"), "\(r.output)")
    }
}
