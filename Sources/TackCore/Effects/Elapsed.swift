/// How long something took, said one way everywhere (progress lines, the install summary):
/// `2.3s` (or `7s` in whole seconds), `2m 05s`, `1h 02m`.
public enum Elapsed {
    /// `seconds` in words; under a minute with tenths when `tenths` (the summary), else in
    /// whole seconds (a live progress line, which should not flicker). Empty for a live time
    /// under a second.
    public static func text(_ seconds: Double, tenths: Bool) -> String {
        guard seconds.isFinite, seconds < 1e15 else { return "" }
        if tenths {
            let t = (seconds * 10).rounded() / 10
            if t < 60 { return (t == t.rounded() ? String(Int(t)) : String(t)) + "s" }
        }
        let s = Int(tenths ? seconds.rounded() : seconds.rounded(.down))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if s < 1 { return "" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(two(s % 60))s" }
        return "\(s / 3600)h \(two((s % 3600) / 60))m"
    }
}
