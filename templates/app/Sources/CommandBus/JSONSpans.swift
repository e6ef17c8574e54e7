/// Where each member of a JSON object is, as byte ranges of the text: how the journal reads a
/// command's payload back byte for byte, without a round trip through numbers that would
/// round an Int64 or a Decimal.
enum JSONSpans {
    /// The top-level members of the object `bytes` holds, by key; nil if it is not one.
    static func members(_ bytes: [UInt8]) -> [String: Range<Int>]? {
        var i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i = skipSpace(bytes, i + 1)
        var members: [String: Range<Int>] = [:]
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return skipSpace(bytes, i + 1) == bytes.count ? members : nil }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let keyEnd = endOfString(bytes, i) else { return nil }
            let key = String(decoding: bytes[(i + 1)..<(keyEnd - 1)], as: UTF8.self)
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            let start = skipSpace(bytes, i + 1)
            guard let end = endOfValue(bytes, start) else { return nil }
            members[key] = start..<end
            i = skipSpace(bytes, end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { return skipSpace(bytes, i + 1) == bytes.count ? members : nil }
            guard bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
    }

    static func skipSpace(_ b: [UInt8], _ i: Int) -> Int {
        var i = i
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }

    /// The index after the string starting at `i` (at its opening quote).
    static func endOfString(_ b: [UInt8], _ i: Int) -> Int? {
        var j = i + 1
        while j < b.count {
            switch b[j] {
            case UInt8(ascii: "\\"): j += 2
            case UInt8(ascii: "\""): return j + 1
            default: j += 1
            }
        }
        return nil
    }

    /// The index after the value starting at `i`.
    static func endOfValue(_ b: [UInt8], _ i: Int) -> Int? {
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "\""): return endOfString(b, i)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0, j = i
            while j < b.count {
                switch b[j] {
                case UInt8(ascii: "\""):
                    guard let end = endOfString(b, j) else { return nil }
                    j = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return j + 1 }
                default: break
                }
                j += 1
            }
            return nil
        default:
            // A number, true, false or null: up to the next delimiter.
            var j = i
            while j < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(b[j]) { j += 1 }
            return j > i ? j : nil
        }
    }
}
