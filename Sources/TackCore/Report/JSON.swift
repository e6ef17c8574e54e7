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
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d):
            guard d.isFinite, abs(d) < 1e15 else { out += "null"; return }
            let tenths = (d * 10).rounded() / 10
            out += tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(k, into: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
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
                JSON.quote(k, into: &out)
                out += ": "
                v.writePretty(to: &out, indent: inner)
                out += i < pairs.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            write(to: &out)
        }
    }

    static func quote(_ s: String, into out: inout String) { out += quoted(s) }
}
