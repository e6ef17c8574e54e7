import CSpawn
import Foundation
import TackCore

/// How tack starts every program it runs for its own work (builds, installers, plugins,
/// credential helpers, bootstrap commands): an argument array, never a shell string; a process
/// group of its own; every signal at its default action but those ignored when tack started
/// (tack ignores SIGINT, SIGTERM and SIGHUP while it handles them, and a child would otherwise
/// inherit that and outlive an interrupt), an empty signal mask; no descriptor of tack's but
/// the three it is given (one a library opened without close-on-exec, or a lock, would live on
/// in it); registered in `RunningChildren` until it ends, so an interrupt stops it and what
/// it started.
public enum ChildProcess {
    /// Starts `path` (an absolute path). `input` < 0 reads /dev/null. `ownGroup: false` keeps
    /// it in tack's process group, for a command that talks to the user's terminal (a
    /// `bootstrap.run` command may ask for a password; in a group of its own it would be
    /// stopped for reading the terminal from the background).
    public static func start(_ path: String, _ arguments: [String], directory: String?, environment: [String: String],
                             input: Int32 = -1, output: Int32, error: Int32, ownGroup: Bool = true) throws(TackError) -> pid_t {
        var (status, pid) = spawn(path, arguments, directory: directory, environment: environment, input: input, output: output, error: error,
                                  ownGroup: ownGroup, sparing: StartState.captured.ignored)
        // "Text file busy": a program tack has just written (a toolchain extracted, a build)
        // is still open for writing in a child another install started at that moment, until
        // that child execs. Asked again for up to a second, as the window is that child's start.
        var waited = 0
        while status == ETXTBSY && waited < 50 {
            usleep(20_000)
            waited += 1
            (status, pid) = spawn(path, arguments, directory: directory, environment: environment, input: input, output: output, error: error,
                                  ownGroup: ownGroup, sparing: StartState.captured.ignored)
        }
        guard status == 0 else { throw TackError("cannot run \(path): \(String(cString: strerror(status)))") }
        do { try RunningChildren.shared.add(pid) } catch {
            // Started as an interrupt stops everything: stopped at once too.
            kill(ownGroup ? -pid : pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            throw error
        }
        return pid
    }

    /// Starts `path` to outlive tack: in a process group of its own, reading and writing
    /// /dev/null, with no environment, every signal at its default, and not registered in
    /// `RunningChildren` (an interrupt does not stop it, and nothing waits for it), and none of
    /// tack's other descriptors (a pipe it writes to would otherwise stay open). What the
    /// interrupt path leaves behind it (`rm -rf` of leftovers). Whether it started.
    public static func startDetached(_ path: String, _ arguments: [String]) -> Bool {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return false }
        defer { close(null) }
        return spawn(path, arguments, directory: nil, environment: [:], input: -1, output: null, error: null, ownGroup: true).status == 0
    }

    /// `tack_spawn` of `path` with `arguments` and `environment`: an empty signal mask, every
    /// signal at its default but those in `sparing`, and no descriptor of this process's but
    /// the three given. The status (0, or an errno value) and the process id.
    public static func spawn(_ path: String, _ arguments: [String], directory: String?, environment: [String: String],
                             input: Int32, output: Int32, error: Int32, ownGroup: Bool, sparing ignored: Set<Int32> = []) -> (status: Int32, pid: pid_t) {
        var mask = sigset_t(), defaults = sigset_t()
        sigemptyset(&mask)
        sigemptyset(&defaults)
        for sig in StartState.signalRange where sig != SIGKILL && sig != SIGSTOP && !ignored.contains(sig) {
            sigaddset(&defaults, sig)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = tack_spawn(&pid, path, argv, envp, directory, input, output, error, &mask, &defaults, ownGroup ? 1 : 0)
        return (status, pid)
    }

    /// Waits for `pid` to end (on a thread of its own, never blocking Swift's pool) and returns
    /// its status as a shell gives it: the exit status, or 128 + the signal that ended it.
    public static func wait(_ pid: pid_t) async -> Int32 {
        let status: Int32 = await OffPool.run {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            return raw
        }
        RunningChildren.shared.remove(pid)
        RunningChildren.shared.forget(pid)
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
