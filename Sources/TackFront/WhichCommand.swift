import TackCore

/// `tack which COMMAND`: shared by the fast front end and `tack-cli`.
public enum WhichCommand {
    public static func run(_ command: String, settings: Settings) -> Int32 {
        guard ToolName.isValidBinaryName(command) else {
            Output.error(UsageError.message("`\(command)` is not a command name", command: "which"))
            return UsageError.status
        }
        let hot: (rows: [CurrentTool], pathRoots: [String: String])
        do { hot = try HotPath.resolve(settings: settings) } catch {
            Output.error(error.message)
            return 1
        }
        switch CommandSearch.find(command, rows: hot.rows, pathRoots: hot.pathRoots, settings: settings) {
        case .found(let path, _):
            Output.out(path + "\n")
            return 0
        case .notInstalled(let tool, let version, let setBy):
            Output.error(TackError.notInstalled(tool, version, setBy: setBy).message)
            return 1
        case .notFound(let elsewhere):
            Output.error(CommandSearch.notFoundMessage(command, elsewhere: elsewhere))
            return 127
        }
    }
}
