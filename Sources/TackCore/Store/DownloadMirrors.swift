/// Where downloads come from instead of their publisher: one list of rules, each a URL prefix
/// and its replacement, the first that fits a URL wins (mise's `url_replacements`). In order:
/// - `TACK_MIRRORS`: `FROM=TO` pairs separated by spaces (CI's, so it comes first);
/// - `mirrors:` in the global manifest (`Manifest.mirrors`), never a project's file;
/// - the older one-rule variables, each an alias of one rule: another GitHub API
///   (`TACK_GITHUB_API`, a GitHub Enterprise server's, or a test's loopback one), a mirror of
///   python-build-standalone's releases (`TACK_PYTHON_MIRROR`), of github.com's release
///   downloads (`TACK_GITHUB_DOWNLOADS`), of swift.org's lists and downloads
///   (`TACK_SWIFT_MIRROR`, both hosts).
/// A rule applies to every URL tack downloads from — a version index, a checksum file, a
/// download, a signature, a release's bundle. tack.lock always records the publisher's URL.
public struct DownloadMirrors: Sendable {
    /// One rule: URLs that start with `from` (up to a `/`) are fetched from `to` instead.
    public struct Rule: Sendable, Equatable {
        public var from: String
        public var to: String

        /// Both sides http(s) URLs with a host (`to` may be a `file:///` directory too, a
        /// share every machine mounts); a trailing `/` is dropped. Nil otherwise.
        public init?(from: String, to: String) {
            func isURL(_ s: String, file: Bool = false) -> Bool {
                for scheme in ["https://", "http://"] + (file ? ["file:///"] : []) where s.hasPrefix(scheme) {
                    return s.count > scheme.count && !s.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" })
                }
                return false
            }
            guard isURL(from), isURL(to, file: true) else { return nil }
            func trimmed(_ s: String) -> String { s.hasSuffix("/") ? String(s.dropLast()) : s }
            self.from = trimmed(from)
            self.to = trimmed(to)
        }
    }

    public static let known: [(variable: String, prefix: String)] = [
        ("TACK_GITHUB_API", "https://api.github.com"),
        ("TACK_PYTHON_MIRROR", "https://github.com/astral-sh/python-build-standalone/releases/download"),
        ("TACK_GITHUB_DOWNLOADS", "https://github.com"),
        // One mirror of swift.org's two hosts: its release lists and its downloads.
        ("TACK_SWIFT_MIRROR", "https://www.swift.org"),
        ("TACK_SWIFT_MIRROR", "https://download.swift.org"),
    ]

    public private(set) var rules: [Rule]

    /// The rules of `environment` and of the global manifest's `mirrors:` (`manifest`).
    public init(environment: [String: String], manifest: [Rule] = []) {
        rules = Self.rules(environment["TACK_MIRRORS"] ?? "") + manifest + Self.known.compactMap { v in
            guard let to = environment[v.variable], !to.isEmpty else { return nil }
            return Rule(from: v.prefix, to: to)
        }
    }

    /// `TACK_MIRRORS`'s `FROM=TO` pairs (a pair that is not two http(s) URLs is left out).
    static func rules(_ text: String) -> [Rule] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == ";" }).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return Rule(from: String(parts[0]), to: String(parts[1]))
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

    /// Where the URLs under `prefix` (a scheme and host, no trailing `/`) are fetched from.
    public func base(_ prefix: String) -> String { String(apply(prefix + "/").dropLast()) }

    /// `url` from its mirror, if one is set for it.
    public func apply(_ url: String) -> String {
        for rule in rules where url.hasPrefix(rule.from + "/") { return rule.to + url.dropFirst(rule.from.count) }
        return url
    }
}
