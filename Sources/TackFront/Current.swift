import TackCore

/// `tack current [tool] [--json]`: shared by the fast front end and `tack-cli`, so both print
/// the same thing (`CurrentReport`, which the snapshot also stores).
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
            Output.out(CurrentReport.json(tools) + "\n")
            return status
        }
        if tools.isEmpty {
            Output.error("no tools are pinned for \(Paths.abbreviate(settings.cwd, home: settings.home)) — add one with `tack use TOOL@VERSION`")
            return 0
        }
        Output.out(CurrentReport.text(tools, single: tool != nil, home: settings.home))
        return status
    }
}
