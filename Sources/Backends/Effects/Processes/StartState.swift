#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this process started with, captured before anything else runs, so that a command
/// `tack exec` runs starts with the signal mask and the ignored signals tack itself started
/// with (Swift's worker threads block nearly every signal, and a child inherits the mask of
/// the thread that execs it).
public struct StartState: @unchecked Sendable {
    public var mask = sigset_t()
    public var ignored: Set<Int32> = []

    public static let signalRange: Range<Int32> = 1..<65

    /// Captured on first use: `Tack.runFromCommandLine` touches it first, on the main thread.
    public static let captured: StartState = {
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
    public func restore() {
        for sig in Self.signalRange where sig != SIGKILL && sig != SIGSTOP {
            signal(sig, ignored.contains(sig) ? SIG_IGN : SIG_DFL)
        }
        var m = mask
        pthread_sigmask(SIG_SETMASK, &m, nil)
    }
}

