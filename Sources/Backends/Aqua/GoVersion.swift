/// A version as HashiCorp's go-version reads it, which aqua's `semver(...)` constraints compare
/// with: an optional `v`, numbers separated by dots (three at least, missing ones zero), a
/// prerelease after `-` (or straight after the numbers when it starts with a letter:
/// `1.0rc1`), and `+metadata`, which does not order.
struct GoVersion: Comparable, Sendable {
    var segments: [Int]
    var prerelease: String

    init?(_ raw: String) {
        var s = Substring(raw)
        if s.first == "v" { s = s.dropFirst() }
        if let plus = s.firstIndex(of: "+") {
            let metadata = s[s.index(after: plus)...]
            guard !metadata.isEmpty, metadata.allSatisfy({ Self.isWordCharacter($0) || $0 == "." }) else { return nil }
            s = s[..<plus]
        }
        var numbers: [Int] = []
        var current = ""
        var index = s.startIndex
        while index < s.endIndex, s[index].isASCII, s[index].isNumber || s[index] == "." {
            current.append(s[index])
            index = s.index(after: index)
        }
        for part in current.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.count <= 18, let n = Int(part) else { return nil }
            numbers.append(n)
        }
        guard !numbers.isEmpty else { return nil }
        var rest = s[index...]
        if rest.first == "-" {
            rest = rest.dropFirst()
            guard let first = rest.first, first.isASCII, first.isNumber || first.isLetter || first == "-" || first == "~" else { return nil }
        } else if let first = rest.first, !(first.isASCII && (first.isLetter || first == "~")) {
            return nil
        }
        guard rest.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isWordCharacter) }) || rest.isEmpty else { return nil }
        while numbers.count < 3 { numbers.append(0) }
        segments = numbers
        prerelease = String(rest)
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "~") }

    static func < (a: GoVersion, b: GoVersion) -> Bool { a.compare(b) < 0 }
    static func == (a: GoVersion, b: GoVersion) -> Bool { a.compare(b) == 0 }

    func compare(_ other: GoVersion) -> Int {
        let count = max(segments.count, other.segments.count)
        for k in 0..<count {
            let x = k < segments.count ? segments[k] : 0
            let y = k < other.segments.count ? other.segments[k] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        switch (prerelease.isEmpty, other.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        let mine = prerelease.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let theirs = other.prerelease.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for k in 0..<max(mine.count, theirs.count) {
            let r = Self.comparePart(k < mine.count ? mine[k] : "", k < theirs.count ? theirs[k] : "")
            if r != 0 { return r }
        }
        return 0
    }

    /// One dot-separated part of two prereleases, as go-version orders them: numbers before
    /// words, numbers by value, words by their text; a missing part is less than a number
    /// and more than a word.
    static func comparePart(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        let x = Int(a), y = Int(b)
        if a.isEmpty { return y != nil ? -1 : 1 }
        if b.isEmpty { return x != nil ? 1 : -1 }
        switch (x, y) {
        case (let x?, let y?): return x < y ? -1 : (x > y ? 1 : 0)
        case (_?, nil): return -1
        case (nil, _?): return 1
        case (nil, nil): return a < b ? -1 : 1
        }
    }

    /// Whether `version` meets aqua's `semver("...")` constraint: parts separated by `,` that
    /// must all hold, each `>=`, `<=`, `!=`, `>`, `<` or `=` and a version (no operator: `=`).
    /// A version that is a commit hash, or that go-version cannot read, meets none; so does a
    /// constraint it cannot read.
    static func satisfies(_ version: String, _ constraint: String) -> Bool {
        if version.count == 40, version.allSatisfy(\.isHexDigit) { return false }
        guard let v = GoVersion(version) else { return false }
        for part in constraint.split(separator: ",") {
            var p = Substring(part.trimmingWhitespace())
            var op = "="
            for candidate in [">=", "<=", "!=", ">", "<", "="] where p.hasPrefix(candidate) {
                op = candidate
                p = p.dropFirst(candidate.count)
                break
            }
            guard let bound = GoVersion(String(p).trimmingWhitespace()) else { return false }
            let c = v.compare(bound)
            let holds: Bool
            switch op {
            case ">=": holds = c >= 0
            case "<=": holds = c <= 0
            case "!=": holds = c != 0
            case ">": holds = c > 0
            case "<": holds = c < 0
            default: holds = c == 0
            }
            if !holds { return false }
        }
        return true
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
