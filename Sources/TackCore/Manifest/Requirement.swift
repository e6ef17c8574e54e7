/// What a pin asks for (docs/manifest.md lists the forms).
public enum Requirement: Sendable, Hashable, CustomStringConvertible {
    /// `1.2.3` or `1.2`: the newest version starting with these parts.
    case prefix(Version)
    /// `~> 1.2`, `^1.2`, `>= 1.0, < 2`: every comparator must hold.
    case range([Comparator], text: String)
    /// `latest`: the newest release (no pre-releases).
    case latest
    /// `system`: whatever is on PATH, outside tack.
    case system
    /// `ref: <branch|tag|sha>` (git tools).
    case ref(String)
    /// `path: <dir>`: a local checkout, outside tack's store.
    case path(String)
    /// `lts/*` (nil: the newest long-term-support release) or `lts/<codename>` (the newest of
    /// that line, like `lts/iron`), as nvm reads them: for tools whose version index says
    /// which releases are LTS (node).
    case lts(String?)

    public struct Comparator: Sendable, Hashable {
        public enum Op: String, Sendable, Hashable { case eq = "=", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=" }
        public var op: Op
        public var version: Version
        public func matches(_ v: Version) -> Bool {
            switch op {
            case .eq: return v == version
            case .ne: return v != version
            case .lt: return v < version
            case .le: return v <= version
            case .gt: return v > version
            case .ge: return v >= version
            }
        }
    }

    public var description: String {
        switch self {
        case .prefix(let v): return v.text
        case .range(_, let text): return text
        case .latest: return "latest"
        case .system: return "system"
        case .ref(let r): return "ref:\(r)"
        case .path(let p): return "path:\(p)"
        case .lts(let line): return "lts/\(line ?? "*")"
        }
    }

    /// The exact version this requirement names, when it names one without needing a list of
    /// versions: a full `1.2.3` (three or more numbers), a pre-release, or `= 1.2.3`.
    public var exactVersion: Version? {
        switch self {
        // (A Swift snapshot series, `main-snapshot`, names the newest of many.)
        case .prefix(let v) where (v.release.count >= 3 || v.isPrerelease) && !SwiftToolchain.isSeries(v): return v
        case .range(let cs, _) where cs.count == 1 && cs[0].op == .eq: return cs[0].version
        default: return nil
        }
    }

    /// Whether `v` satisfies this requirement. Pre-releases only match a requirement that
    /// itself names a pre-release, as Bundler and Cargo do.
    public func matches(_ v: Version) -> Bool {
        switch self {
        case .prefix(let p):
            if v.isPrerelease && !p.isPrerelease { return false }
            return v.hasPrefix(p)
        case .range(let cs, _):
            if v.isOpaque { return false }
            if v.isPrerelease && !cs.contains(where: { $0.version.isPrerelease }) { return false }
            return cs.allSatisfy { $0.matches(v) }
        case .latest:
            return !v.isPrerelease
        case .system, .ref, .path, .lts:
            return false
        }
    }

    /// Whether `v`, with what its backend knows of it (its LTS line), satisfies this requirement.
    public func matches(_ v: AvailableVersion) -> Bool {
        switch self {
        case .lts(let line):
            guard let lts = v.lts, !v.version.isPrerelease else { return false }
            return line.map { $0 == lts.lowercased() } ?? true
        default: return matches(v.version)
        }
    }

    /// The newest of `candidates` that satisfies this requirement.
    public func best(of candidates: some Sequence<Version>) -> Version? {
        candidates.filter(matches).max()
    }

    /// The newest of a backend's `available` versions that satisfies this requirement.
    public func best(of available: [AvailableVersion]) -> AvailableVersion? {
        available.filter(matches).max { $0.version < $1.version }
    }

    // MARK: Parsing

    public enum ParseError: Error, Sendable, Equatable {
        case empty
        case unsafe(Character)
        case invalid(String)
    }

    /// Parses the version-requirement syntax of tack.yml and the compatible files.
    /// `ref:` and `path:` are accepted in the asdf spelling (`ref:v1.2`, `path:~/src/x`);
    /// in tack.yml they are keys of a tool's mapping instead.
    public static func parse(_ raw: String) throws(ParseError) -> Requirement {
        let s = raw.trimmingSpaces
        guard let first = s.first else { throw .empty }
        if let r = try parseWord(s) { return r }
        if let bad = firstForbidden(s) { throw .unsafe(bad) }
        var afterDot = false
        for b in s.utf8 {
            if b == UInt8(ascii: "."), afterDot { throw .invalid("`..` is not part of any version") }
            afterDot = b == UInt8(ascii: ".")
        }
        switch s {
        case "latest": return .latest
        case "system": return .system
        default: break
        }
        if s.hasPrefix("~>") || s.hasPrefix("^") { return try parseCompatible(s) }
        if "<>=!".contains(first) { return try parseComparators(s) }
        // A word that is not a version number is an exact, opaque version (as rbenv and asdf
        // take any safe word): `nightly-2000-01-01`, `temurin-17.0.2+8`, `1.9.3-p194@tag`.
        if let v = Version(word: s) { return .prefix(v) }
        return .prefix(try version(Substring(s), in: s))  // says why it is not a version
    }

    /// `ref:…`, `path:…` and `lts/…`, or nil for anything else. Prefixes are compared as
    /// bytes: a combining mark after the colon joins it into one Character, and
    /// Character-wise `hasPrefix` would then miss `path:` (found by fuzzing).
    static func parseWord(_ s: String) throws(ParseError) -> Requirement? {
        if let rest = s.droppingPrefix("ref:") { return .ref(try parseRef(rest.trimmingSpaces)) }
        if let rest = s.droppingPrefix("path:") {
            let p = rest.trimmingSpaces
            guard !p.isEmpty else { throw .invalid("`path:` needs a directory") }
            if let bad = p.first(where: { $0.isControl }) { throw .unsafe(bad) }
            return .path(p)
        }
        guard let rest = s.droppingPrefix("lts/") else { return nil }
        // nvm's LTS aliases; codenames are compared without case (`lts/Iron` is `lts/iron`).
        if rest == "*" { return .lts(nil) }
        let line = rest.lowercased()
        guard !line.isEmpty, line.utf8.count <= 32, line.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else {
            throw .invalid("`\(s)` is not an LTS line; write `lts/*` or a codename like `lts/iron`")
        }
        return .lts(line)
    }

    /// `~> 1.2` (>= 1.2, < 2; `~> 1.2.3` is >= 1.2.3, < 1.3; `~> 1` is >= 1, < 2) and Cargo's
    /// `^0.2.3` (the first non-zero number may not change: < 0.3.0).
    static func parseCompatible(_ s: String) throws(ParseError) -> Requirement {
        let tilde = s.hasPrefix("~>")
        let v = try version(s.dropFirst(tilde ? 2 : 1), in: s)
        let rel = v.release
        guard !rel.isEmpty else { throw .invalid("`\(tilde ? "~>" : "^")` needs a version that starts with a number") }
        let kept = tilde ? max(rel.count - 1, 1) : (rel.firstIndex { $0 != "0" } ?? (rel.count - 1)) + 1
        var upper = Array(rel.prefix(kept))
        upper[upper.count - 1] = increment(upper[upper.count - 1])
        guard let bound = Version(upper.joined(separator: ".")) else { throw .invalid("`\(s)` has no upper bound tack can write") }
        return .range([.init(op: .ge, version: v), .init(op: .lt, version: bound)], text: s)
    }

    /// Comparators separated by commas: `>= 1.2, < 2`, `!= 1.3.0`.
    static func parseComparators(_ s: String) throws(ParseError) -> Requirement {
        var comparators: [Comparator] = []
        for clause in s.split(separator: ",", omittingEmptySubsequences: false) {
            let c = Substring(String(clause).trimmingSpaces)
            guard !c.isEmpty else { throw .invalid("an empty clause between commas") }
            let ops: [(String, Comparator.Op)] = [(">=", .ge), ("<=", .le), ("!=", .ne), ("==", .eq), (">", .gt), ("<", .lt), ("=", .eq)]
            guard let (token, op) = ops.first(where: { c.hasPrefix($0.0) }) else {
                throw .invalid("`\(c)` needs an operator (>=, >, <=, <, =, !=) before the version")
            }
            comparators.append(.init(op: op, version: try version(c.dropFirst(token.count), in: s)))
        }
        return .range(comparators, text: s)
    }

    static func version(_ text: Substring, in whole: String) throws(ParseError) -> Version {
        let t = String(text).trimmingSpaces
        guard !t.isEmpty else { throw .invalid("an operator without a version") }
        guard let v = Version(t) else {
            if t.hasPrefix("-") { throw .invalid("`\(t)` is not a version: a version never starts with `-`") }
            throw .invalid("`\(t)` is not a version (versions look like 1.2.3, v1.2 or 20240101)")
        }
        return v
    }

    static func parseRef(_ r: String) throws(ParseError) -> String {
        guard !r.isEmpty else { throw .invalid("`ref:` needs a branch, tag or commit") }
        if let bad = r.first(where: { $0.isControl || " \t;&|`$<>\\\"'*?[]{}()~^:".contains($0) }) { throw .unsafe(bad) }
        if r.contains("..") || r.hasPrefix("-") || r.hasPrefix("/") || r.hasSuffix("/") || r.hasSuffix(".lock") {
            throw .invalid("`\(r)` is not a valid git ref")
        }
        return r
    }

    /// Characters that never belong in a version requirement: path separators, control
    /// characters and shell metacharacters.
    static func forbidden(_ c: Character) -> Bool {
        c.isControl || "/\\;&|`$'\"*?[]{}()#\n\r\t:".contains(c)
    }

    /// The first Character `forbidden` refuses, or nil. Printable ASCII, what nearly every
    /// requirement is, is decided byte by byte (a Character at a time cost more than the rest
    /// of parsing it).
    static func firstForbidden(_ s: String) -> Character? {
        let refused = Array("/\\;&|`$'\"*?[]{}()#:".utf8)
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !refused.contains($0) }) { return nil }
        return s.first(where: forbidden)
    }

    static func increment(_ digits: String) -> String {
        var out = Array(digits.utf8)
        var i = out.count - 1
        while i >= 0 {
            if out[i] == UInt8(ascii: "9") { out[i] = UInt8(ascii: "0"); i -= 1 } else { out[i] += 1; break }
        }
        let s = String(decoding: out, as: UTF8.self)
        return i < 0 ? "1" + s : s
    }
}

extension Requirement.ParseError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: return "an empty version requirement"
        case .unsafe(let c):
            let shown = c.isControl ? "a control character" : "`\(c)`"
            return "\(shown) is not allowed in a version requirement"
        case .invalid(let why): return why
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String { trimming { $0.properties.isWhitespace } }

    /// The text without the leading and trailing scalars `blank` says are blank.
    func trimming(_ blank: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !blank($0) }), let end = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}

extension String {
    /// The rest after `prefix`, compared byte for byte; nil when it does not start with it.
    func droppingPrefix(_ prefix: String) -> String? {
        guard utf8.starts(with: prefix.utf8) else { return nil }
        return String(decoding: utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }
}

extension Character {
    /// C0 and C1 control characters, DEL included: never part of a name, version or path here.
    public var isControl: Bool {
        unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
    }
}
