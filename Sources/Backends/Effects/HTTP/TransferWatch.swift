import Foundation
import TackCore

/// Watches one transfer: asked (by libcurl's progress callback, about once a second, oftener
/// while bytes move) it compares what has moved (received or sent) with the limits, and says
/// when the server stalls or crawls; the transfer then ends with that failure.
final class TransferWatch: @unchecked Sendable {
    let limits: TransferLimits
    let host: String
    private let lock = NSLock()
    private var moved: Int64 = 0
    private var samples: [(time: TimeInterval, moved: Int64)] = []
    private var lastMove: TimeInterval
    private var started: TimeInterval
    private var tripped: HTTPFailure?

    /// Seconds on a monotonic clock (the system's uptime; a test's own).
    private let clock: @Sendable () -> TimeInterval

    init(limits: TransferLimits, host: String, clock: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.limits = limits
        self.host = host.isEmpty ? "the server" : host
        self.clock = clock
        let now = clock()
        lastMove = now
        started = now
    }

    /// Bytes received or sent.
    func progressed(_ bytes: Int64) {
        guard bytes > 0 else { return }
        lock.withLock {
            moved += bytes
            lastMove = clock()
        }
    }

    /// Why the transfer was ended, when the watch ended it.
    var failure: HTTPFailure? { lock.withLock { tripped } }

    /// The failure to end the transfer with now, if any (kept for `failure`).
    func check() -> HTTPFailure? {
        let now = clock()
        return lock.withLock {
            if let tripped { return tripped }
            samples.append((now, moved))
            // Enough history to hold a sample at least `idle` old whatever the callback's pace.
            samples.removeAll { now - $0.time > limits.idle * 2 + 2 }
            let idleFor = now - lastMove
            if idleFor >= limits.idle {
                tripped = HTTPFailure(.silent(host: host, seconds: limits.idle, variable: limits.variable))
            } else if limits.minimumRate > 0, now - started >= limits.idle,
                      let old = samples.last(where: { now - $0.time >= limits.idle }) {
                // The rate over the last `idle` seconds at least: from the newest sample that old.
                let span = now - old.time
                let rate = Double(moved - old.moved) / span
                if rate < limits.minimumRate {
                    tripped = HTTPFailure(.tooSlow(host: host, bytesPerSecond: limits.minimumRate, seconds: limits.idle, variable: limits.variable))
                }
            }
            return tripped
        }
    }
}
