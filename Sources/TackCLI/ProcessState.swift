#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Backends
import Dispatch
import Foundation
import TackCore

/// What this process started with, captured before anything else runs, so that a command
/// `tack exec` runs starts with the signal mask and the ignored signals tack itself started
/// with (Swift's worker threads block nearly every signal, and a child inherits the mask of
/// the thread that execs it).
struct StartState: @unchecked Sendable {
    var mask = sigset_t()
    var ignored: Set<Int32> = []

    static let signalRange: Range<Int32> = 1..<65

    /// Captured on first use: `Tack.runFromCommandLine` touches it first, on the main thread.
    static let captured: StartState = {
        var state = StartState()
        pthread_sigmask(SIG_SETMASK, nil, &state.mask)
        for sig in signalRange where sig != SIGKILL && sig != SIGSTOP {
            var action = sigaction()
            guard sigaction(sig, nil, &action) == 0 else { continue }
            if Self.isIgnore(action) { state.ignored.insert(sig) }
        }
        return state
    }()

    static func isIgnore(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        #else
        return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
    }

    /// Puts every disposition and the mask back as they were at start (immediately before an
    /// exec: handlers do not survive it, ignored signals and the mask do).
    func restore() {
        for sig in Self.signalRange where sig != SIGKILL && sig != SIGSTOP {
            signal(sig, ignored.contains(sig) ? SIG_IGN : SIG_DFL)
        }
        var m = mask
        pthread_sigmask(SIG_SETMASK, &m, nil)
    }
}

/// SIGINT, SIGTERM and SIGHUP while tack works: stop what it started, remove this process's
/// unfinished installs and downloads, and exit as a shell expects (128 + the signal).
enum Interrupts {
    private static let queue = DispatchQueue(label: "tack.signals")
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    /// Directories a command is making that an interrupt must not leave behind.
    nonisolated(unsafe) private static var scratch: [String] = []
    nonisolated(unsafe) private static var stopping = false
    private static let scratchLock = NSLock()

    /// Whether a signal is being handled: the process is about to exit with its status, so
    /// the main thread must not exit (or report a failure the cleanup caused) first.
    static var isStopping: Bool { scratchLock.withLock { stopping } }

    /// Waits for the signal handler's exit.
    static func park() -> Never {
        while true { sleep(60) }
    }

    /// Removes `path` if the process is interrupted before `keep(path)`.
    static func removeOnInterrupt(_ path: String) { scratchLock.withLock { scratch.append(path) } }
    static func keep(_ path: String) { scratchLock.withLock { scratch.removeAll { $0 == path } } }

    static func install(store: @escaping @Sendable () -> Store?) {
        for sig in [SIGINT, SIGTERM, SIGHUP] where !StartState.captured.ignored.contains(sig) {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                scratchLock.withLock { stopping = true }
                RunningChildren.shared.signalAll(SIGTERM)
                if let store = store() { removeUnfinished(store) }
                for path in scratchLock.withLock({ scratch }) { removeWhileInUse(path) }
                Output.err("\n")
                Output.error("interrupted (\(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP")); nothing half-installed was kept")
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes a directory another thread may still be writing into (libgit2 making a
    /// repository recreates its path): renamed away first, so writes by path fail rather than
    /// land in it, then removed; again after a moment if it came back.
    static func removeWhileInUse(_ path: String) {
        let fm = FileManager.default
        for round in 0..<4 {
            if round > 0 { usleep(25_000) }
            guard fm.fileExists(atPath: path) else { continue }
            let doomed = path + ".interrupted-\(round)"
            let target = rename(path, doomed) == 0 ? doomed : path
            for _ in 0..<3 where fm.fileExists(atPath: target) { try? fm.removeItem(atPath: target) }
        }
    }

    /// This process's temporary install directories and partial downloads.
    static func removeUnfinished(_ store: Store) {
        let fs = store.fs
        let pid = getpid()
        for tool in (try? fs.list(store.installs)) ?? [] {
            let dir = store.installs + "/" + tool
            for entry in (try? fs.list(dir)) ?? [] where entry.hasPrefix(".tmp-") && entry.hasSuffix("-\(pid)") {
                try? fs.remove(dir + "/" + entry)
            }
        }
        let downloads = store.cache + "/downloads"
        for entry in (try? fs.list(downloads)) ?? [] where entry.hasPrefix(".partial-\(pid)-") {
            try? fs.remove(downloads + "/" + entry)
        }
    }
}

/// Output that could not be written (a full disk, a closed pipe's reader gone) is an error:
/// stdout is flushed at exit and a failure is said on stderr with exit status 1.
enum OutputCheck {
    static func install() {
        atexit {
            errno = 0
            if fflush(nil) != 0 {
                let why = errno != 0 ? String(cString: strerror(errno)) : "write error"
                Output.error("cannot write output: \(why)")
                _exit(1)
            }
        }
    }
}
