/// Where downloads come from instead of their publisher, by environment variable: a mirror
/// of python-build-standalone's releases (`TACK_PYTHON_MIRROR`), another GitHub API
/// (`TACK_GITHUB_API`, a GitHub Enterprise server's, or a test's loopback one), or a mirror of
/// github.com's release downloads (`TACK_GITHUB_DOWNLOADS`). Each replaces the start of every
/// URL tack downloads from — a version index, a checksum file, a download, a release's
/// bundle — that begins with the publisher's prefix; the first that fits wins.
public struct DownloadMirrors: Sendable {
    public static let known: [(variable: String, prefix: String)] = [
        ("TACK_GITHUB_API", "https://api.github.com"),
        ("TACK_PYTHON_MIRROR", "https://github.com/astral-sh/python-build-standalone/releases/download"),
        ("TACK_GITHUB_DOWNLOADS", "https://github.com"),
    ]

    var rules: [(from: String, to: String)]

    public init(environment: [String: String]) {
        rules = Self.known.compactMap { v in
            guard let to = environment[v.variable], !to.isEmpty else { return nil }
            return (v.prefix, to.hasSuffix("/") ? String(to.dropLast()) : to)
        }
    }

    public static let none = DownloadMirrors(environment: [:])

    /// `url` from its mirror, if one is set for it.
    public func apply(_ url: String) -> String {
        for rule in rules where url.hasPrefix(rule.from + "/") { return rule.to + url.dropFirst(rule.from.count) }
        return url
    }
}
