import TackCore

/// The functions aqua's templates call — sprig's, as aqua offers them (the subject last, so
/// it can come through a pipe), its own `trimV`, and Go's `eq`, `ne`, `not`, `and`, `or`,
/// `index` and `len`.
enum AquaTemplateFunctions {
    typealias Value = AquaTemplate.Value
    typealias Failure = AquaTemplate.Failure

    static func call(_ name: String, _ args: [Value]) throws(Failure) -> Value {
        func strings(_ count: Int) throws(Failure) -> [String] {
            guard args.count == count else { throw Failure("`\(name)` takes \(count) argument\(count == 1 ? "" : "s"), given \(args.count)") }
            return args.map(\.text)
        }
        switch name {
        case "trimV":
            let s = try strings(1)[0]
            return .string(s.hasPrefix("v") ? String(s.dropFirst()) : s)
        case "trimPrefix":
            let a = try strings(2)
            return .string(a[1].hasPrefix(a[0]) ? String(a[1].dropFirst(a[0].count)) : a[1])
        case "trimSuffix":
            let a = try strings(2)
            return .string(a[1].hasSuffix(a[0]) ? String(a[1].dropLast(a[0].count)) : a[1])
        case "trimAll":
            let a = try strings(2)
            return .string(trim(a[1], a[0]))
        case "trim":
            return .string(trim(try strings(1)[0], " \t\n\r"))
        case "replace":
            let a = try strings(3)
            return .string(a[0].isEmpty ? a[2] : a[2].replacingAll(a[0], with: a[1]))
        case "title":
            return .string(title(try strings(1)[0]))
        case "lower":
            return .string(try strings(1)[0].lowercased())
        case "upper":
            return .string(try strings(1)[0].uppercased())
        case "splitList":
            let a = try strings(2)
            guard !a[0].isEmpty else { return .list(a[1].map { .string(String($0)) }) }
            return .list(a[1].splitAll(a[0]).map { .string($0) })
        case "regexFind":
            let a = try strings(2)
            let regex: Regex<AnyRegexOutput>
            do { regex = try Regex(a[0]) } catch { throw Failure("`regexFind`: \(quoted(a[0])) is not a regular expression tack reads") }
            return .string(a[1].firstMatch(of: regex).map { String(a[1][$0.range]) } ?? "")
        case "semver":
            let s = try strings(1)[0]
            guard let v = SemanticVersion(s) else { throw Failure("`semver`: \(quoted(s)) is not a version") }
            return .version(major: v.major, minor: v.minor, patch: v.patch, prerelease: v.prerelease, text: v.text)
        case "index":
            guard var current = args.first, args.count >= 2 else { throw Failure("`index` takes a list and at least one position") }
            for position in args.dropFirst() {
                guard case .list(let items) = current else { throw Failure("`index` of \(quoted(current.text)), which is not a list") }
                guard case .int(let n) = position, n >= 0, n < items.count else {
                    throw Failure("`index` \(position.text) is outside a list of \(items.count)")
                }
                current = items[n]
            }
            return current
        case "len":
            guard args.count == 1, let only = args.first else { throw Failure("`len` takes 1 argument, given \(args.count)") }
            switch only {
            case .list(let l): return .int(l.count)
            case .map(let m): return .int(m.count)
            default: return .int(only.text.count)
            }
        case "eq", "ne":
            guard args.count >= 2, let first = args.first else { throw Failure("`\(name)` takes at least 2 arguments, given \(args.count)") }
            let equal = args.dropFirst().contains { same(first, $0) }
            if name == "ne" && args.count != 2 { throw Failure("`ne` takes 2 arguments, given \(args.count)") }
            return .bool(name == "eq" ? equal : !equal)
        case "not":
            guard args.count == 1, let only = args.first else { throw Failure("`not` takes 1 argument, given \(args.count)") }
            return .bool(!only.truthy)
        case "and":
            guard let last = args.last else { throw Failure("`and` takes at least 1 argument") }
            return args.first { !$0.truthy } ?? last
        case "or":
            guard let last = args.last else { throw Failure("`or` takes at least 1 argument") }
            return args.first { $0.truthy } ?? last
        default:
            throw Failure("the function `\(name)` is not one tack's aqua templates know")
        }
    }

    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        default: a.text == b.text
        }
    }

    /// sprig's `title` (Go's strings.Title): each word's first letter upper-cased.
    static func title(_ s: String) -> String {
        var out = ""
        var atStart = true
        for c in s {
            out += atStart ? c.uppercased() : String(c)
            atStart = !(c.isLetter || c.isNumber || c == "_" || c == "'")
        }
        return out
    }

    static func trim(_ s: String, _ cut: String) -> String {
        var sub = Substring(s)
        while let c = sub.first, cut.contains(c) { sub = sub.dropFirst() }
        while let c = sub.last, cut.contains(c) { sub = sub.dropLast() }
        return String(sub)
    }
}

extension String {
    /// Every `target` replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        splitAll(target).joined(separator: replacement)
    }

    /// Split at every `separator` (empty parts kept).
    func splitAll(_ separator: String) -> [String] {
        guard !separator.isEmpty else { return [self] }
        var parts: [String] = []
        var rest = Substring(self)
        while let r = rest.range(of: separator) {
            parts.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}

/// A version as sprig's `semver` reads one (Masterminds' lenient reading): an optional `v`,
/// one to three numbers, then `-prerelease` and `+build`.
struct SemanticVersion: Equatable {
    var major = 0, minor = 0, patch = 0
    var prerelease = ""
    var text: String

    init?(_ raw: String) {
        var s = Substring(raw)
        if s.first == "v" || s.first == "V" { s = s.dropFirst() }
        if let plus = s.firstIndex(of: "+") { s = s[..<plus] }
        if let dash = s.firstIndex(of: "-") {
            prerelease = String(s[s.index(after: dash)...])
            s = s[..<dash]
        }
        let numbers = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count) else { return nil }
        var parsed: [Int] = []
        for n in numbers {
            guard !n.isEmpty, n.count <= 18, n.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(n) else { return nil }
            parsed.append(value)
        }
        major = parsed[0]
        if parsed.count > 1 { minor = parsed[1] }
        if parsed.count > 2 { patch = parsed[2] }
        text = "\(major).\(minor).\(patch)" + (prerelease.isEmpty ? "" : "-\(prerelease)")
    }
}
