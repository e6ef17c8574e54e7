import TackCore

/// `tack current [tool] [--json]`: shared by the fast front end and `tack-cli`, so both print
/// the same thing.
public enum CurrentCommand {
    /// Returns the exit status.
    public static func run(tool: String?, json: Bool, settings: Settings) -> Int32 {
        if let tool, !ToolName.isValid(tool) {
            Output.error(UsageError.message(ToolName.withSuggestion(ToolName.problem(Terminal.word(tool)), for: tool, store: settings.store), command: "current"))
            return UsageError.status
        }
        var tools: [CurrentTool]
        do { tools = try HotPath.resolve(settings: settings).rows } catch {
            Output.error(error.message)
            return 1
        }
        if let tool {
            let pinned = tools.map(\.tool)
            tools = tools.filter { $0.tool == tool }
            if tools.isEmpty {
                Output.error("\(tool) is not pinned for \(Paths.abbreviate(settings.cwd, home: settings.home)) (no tack.yml, version file, global manifest or \(ToolName.environmentVariable(tool)) pins it) — \(PinAdvice.notPinned(tool, pinned: pinned, store: settings.store))")
                return 1
            }
        }
        // One tool asked for, and it cannot run as pinned: exit 1, as `rbenv version-name`,
        // `pyenv version-name` and `asdf current TOOL` do (the output is the same).
        let status: Int32 = tool != nil && !tools.allSatisfy(\.isReady) ? 1 : 0
        if json {
            Output.out(renderJSON(tools) + "\n")
            return status
        }
        if tools.isEmpty {
            Output.error("no tools are pinned for \(Paths.abbreviate(settings.cwd, home: settings.home)) — add one with `tack use TOOL@VERSION`")
            return 0
        }
        Output.out(renderText(tools, single: tool != nil, home: settings.home))
        return status
    }


    /// What `run` prints (stdout, exit 0) for each argument form, for the snapshot; forms that
    /// print an error are left out.
    static func answers(_ rows: [CurrentTool], home: String?) -> [(key: String, output: String)] {
        var out: [(key: String, output: String)] = [("current --json", renderJSON(rows) + "\n")]
        if !rows.isEmpty { out.append(("current", renderText(rows, single: false, home: home))) }
        // Grouped once: filtering the rows for each tool was quadratic in the tools pinned.
        let byTool = Dictionary(grouping: rows, by: \.tool)
        for tool in byTool.keys.sorted() {
            let matching = byTool[tool] ?? []
            // Those exit 1: answered by the slow path, which says so.
            guard matching.allSatisfy(\.isReady) else { continue }
            out.append(("current \(tool)", renderText(matching, single: true, home: home)))
            out.append(("current \(tool) --json", renderJSON(matching) + "\n"))
        }
        return out
    }

    public static func renderJSON(_ tools: [CurrentTool]) -> String {
        JSON.array(tools.map { t in
            .object([
                ("tool", .string(t.tool)),
                ("requested", .string(t.requested)),
                ("version", t.version.map(JSON.string) ?? .null),
                ("backend", .string(t.backend)),
                ("source", .string(t.source)),
                ("line", t.line.map(JSON.int) ?? .null),
                ("installed", .bool(t.installed)),
            ])
        }).serialized()
    }

    /// `0.57.0 (set by ~/app/tack.yml:2)` for one tool; a table for all.
    public static func renderText(_ tools: [CurrentTool], single: Bool, home: String?) -> String {
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
        let nameWidth = tools.map(\.tool.count).max() ?? 0
        let rows = tools.map { ($0.tool, describe($0)) }
        let versionWidth = rows.map(\.1.0.count).max() ?? 0
        var out = ""
        for (name, (v, rest)) in rows {
            out += name + String(repeating: " ", count: nameWidth - name.count + 2)
            out += v + String(repeating: " ", count: versionWidth - v.count + 2) + rest + "\n"
        }
        return out
    }
}
