/// A tool version, compared the way users expect of tool versions rather than strict semver:
/// `v1.2` = `1.2` = `1.2.0`, `1.10 > 1.9`, `2.0.0-rc1 < 2.0.0`, `20240101` works.
///
/// The text is split at `.`, `-`, `_` and `+` and between digits and letters. Numbers compare
/// as numbers (of any length), words compare as text, a number ranks above a word (so a word
/// marks a pre-release: `1.0-beta < 1.0`), and missing trailing parts count as 0, as RubyGems does.
///
/// Version files of other managers also name versions that are not numbers at all
/// (`nightly-2000-01-01`, `temurin-17.0.2+8`, `1.9.3-p194@tag`): `Version(word:)` takes those
/// as opaque versions, which equal only themselves and sort after every numbered version.
public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Part: Sendable, Hashable {
        case number(String)  // digits without leading zeros ("0" for zero)
        case word(String)
        /// The whole text of an opaque version.
        case opaque(String)
    }

    /// The version as written, without a leading `v`.
    public let text: String
    public let parts: [Part]

    public init?(_ raw: String) {
        // Byte by byte: every byte must be ASCII anyway, and a version is parsed for every
        // pin, lock entry and install record of every resolution (Characters cost ten times as
        // much). Only ASCII letters and digits, and single separators between them.
        var bytes = Array(raw.utf8)[...]
        if let f = bytes.first, f == UInt8(ascii: "v") || f == UInt8(ascii: "V") { bytes = bytes.dropFirst() }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        func isSeparator(_ b: UInt8) -> Bool { b == 0x2E || b == 0x2D || b == 0x5F || b == 0x2B }
        guard let first = bytes.first, isDigit(first), bytes.count <= 128 else { return nil }
        var parts: [Part] = []
        var start = bytes.startIndex
        var previousWasSeparator = false
        func flush(_ end: Int) {
            guard start < end else { return }
            let run = bytes[start..<end]
            if isDigit(run[run.startIndex]) {
                let trimmed = run.drop { $0 == 0x30 }
                parts.append(.number(trimmed.isEmpty ? "0" : String(decoding: trimmed, as: UTF8.self)))
            } else {
                parts.append(.word(String(decoding: run.map { $0 | 0x20 }, as: UTF8.self)))
            }
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if isSeparator(b) {
                if previousWasSeparator { return nil }
                flush(i)
                start = i + 1
                previousWasSeparator = true
            } else {
                guard isDigit(b) || isLetter(b) else { return nil }
                if !previousWasSeparator, i > start, isDigit(b) != isDigit(bytes[i - 1]) {
                    flush(i)
                    start = i
                }
                previousWasSeparator = false
            }
            i += 1
        }
        if previousWasSeparator { return nil }
        flush(bytes.endIndex)
        self.text = bytes.count == raw.utf8.count ? raw : String(decoding: bytes, as: UTF8.self)
        self.parts = parts
    }

    /// A numbered version when `raw` is one, else an opaque version when `raw` is a safe word:
    /// ASCII letters, digits and `. _ + - @`, starting with a letter or digit, without `..`,
    /// at most 128 characters (so it is always a valid directory name, never an option).
    public init?(word raw: String) {
        if let v = Version(raw) { self = v; return }
        guard Version.isSafeWord(raw) else { return nil }
        self.text = raw
        self.parts = [.opaque(raw)]
    }

    static func isSafeWord(_ s: String) -> Bool {
        guard let first = s.utf8.first, s.utf8.count <= 128, !s.contains("..") else { return false }
        func alnum(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        guard alnum(first) else { return false }
        return s.utf8.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2B || $0 == 0x2D || $0 == 0x40 }
    }

    /// A version that is not a number: it matches only itself.
    public var isOpaque: Bool {
        if case .opaque? = parts.first { return true } else { return false }
    }

    public var description: String { text }

    /// True when any part is a word: `2.0.0-rc1`, `1.0b2`; and for opaque versions, which no
    /// range or `latest` selects.
    public var isPrerelease: Bool {
        parts.contains { if case .number = $0 { return false } else { return true } }
    }

    /// The leading numbers, up to the first word.
    public var release: [String] {
        var out: [String] = []
        for p in parts {
            guard case .number(let n) = p else { break }
            out.append(n)
        }
        return out
    }

    /// Parts with trailing zeros removed: equal versions have equal canonical parts.
    var canonical: ArraySlice<Part> {
        var end = parts.count
        while end > 0, parts[end - 1] == .number("0") { end -= 1 }
        return parts[..<end]
    }

    public static func == (a: Version, b: Version) -> Bool { a.canonical == b.canonical }
    public func hash(into h: inout Hasher) {
        for p in canonical { h.combine(p) }
    }

    public static func < (a: Version, b: Version) -> Bool { compare(a.parts, b.parts) < 0 }

    static func compare(_ a: [Part], _ b: [Part]) -> Int {
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : .number("0")
            let y = i < b.count ? b[i] : .number("0")
            let c = compare(x, y)
            if c != 0 { return c }
        }
        return 0
    }

    static func compare(_ x: Part, _ y: Part) -> Int {
        switch (x, y) {
        case (.number(let a), .number(let b)):
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            return a == b ? 0 : (a < b ? -1 : 1)
        case (.word(let a), .word(let b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        case (.number, .word): return 1
        case (.word, .number): return -1
        // Opaque versions sort after every numbered one, and among themselves by text.
        case (.opaque(let a), .opaque(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.opaque, _): return 1
        case (_, .opaque): return -1
        }
    }

    /// True when `self` starts with every part of `prefix` (`1.2.7` has prefix `1.2`, `1.20` does not).
    public func hasPrefix(_ prefix: Version) -> Bool {
        // An opaque word is a prefix of itself and of the words that continue it after a `-`
        // (`main-snapshot` of `main-snapshot-2024-08-30`).
        if case .opaque(let p)? = prefix.parts.first {
            guard case .opaque(let t)? = parts.first else { return false }
            return t == p || t.utf8.starts(with: (p + "-").utf8)
        }
        // The parts as written: `1.1.0` is the prefix of 1.1.0 (and 1.1.0.1), not of 1.1.5.
        let p = prefix.parts[...]
        guard parts.count >= p.count else {
            // `1.2` has prefix `1.2.0`: missing trailing parts are zeros.
            return Version.compare(Array(parts), Array(p)) == 0
        }
        return Array(parts.prefix(p.count)) == Array(p)
    }
}

extension Version {
    /// The version a release tag names: `v1.2.3`, `1.2.3`, and a prefix before it that ends a
    /// word (`cli/v1.2.3`, `tool-v1.2.3`, `tool_1.2.3`, `pkg@1.2.3`, `jq-1.7.1`); nil when the
    /// tag names none (`nightly`, `latest`, `go1.21.0`).
    public init?(tag: String) {
        for start in tag.indices where tag[start].isASCII && tag[start].isNumber {
            var prefix = tag[..<start]
            if prefix.last == "v" || prefix.last == "V" { prefix = prefix.dropLast() }
            guard prefix.isEmpty || prefix.last.map({ "/-_@".contains($0) }) == true else { continue }
            if let version = Version(String(tag[start...])) {
                self = version
                return
            }
        }
        return nil
    }
}
