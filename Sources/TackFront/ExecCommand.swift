#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// `tack exec [--frozen] [--] COMMAND [ARGS...]` when everything pinned here is installed:
/// the bin directories first on PATH, the trusted env exported, then the command replaces
/// this process. Anything else (tools to install, `tool@version` overrides, errors, help)
/// goes to tack-cli.
enum ExecCommand {
    /// `arguments` is the whole argv; `start` the index of the first word after `exec`.
    /// Returns only when tack-cli must handle it.
    static func run(_ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int, start: Int) {
        var i = start
        if i < count, strcmp(arguments[i]!, "--frozen") == 0 { i += 1 }
        if i < count, strcmp(arguments[i]!, "--") == 0 { i += 1 }
        guard i < count, let program = arguments[i], program[0] != CChar(UInt8(ascii: "-")) else { return }
        // `tool@version` before a later `--` is for tack-cli.
        for j in i..<count where strcmp(arguments[j]!, "--") == 0 { return }

        let context = LeanContext.current()
        var snapshot = context.flatMap { c in c.snapshotPath().flatMap { LeanSnapshot.load(path: $0, context: c) } }
        var shims = context.map(LeanRun.shims) ?? []
        if snapshot == nil {
            guard let settings = CurrentProcess.settings(relevantOnly: true),
                  let s = try? HotPath.snapshot(settings: settings) else { return }
            snapshot = HotPath.lean(s)
            shims = Array((settings.store?.shims ?? "/nonexistent").utf8) + [0]
        }
        guard let snapshot, !snapshot.hasMissing else { return }
        LeanRun.apply(snapshot, warn: HotPath.warnUntrusted)
        let executable: [UInt8]
        if strchr(program, Int32(UInt8(ascii: "/"))) != nil {
            executable = LeanRun.bytes(UnsafePointer(program))
        } else if let found = LeanRun.searchPath(program, path: getenv("PATH"), shims: shims) {
            executable = found
        } else {
            Output.error("\(String(cString: program)): command not found")
            exit(127)
        }
        LeanRun.exec(executable, name: program, arguments: arguments + i)
    }
}
