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

    init(limits: TransferLimits, host: String) {
        self.limits = limits
        self.host = host.isEmpty ? "the server" : host
        let now = ProcessInfo.processInfo.systemUptime
        lastMove = now
        started = now
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
