/// A glob over a whole name: `*` matches any run of characters (`/` too), everything else
/// itself. What `signer.identity` in tack.yml is (`…/release.yml@refs/tags/v*`).
public enum Glob {
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern.unicodeScalars), s = Array(name.unicodeScalars)
        var pi = 0, si = 0, star = -1, mark = 0
        while si < s.count {
            if pi < p.count && p[pi] != "*" && p[pi] == s[si] {
                pi += 1
                si += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = si
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
