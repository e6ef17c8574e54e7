#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// `tack exec [--frozen] [--] COMMAND [ARGS...]` (`HotCommand.exec`) when everything pinned
/// here is installed (and, frozen, locked exactly as pinned: `UpToDate`): the bin directories
/// first on PATH, the trusted env exported, then the command replaces this process. Anything
/// else (tools to install, errors, a lock that differs from the pins) goes to tack-cli.
enum ExecCommand {
    /// `command` points at COMMAND in argv, followed by its arguments. Returns only when
    /// tack-cli must handle it.
    static func run(_ command: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, frozen: Bool) {
        let context = LeanContext.current()
        var snapshot = context.flatMap { c in c.snapshotPath().flatMap { LeanSnapshot.load(path: $0, context: c) } }
        var shims = context.map(LeanRun.shims) ?? []
        if snapshot == nil {
            guard let settings = CurrentProcess.settings(relevantOnly: true),
                  let s = try? HotPath.snapshot(settings: settings, stale: context?.snapshotPath() != nil) else { return }
            snapshot = HotPath.lean(s)
            shims = Array((settings.store?.shims ?? "/nonexistent").utf8) + [0]
        }
        guard let snapshot, !snapshot.hasMissing, !frozen || snapshot.isUpToDate else { return }
        LeanRun.runCommand(snapshot, shims: shims, arguments: command, warn: HotPath.warnUntrusted)
    }
}
