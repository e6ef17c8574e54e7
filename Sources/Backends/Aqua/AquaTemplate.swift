import TackCore

/// The part of Go's text/template that aqua's registry writes its asset names, URLs and file
/// paths in: text with `{{ … }}` actions, each a pipeline (`trimPrefix "v" .Version | trimV`)
/// of fields (`.Version`, `.Vars.channel`), string and number literals, parenthesized
/// pipelines with a field after them (`(semver .Version).Major`) and sprig's functions as
/// aqua offers them (subject last: `replace "." "" .Version`); and `if`/`else if`/`else`/`end`.
/// Parsed once, rendered per platform. Anything else (`range`, `with`, a function tack does
/// not know) is an error that names it, never a silent empty string.
public struct AquaTemplate: Sendable, Equatable {
    /// A value a template computes with.
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case list([Value])
        case map([String: Value])
        /// What sprig's `semver` makes of a version: its numbers, for `.Major`, `.Minor`, `.Patch`.
        case version(major: Int, minor: Int, patch: Int, prerelease: String, text: String)

        /// The text Go prints for it.
        var text: String {
            switch self {
            case .string(let s): s
            case .int(let i): String(i)
            case .bool(let b): b ? "true" : "false"
            case .list(let items): "[" + items.map(\.text).joined(separator: " ") + "]"
            case .map(let m): "map[" + m.keys.sorted().map { "\($0):\(m[$0]?.text ?? "")" }.joined(separator: " ") + "]"
            case .version(_, _, _, _, let text): text
            }
        }

        var truthy: Bool {
            switch self {
            case .string(let s): !s.isEmpty
            case .int(let i): i != 0
            case .bool(let b): b
            case .list(let l): !l.isEmpty
            case .map(let m): !m.isEmpty
            case .version: true
            }
        }
    }

    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    indirect enum Node: Sendable, Equatable {
        case text(String)
        case action(Pipeline)
        case conditional([(Pipeline, [Node])], otherwise: [Node])

        static func == (a: Node, b: Node) -> Bool {
            switch (a, b) {
            case (.text(let x), .text(let y)): x == y
            case (.action(let x), .action(let y)): x == y
            case (.conditional(let x, let xo), .conditional(let y, let yo)):
                xo == yo && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: false
            }
        }
    }

    struct Pipeline: Sendable, Equatable { var commands: [Command] }

    struct Command: Sendable, Equatable {
        /// A function's name, or nil for an operand alone.
        var function: String?
        var arguments: [Operand]
    }

    indirect enum Operand: Sendable, Equatable {
        case field([String])
        case string(String)
        case int(Int)
        case bool(Bool)
        /// A parenthesized pipeline and the fields read from its result.
        case group(Pipeline, [String])
    }

    let nodes: [Node]
    /// The template as written.
    public let source: String

    public init(_ source: String) throws(Failure) {
        self.source = source
        var parser = Parser(Array(source.unicodeScalars))
        nodes = try parser.parseAll()
    }

    /// The text for `values` (`Version`, `OS`, `Vars` …).
    public func render(_ values: [String: Value]) throws(Failure) -> String {
        var out = ""
        try Self.render(nodes, values, into: &out)
        return out
    }

    /// `source` rendered, for a template used once.
    public static func render(_ source: String, _ values: [String: Value]) throws(Failure) -> String {
        try AquaTemplate(source).render(values)
    }

    static func render(_ nodes: [Node], _ values: [String: Value], into out: inout String) throws(Failure) {
        for node in nodes {
            switch node {
            case .text(let t): out += t
            case .action(let p): out += try evaluate(p, values).text
            case .conditional(let branches, let otherwise):
                var taken = false
                for (condition, body) in branches where try evaluate(condition, values).truthy {
                    try render(body, values, into: &out)
                    taken = true
                    break
                }
                if !taken { try render(otherwise, values, into: &out) }
            }
        }
    }

    static func evaluate(_ pipeline: Pipeline, _ values: [String: Value]) throws(Failure) -> Value {
        var carried: Value?
        for command in pipeline.commands {
            var args: [Value] = []
            for operand in command.arguments { args.append(try evaluate(operand, values)) }
            if let carried { args.append(carried) }
            if let name = command.function {
                carried = try AquaTemplateFunctions.call(name, args)
            } else {
                guard args.count == 1, let only = args.first else {
                    throw Failure("\(args.count) values where one was expected: an operand cannot take arguments")
                }
                carried = only
            }
        }
        guard let carried else { throw Failure("an empty action") }
        return carried
    }

    static func evaluate(_ operand: Operand, _ values: [String: Value]) throws(Failure) -> Value {
        switch operand {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .bool(let b): return .bool(b)
        case .field(let path):
            guard let first = path.first, let value = values[first] else { throw Failure("there is no field .\(path.joined(separator: "."))") }
            return try field(value, Array(path.dropFirst()), name: path.joined(separator: "."))
        case .group(let pipeline, let path):
            return try field(evaluate(pipeline, values), path, name: path.joined(separator: "."))
        }
    }

    static func field(_ value: Value, _ path: [String], name: String) throws(Failure) -> Value {
        var current = value
        for key in path {
            switch current {
            case .map(let m):
                guard let next = m[key] else { throw Failure("there is no field .\(name)") }
                current = next
            case .version(let major, let minor, let patch, let pre, _):
                switch key {
                case "Major": current = .int(major)
                case "Minor": current = .int(minor)
                case "Patch": current = .int(patch)
                case "Prerelease": current = .string(pre)
                default: throw Failure("a version has no field .\(key)")
                }
            default: throw Failure("\(current.text) has no field .\(key)")
            }
        }
        return current
    }
}

extension AquaTemplate {
    /// A recursive-descent reader of the template text.
    struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        /// How deep `if`s and parentheses nest (a hostile registry must not exhaust the stack).
        var depth = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        mutating func enter() throws(Failure) {
            depth += 1
            guard depth <= 64 else { throw Failure("the template nests deeper than 64 levels") }
        }

        enum Stop: Equatable { case end, elseIf(Pipeline), otherwise, endOfText }

        mutating func parseAll() throws(Failure) -> [Node] {
            let (nodes, stop) = try parseNodes()
            guard stop == .endOfText else { throw Failure("`else` or `end` without an `if`") }
            return nodes
        }

        /// Nodes up to an `{{end}}`, `{{else …}}` or the end of the text.
        mutating func parseNodes() throws(Failure) -> ([Node], Stop) {
            var nodes: [Node] = []
            var text = ""
            while i < s.count {
                if s[i] == "{", i + 1 < s.count, s[i + 1] == "{" {
                    i += 2
                    var trimLeft = false
                    if i + 1 < s.count, s[i] == "-", s[i + 1] == " " { trimLeft = true; i += 1 }
                    if trimLeft { while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() } }
                    if !text.isEmpty { nodes.append(.text(text)); text = "" }
                    skipSpace()
                    if let keyword = peekWord(), ["if", "else", "end", "range", "with", "define", "template", "block"].contains(keyword) {
                        i += keyword.unicodeScalars.count
                        switch keyword {
                        case "end":
                            try closeAction()
                            return (nodes, .end)
                        case "else":
                            skipSpace()
                            if peekWord() == "if" {
                                i += 2
                                let condition = try parsePipeline()
                                try closeAction()
                                return (nodes, .elseIf(condition))
                            }
                            try closeAction()
                            return (nodes, .otherwise)
                        case "if":
                            nodes.append(try parseIf())
                        default:
                            throw Failure("`\(keyword)` is not supported in aqua templates tack reads")
                        }
                        continue
                    }
                    let pipeline = try parsePipeline()
                    try closeAction()
                    nodes.append(.action(pipeline))
                } else {
                    text.unicodeScalars.append(s[i])
                    i += 1
                }
            }
            if !text.isEmpty { nodes.append(.text(text)) }
            return (nodes, .endOfText)
        }

        mutating func parseIf() throws(Failure) -> Node {
            try enter()
            defer { depth -= 1 }
            var branches: [(Pipeline, [Node])] = []
            var condition = try parsePipeline()
            try closeAction()
            while true {
                let (body, stop) = try parseNodes()
                switch stop {
                case .end:
                    branches.append((condition, body))
                    return .conditional(branches, otherwise: [])
                case .elseIf(let next):
                    branches.append((condition, body))
                    condition = next
                case .otherwise:
                    branches.append((condition, body))
                    let (rest, last) = try parseNodes()
                    guard last == .end else { throw Failure("an `if` without its `end`") }
                    return .conditional(branches, otherwise: rest)
                case .endOfText:
                    throw Failure("an `if` without its `end`")
                }
            }
        }

        /// `}}` (or ` -}}`, which also trims the whitespace after it).
        mutating func closeAction() throws(Failure) {
            skipSpace()
            if i + 2 < s.count, s[i] == "-", s[i + 1] == "}", s[i + 2] == "}" {
                i += 3
                while i < s.count, s[i].properties.isWhitespace { i += 1 }
                return
            }
            guard i + 1 < s.count, s[i] == "}", s[i + 1] == "}" else { throw Failure("an action that does not end with `}}`") }
            i += 2
        }

        mutating func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" { i += 1 } }

        func peekWord() -> String? {
            var j = i
            var word = ""
            while j < s.count, s[j].properties.isAlphabetic || s[j] == "_" || (j > i && s[j].properties.numericType != nil) {
                word.unicodeScalars.append(s[j])
                j += 1
            }
            return word.isEmpty ? nil : word
        }

        mutating func parsePipeline() throws(Failure) -> Pipeline {
            var commands: [Command] = []
            while true {
                commands.append(try parseCommand())
                skipSpace()
                guard i < s.count, s[i] == "|" else { break }
                i += 1
            }
            return Pipeline(commands: commands)
        }

        mutating func parseCommand() throws(Failure) -> Command {
            skipSpace()
            var function: String?
            if let word = peekWord(), word != "true", word != "false" {
                i += word.unicodeScalars.count
                function = word
            }
            var arguments: [Operand] = []
            while true {
                skipSpace()
                guard i < s.count, s[i] != "|", s[i] != ")", s[i] != "}", !(s[i] == "-" && i + 1 < s.count && s[i + 1] == "}") else { break }
                arguments.append(try parseOperand())
            }
            if function == nil && arguments.isEmpty { throw Failure("an empty command") }
            return Command(function: function, arguments: arguments)
        }

        mutating func parseOperand() throws(Failure) -> Operand {
            let c = s[i]
            if c == "." {
                return .field(try fieldPath())
            }
            if c == "\"" { return .string(try stringLiteral()) }
            if c == "`" {
                i += 1
                var out = ""
                while i < s.count, s[i] != "`" { out.unicodeScalars.append(s[i]); i += 1 }
                guard i < s.count else { throw Failure("a raw string without its closing `") }
                i += 1
                return .string(out)
            }
            if c == "(" {
                i += 1
                try enter()
                defer { depth -= 1 }
                let inner = try parsePipeline()
                skipSpace()
                guard i < s.count, s[i] == ")" else { throw Failure("a `(` without its `)`") }
                i += 1
                let path = i < s.count && s[i] == "." ? try fieldPath() : []
                return .group(inner, path)
            }
            if c.properties.numericType != nil || c == "-" {
                var digits = ""
                if c == "-" { digits = "-"; i += 1 }
                while i < s.count, ("0"..."9").contains(s[i]) { digits.unicodeScalars.append(s[i]); i += 1 }
                guard let n = Int(digits) else { throw Failure("\(quoted(digits)) is not a number") }
                return .int(n)
            }
            if let word = peekWord() {
                i += word.unicodeScalars.count
                if word == "true" || word == "false" { return .bool(word == "true") }
                // A function as an argument needs parentheses in Go too.
                throw Failure("`\(word)` as an argument: a function's result is written in parentheses")
            }
            throw Failure("unexpected \(quoted(String(c)))")
        }

        /// `.A.B.C` (`.` alone is not a field tack reads).
        mutating func fieldPath() throws(Failure) -> [String] {
            var path: [String] = []
            while i < s.count, s[i] == "." {
                i += 1
                guard let word = peekWord() else { throw Failure("`.` alone (the whole data) is not something tack reads") }
                i += word.unicodeScalars.count
                path.append(word)
            }
            return path
        }

        /// A Go interpreted string literal.
        mutating func stringLiteral() throws(Failure) -> String {
            i += 1
            var out = ""
            while i < s.count, s[i] != "\"" {
                if s[i] == "\\", i + 1 < s.count {
                    i += 1
                    switch s[i] {
                    case "n": out += "\n"
                    case "t": out += "\t"
                    case "\\": out += "\\"
                    case "\"": out += "\""
                    default: throw Failure("the escape \\\(s[i]) in a string is not one tack reads")
                    }
                } else {
                    out.unicodeScalars.append(s[i])
                }
                i += 1
            }
            guard i < s.count else { throw Failure("a string without its closing quote") }
            i += 1
            return out
        }
    }
}
