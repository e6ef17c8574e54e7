#if !hasFeature(Embedded)
import YAML
#endif

/// Edits a manifest's text in place, the way a person would: one value changed or one line
/// added, comments and layout untouched. The result is decoded again before it is returned,
/// so an edit never produces a manifest tack cannot read.
public enum ManifestEditor {
    /// `tool: value`, where value is the requirement (or a flow mapping with a source).
    public static func pin(_ tool: String, _ requirement: Requirement, entry: String? = nil, in original: [UInt8], path: String, kind: Origin.Kind, backends: BackendCatalog) throws(TackError) -> [UInt8] {
        guard ToolName.isValid(tool) else { throw TackError(ToolName.problem(tool)) }
        let value = entry ?? yamlValue(requirement.description)
        var bytes = original
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let isEmpty = bytes.dropFirst(bom).allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }
        if isEmpty {
            bytes = Array("tools:\n  \(tool): \(value)\n".utf8)
        } else {
            _ = try Manifest.decode(bytes, path: path, kind: kind, backends: backends)  // refuse to edit a broken file
            let root: Node?
            do { root = try YAMLParser.parse(bytes) } catch { throw TackError.at(path, error.mark.line, error.mark.column, error.message) }
            guard case .mapping(let top, _)? = root else { throw TackError("\(path): cannot edit: not a mapping") }
            let text = Text(bytes: bytes, bom: bom)
            if let tools = top.first(where: { $0.key.value == "tools" }) {
                bytes = try edit(tools.key, tools.value, tool: tool, requirement: requirement, value: value, entry: entry, text: text, path: path)
            } else {
                if bytes.last != 0x0A { bytes.append(0x0A) }
                bytes += Array("tools:\n  \(tool): \(value)\n".utf8)
            }
        }
        let edited = try Manifest.decode(bytes, path: path, kind: kind, backends: backends)
        guard let r = edited.tools.first(where: { $0.name == tool }), r.requirement == requirement else {
            throw TackError("\(path): tack could not edit the entry for \(tool) safely; edit it by hand")
        }
        return bytes
    }

    static func edit(_ key: Scalar, _ tools: Node, tool: String, requirement: Requirement, value: String, entry: String?, text: Text, path: String) throws(TackError) -> [UInt8] {
        switch tools {
        case .scalar(let s) where s.isNull:
            return text.insertLine(after: key.mark.line, "  \(tool): \(value)")
        case .mapping(let pairs, let mark):
            let isFlow = text.byte(at: mark) == UInt8(ascii: "{")
            if let existing = pairs.first(where: { $0.key.value == tool }) {
                switch existing.value {
                case .scalar(let s):
                    // Keep the quoting the file used.
                    return text.replace(from: s.mark, to: s.end, with: s.plain || entry != nil ? value : quoted(requirement.description))
                case .mapping(let fields, let fieldsMark):
                    if entry != nil {
                        throw TackError("\(path):\(existing.key.mark.line): \(tool) already has an entry; change its source by hand")
                    }
                    if case .ref(let ref) = requirement {
                        if let v = fields.first(where: { $0.key.value == "ref" }), case .scalar(let s) = v.value {
                            return text.replace(from: s.mark, to: s.end, with: s.plain ? yamlValue(ref) : quoted(ref))
                        }
                        throw TackError("\(path):\(existing.key.mark.line): \(tool) is not pinned by `ref:`; edit it by hand to pin a ref")
                    }
                    if let v = fields.first(where: { $0.key.value == "version" }), case .scalar(let s) = v.value {
                        let r = requirement.description
                        return text.replace(from: s.mark, to: s.end, with: s.plain ? yamlValue(r) : quoted(r))
                    }
                    if let other = fields.first(where: { ["ref", "path"].contains($0.key.value) }) {
                        throw TackError("\(path):\(other.key.mark.line): \(tool) is pinned by `\(other.key.value)`; edit it by hand")
                    }
                    if text.byte(at: fieldsMark) == UInt8(ascii: "{"), let last = fields.last, let end = lastScalar(last.value)?.end {
                        return text.replace(from: end, to: end, with: ", version: \(yamlValue(requirement.description))")
                    }
                    guard let first = fields.first else { break }
                    return text.insertLine(before: first.key.mark.line, String(repeating: " ", count: first.key.mark.column - 1) + "version: \(yamlValue(requirement.description))")
                case .sequence:
                    break
                }
                throw TackError("\(path):\(existing.key.mark.line): tack cannot edit the entry for \(tool); edit it by hand")
            }
            guard let last = pairs.last, let end = lastScalar(last.value)?.end ?? Optional(last.key.end) else {
                // `tools: {}`
                if isFlow { return text.replace(from: mark, to: Mark(line: mark.line, column: mark.column + 2), with: "\n  \(tool): \(value)") }
                return text.insertLine(after: key.mark.line, "  \(tool): \(value)")
            }
            if isFlow { return text.replace(from: end, to: end, with: ", \(tool): \(value)") }
            let indent = String(repeating: " ", count: pairs[0].key.mark.column - 1)
            return text.insertLine(after: end.line, indent + "\(tool): \(value)")
        default:
            break
        }
        throw TackError("\(path):\(key.mark.line): tack cannot edit `tools` here; edit it by hand")
    }

    /// Adds `values` to the list `key` of `tool`'s entry (`sdks: [static-linux]`), keeping what
    /// it lists: a scalar entry (`swift: 6.0.3`) becomes `{ version: 6.0.3, sdks: [...] }`, a
    /// mapping gains the key or a longer list. A block-style list is left for a person to edit.
    public static func addToList(_ tool: String, key: String, _ values: [String], in original: [UInt8], path: String, kind: Origin.Kind, backends: BackendCatalog) throws(TackError) -> [UInt8] {
        let root: Node?
        do { root = try YAMLParser.parse(original) } catch { throw TackError.at(path, error.mark.line, error.mark.column, error.message) }
        let bom = original.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = Text(bytes: original, bom: bom)
        guard case .mapping(let top, _)? = root, let tools = top.first(where: { $0.key.value == "tools" }),
              case .mapping(let pairs, _) = tools.value, let entry = pairs.first(where: { $0.key.value == tool }) else {
            throw TackError("\(path): \(tool) has no entry to add `\(key)` to; edit it by hand")
        }
        func list(_ items: [String]) -> String {
            var all: [String] = []
            for item in items + values where !all.contains(item) { all.append(item) }
            return "[" + all.map(yamlValue).joined(separator: ", ") + "]"
        }
        let edited: [UInt8]
        switch entry.value {
        case .scalar(let s):
            let version = String(decoding: original[text.offset(s.mark)..<text.offset(s.end)], as: UTF8.self)
            edited = text.replace(from: s.mark, to: s.end, with: "{ version: \(version), \(key): \(list([])) }")
        case .mapping(let fields, let fieldsMark):
            if let existing = fields.first(where: { $0.key.value == key }) {
                switch existing.value {
                case .scalar(let s):
                    edited = text.replace(from: s.mark, to: s.end, with: list(s.isNull ? [] : [s.value]))
                case .sequence(let items, let mark) where text.byte(at: mark) == UInt8(ascii: "["):
                    var current: [String] = []
                    for item in items { if case .scalar(let s) = item { current.append(s.value) } }
                    // The list ends at the `]` after its last item.
                    var end = text.offset(items.last.flatMap(lastScalar)?.end ?? Mark(line: mark.line, column: mark.column + 1))
                    while end < original.count, original[end] != UInt8(ascii: "]") { end += 1 }
                    guard end < original.count else { throw TackError("\(path):\(existing.key.mark.line): tack cannot edit `\(key)` of \(tool); edit it by hand") }
                    var out = original
                    out.replaceSubrange(text.offset(mark)...end, with: Array(list(current).utf8))
                    edited = out
                default:
                    throw TackError("\(path):\(existing.key.mark.line): `\(key)` of \(tool) is a block list tack does not edit; add \(values.joined(separator: ", ")) to it by hand")
                }
            } else if text.byte(at: fieldsMark) == UInt8(ascii: "{"), let last = fields.last, let end = lastScalar(last.value)?.end {
                edited = text.replace(from: end, to: end, with: ", \(key): \(list([]))")
            } else if let first = fields.first, let end = fields.last.flatMap({ lastScalar($0.value)?.end ?? $0.key.end }) {
                edited = text.insertLine(after: end.line, String(repeating: " ", count: first.key.mark.column - 1) + "\(key): \(list([]))")
            } else {
                throw TackError("\(path):\(entry.key.mark.line): tack cannot edit the entry for \(tool); edit it by hand")
            }
        case .sequence:
            throw TackError("\(path):\(entry.key.mark.line): tack cannot edit the entry for \(tool); edit it by hand")
        }
        let decoded = try Manifest.decode(edited, path: path, kind: kind, backends: backends)
        guard let r = decoded.tools.first(where: { $0.name == tool }), Set(values).isSubset(of: Set(r.options.lockRecord[key].map(LockedTool.words) ?? [])) else {
            throw TackError("\(path): tack could not add `\(key)` to \(tool) safely; edit it by hand")
        }
        return edited
    }

    static func lastScalar(_ node: Node) -> Scalar? {
        switch node {
        case .scalar(let s): return s
        case .sequence(let items, _): return items.last.flatMap(lastScalar)
        case .mapping(let pairs, _): return pairs.last.flatMap { lastScalar($0.value) ?? $0.key }
        }
    }

    /// A plain scalar where every YAML reader reads it back as the same string; quoted
    /// otherwise: a word YAML 1.1 takes for a bool or null, and anything a reader takes for a
    /// number (`2.10` is the float 2.1 to most, `6` an int, `1e3`, `.inf`, `0x1F`).
    public static func yamlValue(_ s: String) -> String {
        let plain = !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            && !["null", "true", "false", "yes", "no", "on", "off", "y", "n", "~"].contains(s.lowercased())
            && !readsAsNumber(s)
        return plain ? s : quoted(s)
    }

    /// Whether a YAML 1.1 or 1.2 reader resolves the plain scalar `s` to a number.
    static func readsAsNumber(_ s: String) -> Bool {
        let lower = s.lowercased()
        if [".inf", "-.inf", "+.inf", ".nan"].contains(lower) { return true }
        var b = Array(lower.utf8)[...]
        if b.first == UInt8(ascii: "-") || b.first == UInt8(ascii: "+") { b = b.dropFirst() }
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        if b.count > 2, b.first == UInt8(ascii: "0") {
            let rest = b.dropFirst(2)
            switch b[b.startIndex + 1] {
            case UInt8(ascii: "x"): if !rest.isEmpty && rest.allSatisfy({ isDigit($0) || ($0 >= 0x61 && $0 <= 0x66) }) { return true }
            case UInt8(ascii: "o"), UInt8(ascii: "b"): if !rest.isEmpty && rest.allSatisfy(isDigit) { return true }
            default: break
            }
        }
        // [0-9]* ( . [0-9]* )? ( e [-+]? [0-9]+ )?, with at least one digit before the exponent.
        var mantissa = b, exponent: ArraySlice<UInt8>?
        if let e = b.firstIndex(of: UInt8(ascii: "e")) {
            mantissa = b[..<e]
            var x = b[(e + 1)...]
            if x.first == UInt8(ascii: "-") || x.first == UInt8(ascii: "+") { x = x.dropFirst() }
            exponent = x
        }
        if let x = exponent, x.isEmpty || !x.allSatisfy(isDigit) { return false }
        let parts = mantissa.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(isDigit) }), parts.contains(where: { !$0.isEmpty }) else { return false }
        return true
    }

    /// The manifest's bytes addressed by YAML marks (line, column in characters).
    struct Text {
        var bytes: [UInt8]
        var bom: Int

        func offset(_ m: Mark) -> Int {
            var line = 1, i = bom
            while line < m.line, i < bytes.count {
                if bytes[i] == 0x0A { line += 1 }
                i += 1
            }
            var column = 1
            while column < m.column, i < bytes.count, bytes[i] != 0x0A {
                i += 1
                while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
                column += 1
            }
            return i
        }

        func byte(at m: Mark) -> UInt8? {
            let o = offset(m)
            return o < bytes.count ? bytes[o] : nil
        }

        func replace(from a: Mark, to b: Mark, with s: String) -> [UInt8] {
            var out = bytes
            out.replaceSubrange(offset(a)..<offset(b), with: Array(s.utf8))
            return out
        }

        /// Inserts a line after line `n` (1-based).
        func insertLine(after n: Int, _ line: String) -> [UInt8] {
            var o = offset(Mark(line: n + 1, column: 1))
            var out = bytes
            if o >= out.count {
                if out.last != 0x0A { out.append(0x0A) }
                o = out.count
            }
            out.insert(contentsOf: Array((line + "\n").utf8), at: o)
            return out
        }

        func insertLine(before n: Int, _ line: String) -> [UInt8] {
            var out = bytes
            out.insert(contentsOf: Array((line + "\n").utf8), at: offset(Mark(line: n, column: 1)))
            return out
        }
    }
}
