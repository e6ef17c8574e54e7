#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// `tack-front`: the hot commands' slow path, without Foundation. `tack` hands it what a
/// snapshot does not answer; it answers `HotCommand`'s forms itself (resolving, and writing a
/// new snapshot) and hands everything else — with every `--help` — to `tack-cli` by exec.
public enum Front {
    public static func main() -> Never {
        let argv = CommandLine.unsafeArgv
        switch HotCommand.classify(argc: Int(CommandLine.argc), argv: argv) {
        case .shim(let name):
            ShimCommand.run(name, arguments: argv)
        case .exec(let frozen, let command):
            ExecCommand.run(argv + command, frozen: frozen || LeanContext.isFrozenByEnvironment)
        case .which(let command):
            exit(withSettings { WhichCommand.run(String(cString: command), settings: $0) })
        case .current(let tool, let json):
            exit(withSettings { CurrentCommand.run(tool: tool.map { String(cString: $0) }, json: json, settings: $0) })
        case .install:
            if noOpInstall() { exit(0) }
        case .hookEnv(let shell):
            if let shell = ShellHook.Shell(rawValue: String(cString: shell)) { exit(HookEnvCommand.run(shell)) }
        case .full:
            break
        }
        execFullCLI(CommandLine.arguments)
    }

    /// The status of `body` run with the process's settings, or 1 (said) without a directory.
    static func withSettings(_ body: (Settings) -> Int32) -> Int32 {
        guard let settings = CurrentProcess.settings(relevantOnly: true) else {
            Output.error(TackError.noWorkingDirectory.message)
            return 1
        }
        return body(settings)
    }

    /// `tack install [--frozen]` when everything pinned here is installed and locked as pinned
    /// (and the warnings about ignored files are said); anything to do is tack-cli's. The
    /// snapshot this resolves is saved either way, so what follows starts from it.
    static func noOpInstall() -> Bool {
        guard let settings = CurrentProcess.settings(relevantOnly: true) else { return false }
        if let snapshot = Snapshot.load(settings: settings) { return snapshot.upToDate }
        guard let (snapshot, ignored) = try? HotPath.make(settings: settings) else { return false }
        snapshot.save(settings: settings)
        guard snapshot.upToDate else { return false }
        IgnoredFiles.report(ignored, settings: settings)
        return true
    }

    /// The `tack` executable, which shims link to and the prompt hook runs: this binary's
    /// sibling in a build directory, or `../../bin/tack` from `libexec/tack` in an installation.
    public static func launcherPath() -> String? {
        guard let exe = CurrentProcess.executablePath() else { return nil }
        if Paths.basename(exe) == "tack" { return exe }
        let dir = Paths.dirname(exe)
        for candidate in [dir + "/tack", Paths.normalize(dir + "/../../bin/tack")] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// Where tack-cli lives: beside this binary (a build directory), or in
    /// `../libexec/tack/` (an installation by bootstrap.sh).
    public static func fullCLICandidates() -> [String] {
        guard let exe = CurrentProcess.executablePath() else { return [] }
        let dir = Paths.dirname(exe)
        return [dir + "/tack-cli", Paths.normalize(dir + "/../libexec/tack/tack-cli")]
    }

    static func execFullCLI(_ arguments: [String]) -> Never {
        let candidates = fullCLICandidates()
        for path in candidates where access(path, X_OK) == 0 {
            var argv: [UnsafeMutablePointer<CChar>?] = (["tack"] + arguments.dropFirst()).map { strdup($0) }
            argv.append(nil)
            execv(path, argv)
            Output.error("cannot run \(path): \(String(cString: strerror(errno)))")
            exit(126)
        }
        Output.error("tack-cli is missing (looked for \(candidates.joined(separator: " and "))) — reinstall tack with ./bootstrap.sh")
        exit(127)
    }
}
