#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// What a shim does: run the command from the tool pinned here (with that tool's bin
/// directories first on PATH and the project's trusted env, as `tack exec`), or the next one on
/// PATH outside the shims directory (never a shim again, and untouched), or say what is wrong.
public enum ShimCommand {
    public static func run(_ command: UnsafePointer<CChar>, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        // The hot path: a snapshot that still holds.
        var stale = false
        if let context = LeanContext.current(), let path = context.snapshotPath() {
            if let snapshot = LeanSnapshot.load(path: path, context: context) {
                LeanRun.runShim(snapshot, shims: LeanRun.shims(context), name: command, arguments: arguments, warn: HotPath.warnUntrusted)
            } else {
                stale = true
            }
        }
        slowPath(command, arguments: arguments, stale: stale)
    }

    /// Resolves (writing a new snapshot), then runs the command or explains why it cannot.
    /// `stale`: the snapshot was just found not to hold, so it is not checked again.
    static func slowPath(_ command: UnsafePointer<CChar>, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, stale: Bool) -> Never {
        guard let settings = CurrentProcess.settings(relevantOnly: true) else {
            Output.error(TackError.noWorkingDirectory.message)
            exit(1)
        }
        let snapshot: Snapshot
        do { snapshot = try HotPath.snapshot(settings: settings, stale: stale) } catch {
            Output.error(error.message)
            exit(1)
        }
        if let lean = HotPath.lean(snapshot), !lean.isMissing(command) {
            LeanRun.runPinned(lean, name: command, arguments: arguments, warn: HotPath.warnUntrusted)
        }
        let name = String(cString: command)
        switch CommandSearch.find(name, rows: snapshot.rows, pathRoots: snapshot.pathRoots, settings: settings) {
        case .found(let path, let tool):
            if tool == nil { LeanRun.execFallback(Array(path.utf8) + [0], name: command, arguments: arguments) }
            LeanRun.exec(Array(path.utf8) + [0], name: command, arguments: arguments)
        case .notInstalled(let tool, let version, let setBy):
            Output.error(TackError.notInstalled(tool, version, setBy: setBy).message)
            exit(127)
        case .notFound(let elsewhere):
            // A `path:` pin left out for want of trust may be what would have provided it.
            RunEnvironment.untrustedWarningsToSay(snapshot.run.untrusted, settings: settings).forEach(Output.error)
            Output.error(CommandSearch.notFoundMessage(name, elsewhere: elsewhere))
            exit(127)
        }
    }
}
