/// A byte count as people read it: `1.5 GiB`, `12.0 MiB`, `512 bytes`.
public func formatSize(_ n: Int) -> String {
    for (unit, shift) in [("TiB", 40), ("GiB", 30)] where n >= 1 << shift {
        let tenths = Int((Double(n) / Double(1 << shift) * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
    if n >= 1 << 20 {
        let tenths = n * 10 / (1 << 20)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
    if n >= 1 << 10 { return "\(n >> 10) KiB" }
    return "\(n) bytes"
}
