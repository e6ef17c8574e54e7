#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// `tack hook-env SHELL`, run by the shell hook at every prompt: prints nothing when nothing
/// changed (the snapshot still holds and its digest is the one applied), else the commands
/// that bring PATH and env to what this directory asks for.
public enum HookEnvCommand {
    public static func run(_ shell: ShellHook.Shell) -> Int32 {
        // Found not to hold here, the snapshot is not read and checked a second time.
        var stale = false
        if let context = LeanContext.current(), let path = context.snapshotPath() {
            let snapshot = LeanSnapshot.load(path: path, context: context)
            stale = snapshot == nil
            if let digest = snapshot?.digest {
                let ours = digest.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
                if ours == CurrentProcess.variable(ShellHook.digestVariable) ?? ShellHook.emptyDigest { return 0 }
            }
        }
        guard let settings = CurrentProcess.settings() else {
            Output.error(TackError.noWorkingDirectory.message)
            return 1
        }
        var run: RunEnvironment?
        var failure: String?
        do { run = try HotPath.snapshot(settings: settings, stale: stale).run } catch { failure = error.message }
        // A resolution error is said once: the shell keeps its fingerprint until it changes or
        // resolution works again.
        let shownError = settings.environment[ShellHook.errorVariable]
        var errorLine = ""
        if let failure {
            let key = ShellHook.errorKey(failure)
            if key != shownError {
                Output.error(failure)
                errorLine = ShellHook.line(shell, ShellHook.errorVariable, key)
            }
        } else if shownError != nil {
            errorLine = ShellHook.line(shell, ShellHook.errorVariable, nil)
        }
        // Resolved again (the snapshot was stale, or could not be saved) to what is applied
        // already: nothing to print, not even the warnings the shell saw when it was applied.
        if let run, run.digest == settings.environment[ShellHook.digestVariable] ?? ShellHook.emptyDigest {
            Output.out(errorLine)
            return 0
        }
        let update = ShellHook.update(shell, run: run, environment: settings.environment, home: settings.home)
        for w in update.warnings { Output.error(w) }
        Output.out(update.script + errorLine)
        return 0
    }
}
