/// What `tack current` prints, as text and as JSON: the front end's and `tack-cli`'s command
/// print it, and a snapshot stores it for each argument form so the `tack` executable answers
/// `current` on its own.
public enum CurrentReport {
    /// What `tack current` prints (stdout, exit 0) for each argument form, for the snapshot;
    /// forms that print an error are left out.
    public static func answers(_ rows: [CurrentTool], home: String?) -> [(key: String, output: String)] {
        var out: [(key: String, output: String)] = [("current --json", json(rows) + "\n")]
        if !rows.isEmpty { out.append(("current", text(rows, single: false, home: home))) }
        // Grouped once: filtering the rows for each tool was quadratic in the tools pinned.
        let byTool = Dictionary(grouping: rows, by: { $0.tool })
        for tool in byTool.keys.sorted() {
            let matching = byTool[tool] ?? []
            // Those exit 1: answered by the slow path, which says so.
            guard matching.allSatisfy({ $0.isReady }) else { continue }
            out.append(("current \(tool)", text(matching, single: true, home: home)))
            out.append(("current \(tool) --json", json(matching) + "\n"))
        }
        return out
    }

    public static func json(_ tools: [CurrentTool]) -> String {
        JSON.array(tools.map { t in
            .object([
                ("tool", .string(t.tool)),
                ("requested", .string(t.requested)),
                ("version", t.version.map({ JSON.string($0) }) ?? .null),
                ("backend", .string(t.backend)),
                ("source", .string(t.source)),
                ("line", t.line.map({ JSON.int($0) }) ?? .null),
                ("installed", .bool(t.installed)),
            ])
        }).serialized()
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
