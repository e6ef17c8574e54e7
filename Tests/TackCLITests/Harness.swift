import Foundation
import Testing
import TackCLI
import TackCore

/// A sandbox for running the built `tack` as a user would: its own HOME, TACK_HOME, TMPDIR and
/// project directories under a fresh temporary directory, removed afterwards.
final class Sandbox {
    let root: String
    var environment: [String: String]

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/tack-test-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw CocoaError(.fileWriteUnknown) }
        root = URL(fileURLWithPath: String(cString: template)).resolvingSymlinksInPath().path
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
        environment = [
            "HOME": root + "/home",
            "TACK_HOME": root + "/tack-home",
            // What tack and the programs it runs (SwiftPM, uv, pip, gem) leave in a temporary
            // directory goes with the sandbox.
            "TMPDIR": root + "/tmp",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        // No test asks the real GitHub (aqua's registry, releases) unless it serves its own.
        if ProcessInfo.processInfo.environment["TACK_NETWORK_TESTS"] == nil { environment["TACK_GITHUB_API"] = "http://127.0.0.1:9" }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The environment of a user who has set tack up: the shims directory first on PATH.
    var withShimsOnPath: [String: String] {
        ["PATH": root + "/tack-home/shims:" + (environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// A machine where `tack doctor` finds nothing wrong: the shims on PATH, and not the
    /// stand-in GitHub API the sandbox points at a closed port (a mirror doctor would say
    /// does not answer).
    var healthy: [String: String] { withShimsOnPath.merging(["TACK_GITHUB_API": ""]) { $1 } }

    /// Writes `text` to `path` (relative to the sandbox), creating directories.
    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    /// Written as tack writes files (atomically, its descriptor closed on exec), so a child
    /// another test starts at that moment never holds it open: a script written here and run
    /// at once never fails with "text file busy".
    func write(_ path: String, _ data: Data) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // A file written again keeps its mode (a script stays executable), as an edit in place would.
        let mode = (try? FileManager.default.attributesOfItem(atPath: full))?[.posixPermissions] as? Int
        try LocalFileSystem().writeAtomically(full, [UInt8](data), permissions: mode.map { UInt16($0 & 0o7777) })
    }

    /// Writes a project file and trusts its project (`tack trust`), as a user who has read
    /// it would: for manifests with `build:` commands, env or `path:` pins.
    func writeTrusted(_ path: String, _ text: String) throws {
        try write(path, text)
        let dir = (path as NSString).deletingLastPathComponent
        let r = try tack(["trust"], in: dir)
        guard r.status == 0 else { throw TrustFailed(message: r.stderr) }
    }
    struct TrustFailed: Error { var message: String }

    /// A registry of the user's own that makes `jq` a plain url tool (no options), so tests
    /// can fake its install and lock by hand. Returns its source.
    @discardableResult
    func plainJQ() throws -> String {
        let source = "https://example.org/jq-{version}"
        try write("tack-home/registries/local/registry.yml", "jq: { url: \"\(source)\" }\n")
        return source
    }

    /// An install as tack leaves it: the version's directory with `bin/` and the record of the
    /// lock entry it was made from (what makes it count as installed).
    func fakeInstall(_ tool: String, _ version: String, backend: String, source: String, requested: String? = nil) throws {
        let dir = "tack-home/installs/\(tool)/\(version)"
        try mkdir(dir + "/bin")
        try write(dir + "/.tack-install.lock", """
            version: 1
            tools:
              \(tool): { backend: "\(backend)", requested: "\(requested ?? version)", source: "\(source)", version: "\(version)" }

            """)
    }

    func mkdir(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The errors the command said, with their cases (in-process runs only: a process of the
        /// built binaries shows only its output).
        var failures: [TackError] = []

        /// The first "no version matches" the command said: the tool, the requirement, and
        /// what the error adds about the versions there are.
        var noVersion: (tool: String, requirement: String, hint: ResolutionFailure.Hint)? {
            for f in failures {
                if case .resolution(.noVersion(let tool, let requirement, _, _, let hint)) = f.cause { return (tool, requirement, hint) }
            }
            return nil
        }
    }

    /// Runs `tack args` in `directory` (relative to the sandbox); `stdout`, when given,
    /// receives standard output instead of a pipe (`/dev/full`, say). A command `tack-cli`
    /// answers runs in-process (`tackInProcess`), as the built binaries would run it, unless
    /// `TACK_TEST_BINARY` names binaries to test; what only a process shows (the hot commands
    /// `tack` answers, `exec`, a closed stdout, signals) runs the built `tack`.
    func tack(_ args: [String], in directory: String = "", env extra: [String: String] = [:], stdout: FileHandle? = nil, program: String? = nil) throws -> Result {
        if stdout == nil, program == nil, Self.runsInProcess(args), !hasGitConfig { return try tackInProcess(args, in: directory, env: extra) }
        return try tackProcess(args, in: directory, env: extra, stdout: stdout, program: program)
    }

    /// The commands the harness runs in-process: every one `tack-cli` answers but `exec`
    /// (which becomes the tool), `new` (whose first commit's author comes from git's own
    /// configuration) and those `tack` answers from the snapshot.
    static let inProcessCommands: Set<String> = [
        "install", "use", "lock", "update", "outdated", "where", "ls", "ls-remote", "uninstall", "prune", "reshim",
        "registry", "cache", "trust", "bootstrap", "doctor", "sbom", "completion", "version", "help", "env",
        "activate", "deactivate", "verify", "mirror",
    ]

    /// The sandbox gives git a configuration of its own (`insteadOf`, an author), which libgit2
    /// reads from the process's HOME: only a process of its own sees it.
    var hasGitConfig: Bool { FileManager.default.fileExists(atPath: root + "/home/.gitconfig") }

    static func runsInProcess(_ args: [String]) -> Bool {
        guard ProcessInfo.processInfo.environment["TACK_TEST_BINARY"] == nil else { return false }
        guard let first = args.first(where: { $0 != "-q" && $0 != "--quiet" && $0 != "-v" && $0 != "--verbose" }) else { return false }
        return inProcessCommands.contains(first)
    }

    /// The sandbox's environment for a command run in `directory` (relative to the sandbox),
    /// with `extra` over it.
    func environment(in directory: String, _ extra: [String: String] = [:]) -> [String: String] {
        var env = environment
        env["PWD"] = root + "/" + directory
        env.merge(extra) { $1 }
        return env
    }

    /// Runs `tack args` in this test's process (`Tack.main(arguments:scope:)`), in a scope with
    /// the sandbox's environment and `directory`: what tack-cli would print and exit with.
    func tackInProcess(_ args: [String], in directory: String = "", env extra: [String: String] = [:]) throws -> Result {
        let env = environment(in: directory, extra)
        let cli = URL(fileURLWithPath: try Self.binary()).deletingLastPathComponent().appendingPathComponent("tack-cli").path
        let scope = ProcessScope(environment: env, cwd: Paths.normalize(root + "/" + directory), executable: cli)
        return InProcessRun.run(args, scope: scope)
    }

    /// Runs `tack args` as a process of the built binaries.
    func tackProcess(_ args: [String], in directory: String = "", env extra: [String: String] = [:], stdout: FileHandle? = nil, program: String? = nil) throws -> Result {
        let path = try program ?? Self.binary()
        ProcessStartLog.note(path, args)
        let env = environment(in: directory, extra)
        let out = try OutputFile(), err = try OutputFile()
        let ending = try HarnessSpawn.run(path, args, directory: root + "/" + directory, environment: env, input: nil,
                                          stdout: (stdout ?? out.handle).fileDescriptor, stderr: err.handle.fileDescriptor)
        return Result(status: ending.shellStatus, stdout: stdout == nil ? out.text() : "", stderr: err.text())
    }

    /// A temporary file a child writes its output into: the test waits for the child itself,
    /// never for the end of a pipe that something the child left running may still hold.
    final class OutputFile {
        let path = FileManager.default.temporaryDirectory.path + "/tack-output-\(UUID().uuidString)"
        let handle: FileHandle
        init() throws {
            FileManager.default.createFile(atPath: path, contents: nil)
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        deinit {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
        }
        func text() -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
    }

    /// Runs any program in `directory` with the sandbox's environment, `input` on its stdin.
    func run(_ program: String, _ args: [String], in directory: String = "", env extra: [String: String] = [:], input: String = "") throws -> Result {
        ProcessStartLog.note(program, args + [input])
        let env = environment(in: directory, extra)
        let out = try OutputFile(), err = try OutputFile()
        let ending = try HarnessSpawn.run(program, args, directory: root + "/" + directory, environment: env, input: input,
                                          stdout: out.handle.fileDescriptor, stderr: err.handle.fileDescriptor)
        // As Foundation's Process gave it: the exit status, or the number of the signal.
        return Result(status: ending.status, stdout: out.text(), stderr: err.text())
    }

    /// Starts `tack args` without waiting; output goes to `log`. It starts in a process group
    /// of its own (`HarnessSpawn`), so `kill(-pid, …)` reaches everything it started.
    func spawn(_ args: [String], in directory: String = "", log: String) throws -> SpawnedProcess {
        let binary = try Self.binary()
        ProcessStartLog.note(binary, args)
        let env = environment(in: directory)
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        return SpawnedProcess(try HarnessSpawn.start(binary, args, directory: root + "/" + directory, environment: env, input: nil,
                                                     stdout: handle.fileDescriptor, stderr: handle.fileDescriptor))
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root + "/" + path).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + path) }

    /// Every path under the sandbox with its contents, to prove a command wrote nothing.
    func snapshot() -> [String: Data] {
        var out: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: root) else { return out }
        while let rel = e.nextObject() as? String {
            let full = root + "/" + rel
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: full, isDirectory: &isDir)
            out[rel] = isDir.boolValue ? Data("<dir>".utf8) : (FileManager.default.contents(atPath: full) ?? Data())
        }
        return out
    }

    /// The built `tack`, beside this test bundle in the build directory.
    static func binary() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["TACK_TEST_BINARY"] { return explicit }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        #if os(Linux)
        dir = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).deletingLastPathComponent()
        #endif
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("tack").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw TestBinaryMissing()
    }
    struct TestBinaryMissing: Error, CustomStringConvertible {
        var description: String { "the built tack binary was not found beside the test bundle; run `swift build` first" }
    }
}

/// Runs a program and returns its standard output (with `environment`, when given, as its
/// whole environment).
func runProgram(_ path: String, _ args: [String] = [], in dir: String = "/", environment: [String: String]? = nil) throws -> String {
    ProcessStartLog.note(path, args)
    let out = try Sandbox.OutputFile()
    _ = try HarnessSpawn.run(path, args, directory: dir, environment: environment ?? ProcessInfo.processInfo.environment, input: nil,
                             stdout: out.handle.fileDescriptor, stderr: 2)
    return out.text()
}

/// A value handed to a thread of its own, for tests that hold what Swift cannot prove
/// thread-safe (a `Process`, a `Sandbox`) and only wait on it there.
struct Handed<T>: @unchecked Sendable { let value: T }

/// The waits of async tests, each on a thread of its own (`OffPool`): the test runner has as
/// many threads as cores, and a test that holds one while its child sleeps (a slow build, a
/// crawling server, a signal's delay) keeps every other test off it.
extension Sandbox {
    func tack(_ args: [String], in directory: String = "", env extra: [String: String] = [:], program: String? = nil) async throws -> Result {
        let me = Handed(value: self)
        let test = ProcessStartLog.currentTest
        return try await OffPool.run { () throws(any Error) -> Result in
            try ProcessStartLog.during(test) { try me.value.tack(args, in: directory, env: extra, program: program) }
        }
    }

    func run(_ program: String, _ args: [String], in directory: String = "", env extra: [String: String] = [:], input: String = "") async throws -> Result {
        let me = Handed(value: self)
        let test = ProcessStartLog.currentTest
        return try await OffPool.run { () throws(any Error) -> Result in
            try ProcessStartLog.during(test) { try me.value.run(program, args, in: directory, env: extra, input: input) }
        }
    }
}

/// Copies an executable so that it can be run at once: written through a descriptor closed on
/// exec (FileManager's copy leaves one a child the test process starts meanwhile may inherit,
/// and running a file some process holds open for writing fails with "Text file busy"), to a
/// temporary name, then renamed into place.
func copyExecutable(_ source: String, to destination: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
    let temporary = destination + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    guard written == bytes.count, rename(temporary, destination) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

extension Process {
    /// Blocks until the process has ended, asleep: Foundation's `waitUntilExit` on Linux spins
    /// a core in its run loop while it waits (every end-to-end test paid a core for each
    /// process it waited on). Its status is set when `isRunning` turns false.
    func waitUntilDone() {
        while isRunning { usleep(1_000) }
    }
}

/// A command run in-process from a test that may block its thread: on threads of its own
/// (`TestThreads.commands`), so that tests waiting on commands never starve the commands.
enum InProcessRun {
    final class Box: @unchecked Sendable { var status: Int32 = 0 }

    static func run(_ args: [String], scope: ProcessScope) -> Sandbox.Result {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.status = await withTaskExecutorPreference(TestThreads.commands) { await Tack.main(arguments: args, scope: scope) }
            done.signal()
        }
        done.wait()
        return Sandbox.Result(status: box.status, stdout: scope.standardOutput, stderr: scope.standardError, failures: scope.failures)
    }
}

/// Waits for `process` to end without holding one of the test runner's threads.
func exited(_ process: Process) async {
    let handed = Handed(value: process)
    await OffPool.run { handed.value.waitUntilDone() }
}

/// Sleeps without holding one of the test runner's threads.
func pause(_ seconds: Double) async {
    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
}

/// Runs a test's timed steps (wait for a sign, then send a signal) on a thread of its own, in
/// one go: an async test resumes only when the runner has a thread free, which may be long
/// after its sleep ended — too late for a signal meant to land mid-build.
func timed<T>(_ body: @escaping () throws -> T) async throws -> T {
    let handed = Handed(value: body)
    let result = await OffPool.run { Handed(value: Result { try handed.value() }) }
    return try result.value.get()
}

/// Polls `condition` every 50 ms for up to `seconds`, blocking: for `timed` steps only.
func poll(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// This machine's platform key in a lock (`linux-x86_64`), as the tests' messages name it.
var platformKey: String {
    #if arch(arm64)
    "linux-arm64"
    #else
    "linux-x86_64"
    #endif
}
