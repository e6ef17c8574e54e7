/// The YAML tack writes, and most of what people write in tack files, read without libyaml:
/// printable ASCII lines of block mappings whose keys are words or double-quoted strings and
/// whose values are words, double-quoted strings, or one-line lists (`[…]`) and mappings
/// (`{…}`) of those. Full-line comments and empty lines may come between.
///
/// The nodes, marks included, are the ones libyaml's events build (`SimpleYAMLTests` holds the
/// two readers to that over tack's own writers and mutated files); a lock and an install
/// record cost a tenth as much. Anything else — a tab, a trailing comment, a block list, an
/// escape other than `\\ \" \n \t \r`, a repeated key, a byte outside printable ASCII — is nil,
/// and `YAMLParser` reads the file with libyaml, errors and all.
package enum SimpleYAML {
    package static func parse(_ bytes: [UInt8]) -> Node? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer)
            return reader.document()
        }
    }

    /// A block mapping still open, at its indent.
    private final class Open {
        let indent: Int
        let mark: Mark
        var pairs: [(key: Scalar, value: Node)] = []
        /// Its keys, once it has many (a linear search is cheaper for a few).
        var keys: Set<String> = []
        /// A key whose value is the block mapping on the lines below.
        var pending: Scalar?

        init(indent: Int, mark: Mark) {
            self.indent = indent
            self.mark = mark
        }

        /// Whether `key` is new here (and now taken).
        func take(_ key: String) -> Bool {
            if pairs.count < 16 && keys.isEmpty {
                if pairs.contains(where: { $0.key.value == key }) || pending?.value == key { return false }
                if pairs.count == 15 {
                    for p in pairs { keys.insert(p.key.value) }
                    if let pending { keys.insert(pending.value) }
                    keys.insert(key)
                }
                return true
            }
            return keys.insert(key).inserted
        }

        var node: Node { .mapping(pairs, mark) }
    }

    private struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        /// The line being read (1-based) and where it starts.
        var line = 0
        var lineStart = 0

        init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

        func mark(_ at: Int) -> Mark { Mark(line: line, column: at - lineStart + 1) }

        static func isWordStart(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)
        }

        static func isWord(_ c: UInt8) -> Bool {
            isWordStart(c) || c == 0x2E || c == 0x5F || c == 0x2D || c == 0x2F || c == 0x2B  // . _ - / +
        }

        mutating func document() -> Node? {
            // Printable ASCII and newlines only: no tab, no carriage return, no BOM, no NUL.
            for c in b where c >= 0x7F || (c < 0x20 && c != 0x0A) { return nil }
            var stack: [Open] = []
            var root: Open?
            var awaitingNested = false
            var i = 0
            while i < b.count {
                line += 1
                lineStart = i
                var end = i
                while end < b.count && b[end] != 0x0A { end += 1 }
                i = end + 1
                if end == lineStart || b[lineStart] == UInt8(ascii: "#") { continue }
                var p = lineStart
                while p < end && b[p] == 0x20 { p += 1 }
                guard p < end, b[p] != UInt8(ascii: "#") else { return nil }
                let indent = p - lineStart
                if awaitingNested {
                    // Deep nesting is libyaml's to refuse (`YAMLParser.maxDepth`).
                    guard let top = stack.last, indent > top.indent, stack.count < 32 else { return nil }
                    stack.append(Open(indent: indent, mark: mark(p)))
                    awaitingNested = false
                } else if stack.isEmpty {
                    guard root == nil, indent == 0 else { return nil }
                    let open = Open(indent: 0, mark: mark(p))
                    root = open
                    stack.append(open)
                } else {
                    while let top = stack.last, top.indent > indent {
                        stack.removeLast()
                        guard let parent = stack.last, let key = parent.pending else { return nil }
                        parent.pairs.append((key, top.node))
                        parent.pending = nil
                    }
                    guard let top = stack.last, top.indent == indent else { return nil }
                }
                guard let top = stack.last, let (key, afterKey) = scalar(at: p, end: end, isKey: true),
                      afterKey < end, b[afterKey] == UInt8(ascii: ":"), top.take(key.value)
                else { return nil }
                var q = afterKey + 1
                if q == end {
                    top.pending = key
                    awaitingNested = true
                    continue
                }
                guard b[q] == 0x20 else { return nil }
                while q < end && b[q] == 0x20 { q += 1 }
                guard q < end, let (value, afterValue) = value(at: q, end: end), afterValue == end else { return nil }
                top.pairs.append((key, value))
            }
            guard !awaitingNested, let root else { return nil }
            while stack.count > 1 {
                let child = stack.removeLast()
                guard let parent = stack.last, let key = parent.pending else { return nil }
                parent.pairs.append((key, child.node))
                parent.pending = nil
            }
            return root.node
        }

        /// A word or a double-quoted string at `p`, and where it ends. A key is at most 1,000
        /// bytes long (YAML's limit for a key without `?` is 1,024 characters).
        func scalar(at p: Int, end: Int, isKey: Bool = false) -> (Scalar, Int)? {
            if b[p] == 0x22 {
                var out: [UInt8] = []
                var escaped = false
                var q = p + 1
                var runStart = q
                while q < end {
                    let c = b[q]
                    if c == 0x22 { break }
                    if c == 0x5C {
                        guard q + 1 < end else { return nil }
                        if !escaped { out.reserveCapacity(q - p) }
                        escaped = true
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<q]))
                        switch b[q + 1] {
                        case 0x5C: out.append(0x5C)
                        case 0x22: out.append(0x22)
                        case UInt8(ascii: "n"): out.append(0x0A)
                        case UInt8(ascii: "t"): out.append(0x09)
                        case UInt8(ascii: "r"): out.append(0x0D)
                        default: return nil
                        }
                        q += 2
                        runStart = q
                        continue
                    }
                    q += 1
                }
                guard q < end, !isKey || q - p < 1000 else { return nil }
                let value: String
                if escaped {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<q]))
                    value = String(decoding: out, as: UTF8.self)
                } else {
                    value = String(decoding: UnsafeBufferPointer(rebasing: b[(p + 1)..<q]), as: UTF8.self)
                }
                return (Scalar(value: value, plain: false, mark: mark(p), end: mark(q + 1)), q + 1)
            }
            guard Self.isWordStart(b[p]) else { return nil }
            var q = p + 1
            while q < end && Self.isWord(b[q]) { q += 1 }
            guard !isKey || q - p < 1000 else { return nil }
            let value = String(decoding: UnsafeBufferPointer(rebasing: b[p..<q]), as: UTF8.self)
            return (Scalar(value: value, plain: true, mark: mark(p), end: mark(q)), q)
        }

        /// A value at `p`: a scalar, `[items]` or `{key: value, …}` of scalars, on this line.
        func value(at p: Int, end: Int) -> (Node, Int)? {
            let open = b[p]
            guard open == UInt8(ascii: "[") || open == UInt8(ascii: "{") else {
                return scalar(at: p, end: end).map { (.scalar($0.0), $0.1) }
            }
            let isMapping = open == UInt8(ascii: "{")
            let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
            var items: [Node] = []
            var pairs: [(key: Scalar, value: Node)] = []
            var q = p + 1
            func skipSpaces() { while q < end && b[q] == 0x20 { q += 1 } }
            skipSpaces()
            if q < end && b[q] == close {
                return (isMapping ? .mapping([], mark(p)) : .sequence([], mark(p)), q + 1)
            }
            while true {
                // A key in braces has YAML's length limit too; a long list of pairs (each
                // checked against the others) is libyaml's.
                guard q < end, pairs.count < 64, let (first, after) = scalar(at: q, end: end, isKey: isMapping) else { return nil }
                q = after
                if isMapping {
                    guard q + 1 < end, b[q] == UInt8(ascii: ":"), b[q + 1] == 0x20,
                          !pairs.contains(where: { $0.key.value == first.value }) else { return nil }
                    q += 2
                    skipSpaces()
                    guard q < end, let (value, afterValue) = scalar(at: q, end: end) else { return nil }
                    q = afterValue
                    pairs.append((first, .scalar(value)))
                } else {
                    items.append(.scalar(first))
                }
                skipSpaces()
                guard q < end else { return nil }
                if b[q] == close { break }
                guard b[q] == UInt8(ascii: ",") else { return nil }
                q += 1
                skipSpaces()
            }
            return (isMapping ? .mapping(pairs, mark(p)) : .sequence(items, mark(p)), q + 1)
        }
    }
}
