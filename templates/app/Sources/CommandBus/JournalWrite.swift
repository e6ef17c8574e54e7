import Synchronization

/// A write queued on a journal: `wait()` returns once its records are durable, or throws why
/// they are not (and then none of them is in the journal). Queuing returns at once, so the
/// bus never blocks a thread on a disk; many writes queued together share one fsync.
public final class JournalWrite: Sendable {
    enum State {
        case waiting([CheckedContinuation<Void, any Error>])
        case done(Result<Void, any Error>)
    }
    let state: Mutex<State>

    init() { state = Mutex(.waiting([])) }
    init(_ result: Result<Void, any Error>) { state = Mutex(.done(result)) }

    public static let done = JournalWrite(.success(()))
    public static func failed(_ error: any Error) -> JournalWrite { JournalWrite(.failure(error)) }

    /// Returns once the records are durable; throws if they never will be.
    public func wait() async throws {
        let finished: Result<Void, any Error>? = state.withLock { s in
            if case .done(let result) = s { return result }
            return nil
        }
        if let finished { return try finished.get() }
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let ready: Result<Void, any Error>? = state.withLock { s in
                switch s {
                case .done(let result): return result
                case .waiting(var waiters):
                    waiters.append(c)
                    s = .waiting(waiters)
                    return nil
                }
            }
            if let ready { c.resume(with: ready) }
        }
    }

    /// Whether it has finished, and how (nil while queued).
    public var result: Result<Void, any Error>? {
        state.withLock { s in if case .done(let r) = s { return r } else { return nil } }
    }

    func finish(_ result: Result<Void, any Error>) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { s in
            guard case .waiting(let w) = s else { return [] }
            s = .done(result)
            return w
        }
        for w in waiters { w.resume(with: result) }
    }
}
