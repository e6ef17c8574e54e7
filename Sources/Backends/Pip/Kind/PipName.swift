#if !hasFeature(Embedded)
import TackCore
#endif

/// Python distribution names and versions as indexes, wheel and sdist files and lock entries
/// spell them (PEP 503, PEP 427, PEP 440): pure, no effects.
public enum PipName {
    /// PEP 503 normalization: `Foo.Bar_baz` → `foo-bar-baz`.
    public static func normalize(_ name: String) -> String {
        var out = ""
        var pendingDash = false
        for c in name.lowercased() {
            if c == "-" || c == "_" || c == "." {
                pendingDash = true
                continue
            }
            if pendingDash && !out.isEmpty { out.append("-") }
            pendingDash = false
            out.append(c)
        }
        return out
    }

    /// The project and version a distribution's file name says (a wheel or an sdist).
    public static func distribution(_ file: String) -> (project: String, version: String)? {
        if file.hasSuffix(".whl") {
            let parts = file.dropLast(4).split(separator: "-")
            guard parts.count >= 5 else { return nil }
            return (normalize(String(parts[0])), String(parts[1]))
        }
        for suffix in [".tar.gz", ".zip", ".tar.bz2", ".tgz"] where file.hasSuffix(suffix) {
            let stem = String(file.dropLast(suffix.count))
            // The name may hold dashes; the version is after the last one.
            guard let dash = stem.lastIndex(of: "-") else { return nil }
            return (normalize(String(stem[..<dash])), String(stem[stem.index(after: dash)...]))
        }
        return nil
    }

    /// A normalized distribution name (PEP 503): letters, digits, `.`, `_` and `-`, starting
    /// and ending with a letter or digit.
    public static func isDistributionName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        func alnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
        guard let first = b.first, let last = b.last, b.count <= 200, alnum(first), alnum(last) else { return false }
        return b.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// A PEP 440 version as pip writes it (`1.0.0`, `2.0rc1`, `1!2.0.post1+local.7`): no space,
    /// no option, no line break.
    public static func isDistributionVersion(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, b.count <= 100, (first >= 0x30 && first <= 0x39) || first == 0x76 else { return false }
        return b.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2E || $0 == 0x2B || $0 == 0x21 || $0 == 0x5F || $0 == 0x2D }
    }

}
