/// A TOML document read into tables, for the version files written in it (mise's
/// `mise.toml`). Foundation-free, like the rest of TackCore, because the static `tack-front`
/// reads version files too — the TOML libraries at hand need Foundation. It reads all of TOML
/// 1.0's syntax (so any table of a file, `[tasks]` with multi-line scripts too, reads without
/// error); numbers, booleans and dates are kept as the text written.
public struct TOMLDocument: Sendable {
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        /// A number, boolean, date or time, as written.
        case scalar(String)
        case array([Value])
        case table([Entry])
    }

    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: Value
        /// Where the key is (1-based).
        public var line: Int
        public var column: Int
    }

    public struct Failure: Error, Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The top-level table.
    public private(set) var root: [Entry] = []

    public init(_ text: String) throws(Failure) {
        var reader = Reader(Array(text.unicodeScalars))
        var path: [String] = []
        var tables: [[String]: Int] = [:]
        while true {
            reader.skipBlank()
            guard let c = reader.peek else { break }
            let (line, column) = (reader.line, reader.column)
            if c == "[" {
                let array = reader.peek(1) == "["
                reader.i += array ? 2 : 1
                reader.skipSpaces()
                path = try reader.key()
                reader.skipSpaces()
                guard reader.take("]"), !array || reader.take("]") else { throw reader.fail("a table header ends with `]`") }
                if !array {
                    if tables[path] != nil { throw Failure(line: line, column: column, message: "the table [\(path.joined(separator: "."))] is defined twice") }
                    tables[path] = line
                    try Self.insert(&root, path, .table([]), line: line, column: column, arrayTable: false)
                } else {
                    try Self.insert(&root, path, .array([.table([])]), line: line, column: column, arrayTable: true)
                }
            } else {
                let key = try reader.key()
                reader.skipSpaces()
                guard reader.take("=") else { throw reader.fail("expected `=` after the key \(key.joined(separator: "."))") }
                reader.skipSpaces()
                let value = try reader.value(depth: 0)
                try Self.insert(&root, path + key, value, line: line, column: column, arrayTable: false, within: path.count)
            }
            reader.skipSpaces()
            reader.skipComment()
            guard reader.peek == nil || reader.takeNewline() else { throw reader.fail("expected the end of the line") }
        }
    }

    /// The value at `path` (`["tools", "node"]`), or nil.
    public func value(at path: [String]) -> Value? {
        var entries = root
        var found: Value?
        for (n, key) in path.enumerated() {
            guard let entry = entries.last(where: { $0.key == key }) else { return nil }
            found = entry.value
            if n < path.count - 1 {
                switch entry.value {
                case .table(let t): entries = t
                case .array(let items):
                    guard case .table(let t)? = items.last else { return nil }
                    entries = t
                default: return nil
                }
            }
        }
        return found
    }

    /// The entries of the table at `path`, in order.
    public func table(at path: [String]) -> [Entry]? {
        if path.isEmpty { return root }
        guard case .table(let t)? = value(at: path) else { return nil }
        return t
    }

    /// Sets `value` at `path` under `entries`, making the tables on the way. `within` is how
    /// much of `path` is the current table's header (what follows it may make new tables).
    static func insert(_ entries: inout [Entry], _ path: [String], _ value: Value, line: Int, column: Int, arrayTable: Bool, within: Int = 0) throws(Failure) {
        guard let key = path.first else { return }
        let index = entries.lastIndex { $0.key == key }
        if path.count == 1 {
            if arrayTable, let index, case .array(var items) = entries[index].value {
                items.append(.table([]))
                entries[index].value = .array(items)
                return
            }
            if let index {
                // A table header for a table a dotted key or header made already: the same table.
                if case .table = value, case .table = entries[index].value { return }
                throw Failure(line: line, column: column, message: "`\(key)` is set twice (first on line \(entries[index].line))")
            }
            entries.append(Entry(key: key, value: value, line: line, column: column))
            return
        }
        let rest = Array(path.dropFirst())
        if let index {
            switch entries[index].value {
            case .table(var t):
                try insert(&t, rest, value, line: line, column: column, arrayTable: arrayTable, within: within - 1)
                entries[index].value = .table(t)
            case .array(var items):
                guard case .table(var t)? = items.last else { throw Failure(line: line, column: column, message: "`\(key)` is not a table") }
                try insert(&t, rest, value, line: line, column: column, arrayTable: arrayTable, within: within - 1)
                items[items.count - 1] = .table(t)
                entries[index].value = .array(items)
            default:
                throw Failure(line: line, column: column, message: "`\(key)` is a value, not a table")
            }
            return
        }
        var t: [Entry] = []
        try insert(&t, rest, value, line: line, column: column, arrayTable: arrayTable, within: within - 1)
        entries.append(Entry(key: key, value: .table(t), line: line, column: column))
    }

    struct Reader {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        var lineStart = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        var column: Int { i - lineStart + 1 }
        var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
        func peek(_ offset: Int) -> Unicode.Scalar? { i + offset < s.count ? s[i + offset] : nil }

        func fail(_ message: String) -> Failure { Failure(line: line, column: column, message: message) }

        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard peek == c else { return false }
            i += 1
            return true
        }

        mutating func takeNewline() -> Bool {
            if peek == "\r", peek(1) == "\n" { i += 1 }
            guard peek == "\n" else { return false }
            i += 1
            line += 1
            lineStart = i
            return true
        }

        mutating func skipSpaces() { while peek == " " || peek == "\t" { i += 1 } }

        mutating func skipComment() {
            guard peek == "#" else { return }
            while let c = peek, c != "\n", c != "\r" { i += 1 }
        }

        /// Spaces, comments and line breaks.
        mutating func skipBlank() {
            while true {
                skipSpaces()
                skipComment()
                guard takeNewline() else { return }
            }
        }

        static func isBare(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
        }

        /// `a.b."c d"`: a dotted key's parts.
        mutating func key() throws(Failure) -> [String] {
            var parts: [String] = []
            repeat {
                // Each part is a table to make (recursively): a hostile key must not exhaust the stack.
                guard parts.count < 64 else { throw fail("a key of more than 64 dotted parts") }
                skipSpaces()
                if peek == "\"" { parts.append(try basicString()) } else if peek == "'" { parts.append(try literalString()) } else {
                    var word = ""
                    while let c = peek, Self.isBare(c) { word.unicodeScalars.append(c); i += 1 }
                    guard !word.isEmpty else { throw fail("expected a key") }
                    parts.append(word)
                }
                skipSpaces()
            } while take(".")
            return parts
        }

        mutating func value(depth: Int) throws(Failure) -> Value {
            guard depth < 64 else { throw fail("values nest deeper than 64 levels") }
            guard let c = peek else { throw fail("expected a value") }
            switch c {
            case "\"":
                if peek(1) == "\"", peek(2) == "\"" { return .string(try multiline(quote: "\"")) }
                return .string(try basicString())
            case "'":
                if peek(1) == "'", peek(2) == "'" { return .string(try multiline(quote: "'")) }
                return .string(try literalString())
            case "[":
                i += 1
                var items: [Value] = []
                while true {
                    skipBlank()
                    if take("]") { return .array(items) }
                    items.append(try value(depth: depth + 1))
                    skipBlank()
                    if take(",") { continue }
                    guard take("]") else { throw fail("expected `,` or `]` in an array") }
                    return .array(items)
                }
            case "{":
                i += 1
                var entries: [Entry] = []
                skipSpaces()
                if take("}") { return .table([]) }
                while true {
                    skipSpaces()
                    let (l, col) = (line, column)
                    let key = try key()
                    guard take("=") else { throw fail("expected `=` in an inline table") }
                    skipSpaces()
                    let v = try value(depth: depth + 1)
                    try TOMLDocument.insert(&entries, key, v, line: l, column: col, arrayTable: false)
                    skipSpaces()
                    if take(",") { continue }
                    guard take("}") else { throw fail("expected `,` or `}` in an inline table") }
                    return .table(entries)
                }
            default:
                var word = ""
                while let c = peek, Self.isBare(c) || "+.:".unicodeScalars.contains(c) || (c == " " && peek(1).map { ("0"..."9").contains($0) } == true && word.count == 10) {
                    word.unicodeScalars.append(c)
                    i += 1
                }
                guard !word.isEmpty else { throw fail("expected a value, found \(quoted(String(c)))") }
                return .scalar(word)
            }
        }

        mutating func basicString() throws(Failure) -> String {
            i += 1
            var out = ""
            while let c = peek {
                if c == "\"" { i += 1; return out }
                if c == "\n" || c == "\r" { break }
                if c == "\\" { out.unicodeScalars.append(try escape()); continue }
                out.unicodeScalars.append(c)
                i += 1
            }
            throw fail("a string without its closing `\"`")
        }

        mutating func literalString() throws(Failure) -> String {
            i += 1
            var out = ""
            while let c = peek {
                if c == "'" { i += 1; return out }
                if c == "\n" || c == "\r" { break }
                out.unicodeScalars.append(c)
                i += 1
            }
            throw fail("a string without its closing `'`")
        }

        /// `"""…"""` or `'''…'''` (a line break right after the opening quotes is dropped).
        mutating func multiline(quote: Unicode.Scalar) throws(Failure) -> String {
            i += 3
            _ = takeNewline()
            var out = ""
            while let c = peek {
                if c == quote, peek(1) == quote, peek(2) == quote {
                    // Up to two quotes just before the closing three belong to the string.
                    var n = 0
                    while peek(n) == quote { n += 1 }
                    guard n <= 5 else { throw fail("too many quotes closing a multi-line string") }
                    for _ in 0..<(n - 3) { out.unicodeScalars.append(quote) }
                    i += n
                    return out
                }
                if c == "\\", quote == "\"" {
                    // A backslash at a line's end joins it with the next non-blank text.
                    var j = i + 1
                    while j < s.count, s[j] == " " || s[j] == "\t" { j += 1 }
                    if j < s.count, s[j] == "\n" || s[j] == "\r" {
                        i = j
                        while true {
                            if peek == " " || peek == "\t" { i += 1 } else if !takeNewline() { break }
                        }
                        continue
                    }
                    out.unicodeScalars.append(try escape())
                    continue
                }
                if takeNewline() { out += "\n"; continue }
                out.unicodeScalars.append(c)
                i += 1
            }
            throw fail("a multi-line string without its closing quotes")
        }

        mutating func escape() throws(Failure) -> Unicode.Scalar {
            i += 1
            guard let c = peek else { throw fail("a `\\` at the end of the file") }
            i += 1
            switch c {
            case "b": return "\u{08}"
            case "t": return "\t"
            case "n": return "\n"
            case "f": return "\u{0C}"
            case "r": return "\r"
            case "e": return "\u{1B}"
            case "\"": return "\""
            case "\\": return "\\"
            case "u", "U":
                let count = c == "u" ? 4 : 8
                var hex = ""
                for _ in 0..<count {
                    guard let h = peek, h.properties.isASCIIHexDigit else { throw fail("`\\\(c)` needs \(count) hexadecimal digits") }
                    hex.unicodeScalars.append(h)
                    i += 1
                }
                guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { throw fail("`\\\(c)\(hex)` is not a character") }
                return scalar
            default:
                throw fail("`\\\(c)` is not an escape TOML has")
            }
        }
    }
}
