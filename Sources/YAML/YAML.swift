import CYaml

/// A position in a YAML document, 1-based, as editors show it.
public struct Mark: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// A YAML node that remembers where it was written. Scalars stay strings: tack decides what
/// they mean (a version `0.10` is not the number 0.1).
public indirect enum Node: Sendable, Equatable {
    case scalar(Scalar)
    case sequence([Node], Mark)
    case mapping([(key: Scalar, value: Node)], Mark)

    public var mark: Mark {
        switch self {
        case .scalar(let s): return s.mark
        case .sequence(_, let m), .mapping(_, let m): return m
        }
    }

    public var kindName: String {
        switch self {
        case .scalar(let s): return s.isNull ? "nothing" : "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    public static func == (a: Node, b: Node) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)): return x == y
        case (.sequence(let x, let m), .sequence(let y, let n)): return x == y && m == n
        case (.mapping(let x, let m), .mapping(let y, let n)):
            return m == n && x.count == y.count
                && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

public struct Scalar: Sendable, Hashable {
    public var value: String
    /// True for plain (unquoted) scalars, where `~`, `null` and the empty string mean "nothing".
    public var plain: Bool
    public var mark: Mark
    /// Where the scalar ends (just past its closing quote, if quoted).
    public var end: Mark
    public init(value: String, plain: Bool, mark: Mark, end: Mark? = nil) {
        self.value = value
        self.plain = plain
        self.mark = mark
        self.end = end ?? mark
    }
    public var isNull: Bool { plain && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL") }
}

public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var mark: Mark
    public var message: String
    public init(_ mark: Mark, _ message: String) {
        self.mark = mark
        self.message = message
    }
    public var description: String { "\(mark): \(message)" }
}

public enum YAMLParser {
    /// Deepest nesting accepted; tack files are shallow, and a limit keeps hostile input cheap.
    public static let maxDepth = 64

    /// At most this many nodes are added by expanding aliases (with `aliases: true`): a
    /// document whose aliases nest to a billion nodes ("billion laughs") is refused cheaply.
    public static let maxAliasedNodes = 200_000

    /// Parses one YAML document. An empty document returns nil. Anchors and aliases are
    /// refused (tack's own files never need them) unless `aliases` is true, for files others
    /// generate (aqua's registry), where each alias stands for its anchor's node.
    public static func parse(_ bytes: [UInt8], aliases: Bool = false) throws(YAMLError) -> Node? {
        // What tack writes, and most of what people write, without libyaml's cost.
        if let node = SimpleYAML.parse(bytes) { return node }
        return try parseWithLibYAML(bytes, aliases: aliases)
    }

    /// `parse`, always by libyaml (the fuzzer and the tests hold `SimpleYAML` to it).
    package static func parseWithLibYAML(_ bytes: [UInt8], aliases: Bool) throws(YAMLError) -> Node? {
        var input = bytes
        // A UTF-8 byte order mark is harmless; editors on some systems add one.
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
        if let nul = input.firstIndex(of: 0) {
            throw YAMLError(position(of: nul, in: input), "the file contains a NUL byte; is it a text file?")
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(Mark(line: 1, column: 1), "out of memory starting the YAML parser")
        }
        defer { yaml_parser_delete(&parser) }
        return try input.withUnsafeBufferPointer { (buf) throws(YAMLError) -> Node? in
            yaml_parser_set_input_string(&parser, buf.baseAddress, buf.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var builder = Builder(aliases: aliases)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw parserError(parser, input)
                }
                defer { yaml_event_delete(&event) }
                if try builder.take(event) { break }
            }
            return builder.root
        }
    }

    private static func parserError(_ p: yaml_parser_t, _ input: [UInt8]) -> YAMLError {
        let mark = Mark(line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1)
        let offset = Int(p.problem_mark.index)
        if offset < input.count, input[offset] == 0x09 {
            return YAMLError(mark, "a tab character; YAML indents with spaces only")
        }
        if p.error == YAML_READER_ERROR {
            return YAMLError(position(of: Int(p.problem_offset), in: input), "the file is not valid UTF-8 text")
        }
        var text = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        if let context = p.context.map({ String(cString: $0) }) { text = "\(text) \(context)" }
        return YAMLError(mark, text)
    }

    private static func position(of offset: Int, in input: [UInt8]) -> Mark {
        var line = 1, column = 1
        for b in input.prefix(offset) {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return Mark(line: line, column: column)
    }
}

/// Turns the event stream into nodes with an explicit stack (no recursion, so depth is bounded
/// by `maxDepth`, not by the thread's stack).
private struct Builder {
    /// An open sequence or mapping. A class, so that adding to it changes its arrays in place:
    /// an enum's payload taken out to append to is a second reference, and every append then
    /// copied the whole array (a tack.lock of 1,000 tools took a quarter of a cold resolution).
    final class Frame {
        let isMapping: Bool
        let mark: Mark
        var items: [Node] = []
        var pairs: [(key: Scalar, value: Node)] = []
        var pendingKey: Scalar?
        var seen: Set<String> = []
        /// Its anchor (`&name`), and how many nodes it holds, aliases expanded.
        let anchor: String?
        var size = 1

        init(isMapping: Bool, mark: Mark, anchor: String? = nil) {
            self.isMapping = isMapping
            self.mark = mark
            self.anchor = anchor
        }

        var node: Node { isMapping ? .mapping(pairs, mark) : .sequence(items, mark) }
    }
    var stack: [Frame] = []
    var root: Node?
    var documents = 0
    /// Whether anchors and aliases are read (else refused).
    let aliases: Bool
    /// Each anchor's node and its size.
    var anchors: [String: (node: Node, size: Int)] = [:]
    /// Nodes added by aliases so far.
    var aliased = 0

    init(aliases: Bool) { self.aliases = aliases }

    /// An anchor's name, or nil; an error when anchors are refused.
    func anchorName(_ anchor: UnsafeMutablePointer<yaml_char_t>?, _ mark: Mark) throws(YAMLError) -> String? {
        guard let anchor else { return nil }
        guard aliases else { throw YAMLError(mark, "YAML anchors (`&name`) are not supported in tack files") }
        return String(cString: UnsafeRawPointer(anchor).assumingMemoryBound(to: CChar.self))
    }

    /// Returns true at the end of the stream.
    mutating func take(_ e: yaml_event_t) throws(YAMLError) -> Bool {
        let mark = Mark(line: Int(e.start_mark.line) + 1, column: Int(e.start_mark.column) + 1)
        switch e.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw YAMLError(mark, "a second YAML document (`---`); a tack file holds one")
            }
        case YAML_ALIAS_EVENT:
            guard aliases else { throw YAMLError(mark, "YAML aliases (`*name`) are not supported in tack files; write the value out") }
            let name = e.data.alias.anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
            guard let (node, size) = anchors[name] else { throw YAMLError(mark, "the alias `*\(name)` names no anchor before it") }
            aliased += size
            guard aliased <= YAMLParser.maxAliasedNodes else {
                throw YAMLError(mark, "aliases expand to more than \(YAMLParser.maxAliasedNodes) nodes; the file is refused")
            }
            try add(node, size: size)
        case YAML_SCALAR_EVENT:
            let anchor = try anchorName(e.data.scalar.anchor, mark)
            if let tag = e.data.scalar.tag { throw tagError(mark, tag) }
            let value = String(
                decoding: UnsafeBufferPointer(start: e.data.scalar.value, count: Int(e.data.scalar.length)),
                as: UTF8.self)
            let plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
            let end = Mark(line: Int(e.end_mark.line) + 1, column: Int(e.end_mark.column) + 1)
            let scalar = Node.scalar(Scalar(value: value, plain: plain, mark: mark, end: end))
            if let anchor { anchors[anchor] = (scalar, 1) }
            try add(scalar, size: 1)
        case YAML_SEQUENCE_START_EVENT:
            let anchor = try anchorName(e.data.sequence_start.anchor, mark)
            if let tag = e.data.sequence_start.tag { throw tagError(mark, tag) }
            try push(Frame(isMapping: false, mark: mark, anchor: anchor), mark)
        case YAML_MAPPING_START_EVENT:
            let anchor = try anchorName(e.data.mapping_start.anchor, mark)
            if let tag = e.data.mapping_start.tag { throw tagError(mark, tag) }
            try push(Frame(isMapping: true, mark: mark, anchor: anchor), mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { break }
            let node = frame.node
            if let anchor = frame.anchor { anchors[anchor] = (node, frame.size) }
            try add(node, size: frame.size)
        default:
            break
        }
        return false
    }

    /// Tags (`!foo`, `!!python/object`) ask a YAML reader to build a type: tack files hold
    /// only strings, lists and mappings, so any tag is refused rather than ignored.
    func tagError(_ mark: Mark, _ tag: UnsafeMutablePointer<yaml_char_t>) -> YAMLError {
        let text = String(cString: UnsafeRawPointer(tag).assumingMemoryBound(to: CChar.self))
        var shown = ""
        for u in text.unicodeScalars { shown += u.value < 0x20 || u.value == 0x7F ? "?" : String(u) }
        return YAMLError(mark, "the YAML tag `\(shown)` is not allowed in tack files; write plain values")
    }

    mutating func push(_ frame: Frame, _ mark: Mark) throws(YAMLError) {
        if stack.count >= YAMLParser.maxDepth {
            throw YAMLError(mark, "nested more than \(YAMLParser.maxDepth) levels deep")
        }
        stack.append(frame)
    }

    mutating func add(_ node: Node, size: Int) throws(YAMLError) {
        guard let top = stack.last else {
            root = node
            return
        }
        top.size += size
        guard top.isMapping else {
            top.items.append(node)
            return
        }
        if let key = top.pendingKey {
            top.pairs.append((key, node))
            top.pendingKey = nil
            return
        }
        guard case .scalar(let key) = node else {
            throw YAMLError(node.mark, "a mapping key must be a plain string, not \(node.kindName)")
        }
        if !top.seen.insert(key.value).inserted {
            let first = top.pairs.first { $0.key.value == key.value }?.key.mark ?? key.mark
            throw YAMLError(key.mark, "duplicate key `\(key.value)` (first set at line \(first.line))")
        }
        top.pendingKey = key
    }
}

extension YAMLParser {
    /// The version of libyaml tack is linked with.
    public static var libraryVersion: String { String(cString: yaml_get_version_string()) }
}
