/// A small JSON value and writer, for `--json` output without Foundation. Keys keep the order
/// they are given in, so output is stable for scripts and tests.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number with a fraction, written to a tenth (`12.3`, `0`); null when not finite.
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }

    public func serialized() -> String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Written as bytes: `current --json` of a thousand tools is made on the cold path.
    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .number(let d):
            guard d.isFinite, abs(d) < 1e15 else { out.append(contentsOf: "null".utf8); return }
            let tenths = (d * 10).rounded() / 10
            out.append(contentsOf: (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)).utf8)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.quote(k, into: &out)
                out.append(UInt8(ascii: ":"))
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The same value written for people: two spaces an indent level, one member a line.
    public func pretty() -> String {
        var out = ""
        writePretty(to: &out, indent: "")
        return out
    }

    func writePretty(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.writePretty(to: &out, indent: inner)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let pairs) where !pairs.isEmpty:
            out += "{\n"
            for (i, (k, v)) in pairs.enumerated() {
                out += inner
                out += quoted(k)
                out += ": "
                v.writePretty(to: &out, indent: inner)
                out += i < pairs.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += serialized()
        }
    }

    /// `quoted(s)`, appended; printable ASCII without a quote or backslash as it is.
    static func quote(_ s: String, into out: inout [UInt8]) {
        if quotesAsItIs(s) {
            out.append(0x22)
            out.append(contentsOf: s.utf8)
            out.append(0x22)
        } else {
            out.append(contentsOf: quoted(s).utf8)
        }
    }
}
