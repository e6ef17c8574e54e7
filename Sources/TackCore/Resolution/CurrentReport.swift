/// What `tack current` prints, as text and as JSON: the front end's and `tack-cli`'s command
/// print it, and a snapshot stores it for each argument form so the `tack` executable answers
/// `current` on its own.
public enum CurrentReport {
    /// What `tack current` prints (stdout, exit 0) for each argument form, for the snapshot;
    /// forms that print an error are left out.
    public static func answers(_ rows: [CurrentTool], home: String?) -> [(key: String, output: String)] {
        // Each row's JSON object is written once, for its own answer and for the list of all.
        let objects = rows.map { row in
            var out: [UInt8] = []
            object(row, into: &out)
            return out
        }
        func array(_ items: [[UInt8]]) -> String {
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: item)
            }
            out.append(contentsOf: "]\n".utf8)
            return String(decoding: out, as: UTF8.self)
        }
        var out: [(key: String, output: String)] = [("current --json", array(objects))]
        if !rows.isEmpty { out.append(("current", text(rows, single: false, home: home))) }
        // Grouped once: filtering the rows for each tool was quadratic in the tools pinned.
        var byTool: [String: [Int]] = [:]
        for (i, row) in rows.enumerated() { byTool[row.tool, default: []].append(i) }
        for tool in byTool.keys.sorted() {
            let matching = byTool[tool] ?? []
            // Those exit 1: answered by the slow path, which says so.
            guard matching.allSatisfy({ rows[$0].isReady }) else { continue }
            out.append(("current \(tool)", text(matching.map { rows[$0] }, single: true, home: home)))
            out.append(("current \(tool) --json", array(matching.map { objects[$0] })))
        }
        return out
    }

    public static func json(_ tools: [CurrentTool]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, t) in tools.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            object(t, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// One row as a JSON object, written as `JSON` writes it (a test holds the two equal).
    static func object(_ t: CurrentTool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func member(_ k: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(0x22)
            out.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
        }
        member("tool"); JSON.quote(t.tool, into: &out)
        member("requested"); JSON.quote(t.requested, into: &out)
        member("version")
        if let v = t.version { JSON.quote(v, into: &out) } else { out.append(contentsOf: "null".utf8) }
        member("backend"); JSON.quote(t.backend, into: &out)
        member("source"); JSON.quote(t.source, into: &out)
        member("line")
        if let l = t.line { out.append(contentsOf: String(l).utf8) } else { out.append(contentsOf: "null".utf8) }
        member("installed"); out.append(contentsOf: (t.installed ? "true" : "false").utf8)
        out.append(UInt8(ascii: "}"))
    }

    /// `0.57.0 (set by ~/app/tack.yml:2)` for one tool; a table for all.
    public static func text(_ tools: [CurrentTool], single: Bool, home: String?) -> String {
        func describe(_ t: CurrentTool) -> (String, String) {
            let setBy = "(set by \(t.origin.describe(home: home)))"
            guard let v = t.version else {
                switch t.requested {
                case "system": return ("system", setBy)
                default:
                    if t.requested.hasPrefix("path:") { return (t.requested, setBy) }
                    return (t.requested, "\(setBy) — not resolved yet; run `tack install`")
                }
            }
            return (v, t.installed ? setBy : "\(setBy) — not installed; run `tack install`")
        }
        if single, let t = tools.first {
            let (v, rest) = describe(t)
            return "\(v) \(rest)\n"
        }
        let nameWidth = tools.map({ $0.tool.count }).max() ?? 0
        let rows = tools.map { ($0.tool, describe($0)) }
        let versionWidth = rows.map({ $0.1.0.count }).max() ?? 0
        var out = ""
        for (name, (v, rest)) in rows {
            out += name + String(repeating: " ", count: nameWidth - name.count + 2)
            out += v + String(repeating: " ", count: versionWidth - v.count + 2) + rest + "\n"
        }
        return out
    }
}
