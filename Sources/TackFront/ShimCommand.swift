#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore

/// What a shim does: run the command from the tool pinned here, or the next one on PATH
/// outside the shims directory (never a shim again), or say what is wrong.
public enum ShimCommand {
    public static func run(_ command: String, arguments: [String]) -> Never {
        guard let settings = CurrentProcess.settings(relevantOnly: true) else {
            Output.error("cannot read the current directory; has it been removed?")
            exit(1)
        }
        let hot: (rows: [CurrentTool], pathRoots: [String: String])
        do { hot = try HotPath.resolve(settings: settings) } catch {
            Output.error(error.message)
            exit(1)
        }
        switch Which.find(command, rows: hot.rows, pathRoots: hot.pathRoots, settings: settings) {
        case .found(let path, _):
            var argv: [UnsafeMutablePointer<CChar>?] = ([command] + arguments.dropFirst()).map { strdup($0) }
            argv.append(nil)
            execv(path, argv)
            Output.error("cannot run \(path): \(String(cString: strerror(errno)))")
            exit(126)
        case .notInstalled(let tool, let version, let setBy):
            Output.error("\(tool) \(version) is not installed (set by \(setBy)) — run `tack install`")
            exit(127)
        case .notFound(let elsewhere):
            var message = "\(command): command not found"
            if !elsewhere.isEmpty { message += "; the `\(command)` command exists in these installed tools: \(elsewhere.joined(separator: ", ")) — pin one with `tack use`" }
            Output.error(message)
            exit(127)
        }
    }
}
