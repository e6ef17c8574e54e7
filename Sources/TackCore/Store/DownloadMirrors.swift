/// Where downloads come from instead of their publisher, by environment variable: a mirror
/// of python-build-standalone's releases (`TACK_PYTHON_MIRROR`), another GitHub API
/// (`TACK_GITHUB_API`, a GitHub Enterprise server's, or a test's loopback one), or a mirror of
/// github.com's release downloads (`TACK_GITHUB_DOWNLOADS`). Each replaces the start of every
/// URL tack downloads from — a version index, a checksum file, a download, a release's
/// bundle — that begins with the publisher's prefix; the first that fits wins. `TACK_MIRRORS`
/// adds rules of its own, before those: `FROM=TO` pairs separated by spaces
/// (`https://releases.hashicorp.com=https://mirror.example/hashicorp`), each side an http(s)
/// URL (a pair that is not is left out).
public struct DownloadMirrors: Sendable {
    public static let known: [(variable: String, prefix: String)] = [
        ("TACK_GITHUB_API", "https://api.github.com"),
        ("TACK_PYTHON_MIRROR", "https://github.com/astral-sh/python-build-standalone/releases/download"),
        ("TACK_GITHUB_DOWNLOADS", "https://github.com"),
    ]

    var rules: [(from: String, to: String)]

    public init(environment: [String: String]) {
        rules = Self.rules(environment["TACK_MIRRORS"] ?? "") + Self.known.compactMap { v in
            guard let to = environment[v.variable], !to.isEmpty else { return nil }
            return (v.prefix, to.hasSuffix("/") ? String(to.dropLast()) : to)
        }
    }

    /// `TACK_MIRRORS`'s `FROM=TO` pairs.
    static func rules(_ text: String) -> [(from: String, to: String)] {
        func isURL(_ s: Substring) -> Bool { (s.hasPrefix("https://") || s.hasPrefix("http://")) && s.count > 8 }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == ";" }).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, isURL(parts[0]), isURL(parts[1]) else { return nil }
            func trimmed(_ s: Substring) -> String { s.hasSuffix("/") ? String(s.dropLast()) : String(s) }
            return (trimmed(parts[0]), trimmed(parts[1]))
        }
    }

    public static let none = DownloadMirrors(environment: [:])

    /// Each rule in effect, `FROM → TO`, credentials in TO left out (`tack doctor`).
    public var describe: [String] {
        rules.map { rule in
            var to = rule.to
            if let at = to.lastIndex(of: "@"), let scheme = to.range(of: "://"), scheme.upperBound < at { to = String(to[..<scheme.upperBound]) + "…" + String(to[at...]) }
            return "\(rule.from) → \(to)"
        }
    }

    /// `url` from its mirror, if one is set for it.
    public func apply(_ url: String) -> String {
        for rule in rules where url.hasPrefix(rule.from + "/") { return rule.to + url.dropFirst(rule.from.count) }
        return url
    }
}
