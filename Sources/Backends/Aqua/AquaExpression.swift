import TackCore

/// The part of expr-lang that aqua's `version_constraint`s are written in: `true`, `false`,
/// `Version == "v1.0.0"`, `Version in ["v1", "v2"]`, `Version startsWith "cli/"`, `matches`,
/// `contains`, `semver(">= 1.2, < 2")`, `semverWithVersion(">= 4.2", trimPrefix(Version,
/// "kustomize/"))`, joined by `or`/`||`, `and`/`&&`, `not`/`!` and parentheses. Evaluated with
/// `Version` (as pinned) and `SemVer` (without the package's `version_prefix`).
public struct AquaExpression: Sendable {
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    indirect enum Node: Sendable {
        case string(String)
        case bool(Bool)
        case variable(String)
        case list([Node])
        case call(String, [Node])
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case binary(String, Node, Node)
    }

    enum Value: Equatable {
        case string(String), bool(Bool), list([Value])
    }

    let root: Node
    public let source: String

    public init(_ source: String) throws(Failure) {
        self.source = source
        var parser = Parser(tokens: try Self.tokens(source))
        root = try parser.expression()
        guard parser.atEnd else { throw Failure("unexpected \(quoted(parser.peek ?? "")) in \(quoted(source))") }
    }

    /// Whether the expression holds for `version` (`semVer`: `version` without the prefix).
    public func holds(version: String, semVer: String) throws(Failure) -> Bool {
        guard case .bool(let b) = try evaluate(root, version: version, semVer: semVer) else {
            throw Failure("\(quoted(source)) is not true or false")
        }
        return b
    }

    func evaluate(_ node: Node, version: String, semVer: String) throws(Failure) -> Value {
        func string(_ n: Node) throws(Failure) -> String {
            guard case .string(let s) = try evaluate(n, version: version, semVer: semVer) else { throw Failure("a string was expected in \(quoted(source))") }
            return s
        }
        func bool(_ n: Node) throws(Failure) -> Bool {
            guard case .bool(let b) = try evaluate(n, version: version, semVer: semVer) else { throw Failure("true or false was expected in \(quoted(source))") }
            return b
        }
        switch node {
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .variable(let name):
            switch name {
            case "Version": return .string(version)
            case "SemVer": return .string(semVer)
            default: throw Failure("`\(name)` is not a variable aqua's constraints have")
            }
        case .list(let items):
            var values: [Value] = []
            for item in items { values.append(try evaluate(item, version: version, semVer: semVer)) }
            return .list(values)
        case .not(let n): return .bool(!(try bool(n)))
        case .and(let a, let b):
            guard try bool(a) else { return .bool(false) }
            return .bool(try bool(b))
        case .or(let a, let b):
            if try bool(a) { return .bool(true) }
            return .bool(try bool(b))
        case .binary(let op, let a, let b):
            let left = try evaluate(a, version: version, semVer: semVer)
            let right = try evaluate(b, version: version, semVer: semVer)
            switch op {
            case "==": return .bool(left == right)
            case "!=": return .bool(left != right)
            case "in":
                guard case .list(let items) = right else { throw Failure("`in` needs a list in \(quoted(source))") }
                return .bool(items.contains(left))
            default:
                guard case .string(let l) = left, case .string(let r) = right else { throw Failure("`\(op)` compares strings in \(quoted(source))") }
                switch op {
                case "startsWith": return .bool(l.hasPrefix(r))
                case "endsWith": return .bool(l.hasSuffix(r))
                case "contains": return .bool(l.contains(r))
                default:
                    do { return .bool(try Regex(r).firstMatch(in: l) != nil) } catch { throw Failure("\(quoted(r)) is not a regular expression tack reads") }
                }
            }
        case .call(let name, let args):
            switch (name, args.count) {
            case ("semver", 1): return .bool(GoVersion.satisfies(semVer, try string(args[0])))
            case ("semverWithVersion", 2): return .bool(GoVersion.satisfies(try string(args[1]), try string(args[0])))
            case ("trimPrefix", 2):
                let (s, p) = (try string(args[0]), try string(args[1]))
                return .string(s.hasPrefix(p) ? String(s.dropFirst(p.count)) : s)
            case ("trimSuffix", 2):
                let (s, p) = (try string(args[0]), try string(args[1]))
                return .string(s.hasSuffix(p) ? String(s.dropLast(p.count)) : s)
            case ("hasPrefix", 2): return .bool(try string(args[0]).hasPrefix(try string(args[1])))
            case ("hasSuffix", 2): return .bool(try string(args[0]).hasSuffix(try string(args[1])))
            default: throw Failure("`\(name)` with \(args.count) argument\(args.count == 1 ? "" : "s") is not a function aqua's constraints have")
            }
        }
    }

    /// Words, strings (`"…"`, `'…'`, the quotes kept to tell them apart) and operators.
    static func tokens(_ source: String) throws(Failure) -> [String] {
        let s = Array(source.unicodeScalars)
        var out: [String] = []
        var i = 0
        while i < s.count {
            let c = s[i]
            if c.properties.isWhitespace { i += 1; continue }
            if c == "\"" || c == "'" {
                var text = "\""
                i += 1
                while i < s.count, s[i] != c {
                    if s[i] == "\\", i + 1 < s.count { i += 1 }
                    text.unicodeScalars.append(s[i])
                    i += 1
                }
                guard i < s.count else { throw Failure("a string without its closing quote in \(quoted(source))") }
                i += 1
                out.append(text)
                continue
            }
            if c.properties.isAlphabetic || c == "_" {
                var word = ""
                while i < s.count, s[i].properties.isAlphabetic || s[i] == "_" || s[i].properties.numericType != nil { word.unicodeScalars.append(s[i]); i += 1 }
                out.append(word)
                continue
            }
            let two = i + 1 < s.count ? String(c) + String(s[i + 1]) : ""
            if ["==", "!=", "&&", "||"].contains(two) { out.append(two); i += 2; continue }
            if "()[],!".unicodeScalars.contains(c) { out.append(String(c)); i += 1; continue }
            throw Failure("\(quoted(String(c))) is not something aqua's constraints have, in \(quoted(source))")
        }
        return out
    }

    struct Parser {
        let tokens: [String]
        var i = 0
        var atEnd: Bool { i >= tokens.count }
        var peek: String? { i < tokens.count ? tokens[i] : nil }

        mutating func take(_ t: String) -> Bool {
            guard peek == t else { return false }
            i += 1
            return true
        }

        mutating func expression() throws(Failure) -> Node {
            var left = try conjunction()
            while take("||") || take("or") { left = .or(left, try conjunction()) }
            return left
        }

        mutating func conjunction() throws(Failure) -> Node {
            var left = try unary()
            while take("&&") || take("and") { left = .and(left, try unary()) }
            return left
        }

        mutating func unary() throws(Failure) -> Node {
            if take("!") || take("not") {
                depth += 1
                defer { depth -= 1 }
                guard depth <= 64 else { throw Failure("the constraint nests deeper than 64 levels") }
                return .not(try unary())
            }
            return try comparison()
        }

        mutating func comparison() throws(Failure) -> Node {
            let left = try primary()
            guard let op = peek, ["==", "!=", "in", "startsWith", "endsWith", "contains", "matches"].contains(op) else { return left }
            i += 1
            return .binary(op, left, try primary())
        }

        /// How deep parentheses, lists and calls nest (a hostile registry must not exhaust the stack).
        var depth = 0

        mutating func primary() throws(Failure) -> Node {
            guard let t = peek else { throw Failure("the constraint ends too soon") }
            i += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw Failure("the constraint nests deeper than 64 levels") }
            if t.hasPrefix("\"") { return .string(String(t.dropFirst())) }
            if t == "true" || t == "false" { return .bool(t == "true") }
            if t == "(" {
                let inner = try expression()
                guard take(")") else { throw Failure("a `(` without its `)`") }
                return inner
            }
            if t == "[" {
                var items: [Node] = []
                while !take("]") {
                    items.append(try expression())
                    if take("]") { break }
                    guard take(",") else { throw Failure("a list's items are separated by `,`") }
                }
                return .list(items)
            }
            guard let first = t.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { throw Failure("unexpected \(quoted(t))") }
            if take("(") {
                var args: [Node] = []
                while !take(")") {
                    args.append(try expression())
                    if take(")") { break }
                    guard take(",") else { throw Failure("a call's arguments are separated by `,`") }
                }
                return .call(t, args)
            }
            return .variable(t)
        }
    }
}
