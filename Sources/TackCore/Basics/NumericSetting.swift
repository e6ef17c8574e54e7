/// A number a variable of the environment sets (`TACK_HTTP_TIMEOUT`, `TACK_JOBS` …), read one
/// way for every such setting: a plain decimal (digits, one point, an exponent; no NaN, no
/// infinity, no hex), not negative (and not zero where `minimum` is above zero), taken within
/// `minimum…maximum` (a larger value is the maximum, so no later arithmetic overflows; a
/// smaller positive one the minimum). Anything else reads as unset: the default applies.
public enum NumericSetting {
    public static func read(_ environment: [String: String], _ name: String, minimum: Double, maximum: Double) -> Double? {
        guard let text = environment[name], !text.isEmpty, text.utf8.count <= 64,
              text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
              let value = Double(text), value.isFinite, value >= 0, minimum <= 0 || value > 0 else { return nil }
        return min(max(value, minimum), maximum)
    }

    /// A whole number: as `read`, and with no fraction.
    public static func integer(_ environment: [String: String], _ name: String, minimum: Int, maximum: Int) -> Int? {
        guard let value = read(environment, name, minimum: Double(minimum), maximum: Double(maximum)),
              value == value.rounded(.down) else { return nil }
        return Int(value)
    }

    /// The most a timeout or interval may be: a day, in seconds.
    public static let day = 86_400.0
}
