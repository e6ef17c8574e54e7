import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program the way a shell would start it, for tests that run whole scripts: signals
/// unblocked and at their defaults (a child of the test process would otherwise inherit the
/// mask of whichever thread started it, and a server it starts could not be stopped by
/// SIGTERM), standard input from /dev/null, and its output into a file rather than a pipe, so
/// the test waits for the program itself, never for an orphan that still holds the pipe.
enum CleanProcess {
    struct Failed: Error, CustomStringConvertible { var description: String }

    /// Runs `executable` with `arguments` and the test's environment (plus `environment`);
    /// returns its exit status (128 + the signal when one ended it) and everything it wrote.
    static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        ProcessStartLog.note(executable, arguments)
        let log = FileManager.default.temporaryDirectory.path + "/tack-clean-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failed(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, output)
    }
}
