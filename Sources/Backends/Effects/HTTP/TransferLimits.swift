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
        self.idle = idle.isFinite ? min(max(0.5, idle), NumericSetting.day) : 30
        self.minimumRate = minimumRate.isFinite ? min(max(0, minimumRate), 1e12) : 10
    }

    /// The limits the environment sets; `timeoutVariable` names the one for the idle time.
    public static func from(environment: [String: String], timeoutVariable: String = "TACK_HTTP_TIMEOUT") -> TransferLimits {
        var limits = TransferLimits()
        // Bounded (`NumericSetting`): at most a day, so milliseconds fit in any integer.
        if let t = NumericSetting.read(environment, timeoutVariable, minimum: 0.5, maximum: NumericSetting.day) {
            limits.idle = t
            limits.variable = timeoutVariable
        } else if let t = NumericSetting.read(environment, "TACK_HTTP_TIMEOUT", minimum: 0.5, maximum: NumericSetting.day) {
            limits.idle = t
        }
        if let r = NumericSetting.read(environment, "TACK_HTTP_MIN_RATE", minimum: 0, maximum: 1e12) { limits.minimumRate = r }
        return limits
    }
}
