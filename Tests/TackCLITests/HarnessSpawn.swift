import Backends
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the harness runs a program and waits for it: through `tack_spawn`, as tack starts its
/// own children (a process group of its own, an empty signal mask, every signal at its
/// default, as a shell starts one), never Foundation's `Process`, whose `run()` on Linux can
/// read past a `readdir` record and crash the test run (swift-corelibs-foundation #5472).
enum HarnessSpawn {
    struct Failed: Error, CustomStringConvertible { var description: String }

    /// How a program ended: its exit status, or the signal that ended it.
    struct Ending {
        var status: Int32
        var signal: Int32?
        /// As a shell gives it: the exit status, or 128 + the signal.
        var shellStatus: Int32 { signal.map { 128 + $0 } ?? status }
    }

    /// Runs `program` (an absolute path) with `arguments` in `directory` and `environment`;
    /// `input` is written to its standard input (then closed), its output goes to `stdout` and
    /// `stderr`. Waits for it.
    static func run(_ program: String, _ arguments: [String], directory: String, environment: [String: String],
                    input: String?, stdout: Int32, stderr: Int32) throws -> Ending {
        wait(try start(program, arguments, directory: directory, environment: environment, input: input, stdout: stdout, stderr: stderr))
    }

    /// How `pid` ended, once it has.
    static func wait(_ pid: pid_t) -> Ending {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return ending(raw)
    }

    static func ending(_ raw: Int32) -> Ending {
        let signal = raw & 0x7F
        return signal == 0 ? Ending(status: (raw >> 8) & 0xFF, signal: nil) : Ending(status: signal, signal: signal)
    }

    /// Starts it as `run` does, without waiting: its process id.
    static func start(_ program: String, _ arguments: [String], directory: String, environment: [String: String],
                      input: String?, stdout: Int32, stderr: Int32) throws -> pid_t {
        var fds: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&fds) == 0 else { throw Failed(description: "pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        // No other descriptor of the test process reaches it (Foundation's Process closed them
        // too): a lock or a pipe another test holds open must not live on in this child.
        let (started, pid) = ChildProcess.spawn(program, arguments, directory: directory, environment: environment,
                                                input: fds[0], output: stdout, error: stderr, ownGroup: true)
        if fds[0] >= 0 { close(fds[0]) }
        guard started == 0 else {
            if fds[1] >= 0 { close(fds[1]) }
            throw Failed(description: "cannot start \(program) in \(directory): \(String(cString: strerror(started)))")
        }
        if let input, fds[1] >= 0 {
            // Written on a thread of its own, so a program that reads none of it (or not yet)
            // never blocks this one; closed when written or when the program stops reading.
            let fd = fds[1], bytes = Array(input.utf8)
            Thread.detachNewThread {
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { break }
                    sent += n
                }
                close(fd)
            }
        }
        return pid
    }
}

/// A program the harness started and did not wait for (`Sandbox.spawn`), with the members of
/// Foundation's `Process` the tests use.
final class SpawnedProcess: @unchecked Sendable {
    let processIdentifier: pid_t
    private let lock = NSLock()
    private var ended: HarnessSpawn.Ending?

    init(_ pid: pid_t) { processIdentifier = pid }

    /// Blocks until it has ended.
    func waitUntilDone() {
        if lock.withLock({ ended }) != nil { return }
        let ending = HarnessSpawn.wait(processIdentifier)
        lock.withLock { ended = ended ?? ending }
    }

    var isRunning: Bool {
        lock.withLock {
            guard ended == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
            ended = HarnessSpawn.ending(raw)
            return false
        }
    }

    /// Its exit status, or the signal that ended it (as `Process` gives them).
    var terminationStatus: Int32 { lock.withLock { ended?.status ?? 0 } }
    var terminationReason: Process.TerminationReason { lock.withLock { ended?.signal } != nil ? .uncaughtSignal : .exit }
}
