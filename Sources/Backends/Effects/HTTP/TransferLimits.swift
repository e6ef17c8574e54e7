import Foundation
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
