import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TackCore

/// How long a network transfer may stall and how slow it may crawl before tack gives up on it,
/// as curl's `--speed-limit`/`--speed-time`: no byte for `idle` seconds, or fewer than
/// `minimumRate` bytes a second over the last `idle` seconds, ends it with a message naming
/// the host. `TACK_HTTP_TIMEOUT` (seconds, default 30) and `TACK_HTTP_MIN_RATE` (bytes a
/// second, default 10) set them; `TACK_CACHE_TIMEOUT` sets the team cache's.
public struct TransferLimits: Sendable, Equatable {
    public var idle: TimeInterval
    public var minimumRate: Double
    /// The variable that set `idle`, for messages.
    public var variable = "TACK_HTTP_TIMEOUT"

    public init(idle: TimeInterval = 30, minimumRate: Double = 10) {
        self.idle = max(0.5, idle)
        self.minimumRate = max(0, minimumRate)
    }

    /// The limits the environment sets; `timeoutVariable` names the one for the idle time.
    public static func from(environment: [String: String], timeoutVariable: String = "TACK_HTTP_TIMEOUT") -> TransferLimits {
        var limits = TransferLimits()
        if let s = environment[timeoutVariable], let t = Double(s), t.isFinite, t > 0 {
            limits.idle = max(0.5, t)
            limits.variable = timeoutVariable
        } else if let s = environment["TACK_HTTP_TIMEOUT"], let t = Double(s), t.isFinite, t > 0 {
            limits.idle = max(0.5, t)
        }
        if let s = environment["TACK_HTTP_MIN_RATE"], let r = Double(s), r.isFinite, r >= 0 { limits.minimumRate = r }
        return limits
    }
}

/// Watches one URLSession task: every quarter second it compares what has moved (received or
/// sent) with the limits, and cancels the task when the server stalls or crawls. The
/// delegate asks `failure` first when the task completes.
final class TransferWatch: @unchecked Sendable {
    let limits: TransferLimits
    let host: String
    private let lock = NSLock()
    private var moved: Int64 = 0
    private var samples: [(time: TimeInterval, moved: Int64)] = []
    private var lastMove: TimeInterval
    private var started: TimeInterval
    private var tripped: HTTPFailure?
    private var timer: DispatchSourceTimer?

    init(limits: TransferLimits, url: URL?) {
        self.limits = limits
        self.host = url?.host ?? "the server"
        let now = ProcessInfo.processInfo.systemUptime
        lastMove = now
        started = now
    }

    /// Starts watching `task`.
    func watch(_ task: URLSessionTask) {
        let t = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        t.schedule(deadline: .now() + 0.25, repeating: 0.25)
        t.setEventHandler { [weak self, weak task] in
            guard let self, let failure = self.check() else { return }
            self.stop()
            _ = failure
            task?.cancel()
        }
        lock.withLock { timer = t }
        t.resume()
    }

    func stop() {
        let t: DispatchSourceTimer? = lock.withLock { let t = timer; timer = nil; return t }
        t?.cancel()
    }

    /// Bytes received or sent.
    func progressed(_ bytes: Int64) {
        guard bytes > 0 else { return }
        lock.withLock {
            moved += bytes
            lastMove = ProcessInfo.processInfo.systemUptime
        }
    }

    /// Why the transfer was ended, when the watch ended it.
    var failure: HTTPFailure? { lock.withLock { tripped } }

    /// The failure to end the transfer with now, if any (kept for `failure`).
    func check() -> HTTPFailure? {
        let now = ProcessInfo.processInfo.systemUptime
        return lock.withLock {
            if let tripped { return tripped }
            samples.append((now, moved))
            samples.removeAll { now - $0.time > limits.idle + 1 }
            let idleFor = now - lastMove
            if idleFor >= limits.idle {
                tripped = HTTPFailure(status: nil, message: "\(host) sent nothing for \(Self.seconds(limits.idle)) (\(limits.variable)), so tack gave up on it")
            } else if limits.minimumRate > 0, now - started >= limits.idle,
                      let old = samples.first(where: { now - $0.time <= limits.idle }) {
                let span = max(now - old.time, 0.25)
                let rate = Double(moved - old.moved) / span
                if span >= limits.idle * 0.9, rate < limits.minimumRate {
                    tripped = HTTPFailure(status: nil, message: "\(host) sent fewer than \(Self.number(limits.minimumRate)) bytes a second for \(Self.seconds(limits.idle)) (TACK_HTTP_MIN_RATE, \(limits.variable)), so tack gave up on it")
                }
            }
            return tripped
        }
    }

    static func seconds(_ t: TimeInterval) -> String { "\(number(t)) s" }
    static func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x) }
}
