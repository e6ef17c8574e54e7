#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// `tack-front`: the hot commands' slow path, without Foundation. `tack` hands it what a
/// snapshot does not answer; it answers `current`, `which`, `exec`, `hook-env`, a no-op
/// `install` and shims itself (resolving, and writing a new snapshot) and hands everything else
/// (with `--help` for every command) to `tack-cli` by exec.
public enum Front {
    public static func main() -> Never {
        let argc = Int(CommandLine.argc)
        let argv = CommandLine.unsafeArgv
        // Called through a shim (a link named after a tool's command): run that command.
        if let zeroth = argv[0] {
            let slash = strrchr(zeroth, Int32(UInt8(ascii: "/")))
            let name = UnsafePointer(slash.map { $0 + 1 } ?? zeroth)
            if name[0] != 0 && strcmp(name, "tack") != 0 && strcmp(name, "tack-cli") != 0 && strcmp(name, "tack-shim") != 0
                && strcmp(name, "tack-front") != 0 {
                ShimCommand.run(name, arguments: argv)
            }
        }
        if argc >= 2, let first = argv[1] {
            if strcmp(first, "exec") == 0 {
                ExecCommand.run(argv, count: argc, start: 2)
            } else if strcmp(first, "hook-env") == 0, argc == 3, let shell = ShellHook.Shell(rawValue: String(cString: argv[2]!)) {
                exit(HookEnvCommand.run(shell))
            }
        }
        let arguments = CommandLine.arguments
        let args = Array(arguments.dropFirst())
        if let status = fastPath(args) { exit(status) }
        execFullCLI(arguments)
    }

    /// Handles the forms the front end knows exactly; nil means "let tack-cli do it".
    static func fastPath(_ args: [String]) -> Int32? {
        guard let command = args.first else { return nil }
        switch command {
        case "--version":
            guard args.count == 1 else { return nil }
            Output.out("tack \(TackVersion.current)\n")
            return 0
        case "current":
            var tool: String?
            var json = false
            for a in args.dropFirst() {
                if a == "--json" { json = true } else if !a.hasPrefix("-") && tool == nil { tool = a } else { return nil }
            }
            guard let settings = CurrentProcess.settings(relevantOnly: true) else {
                Output.error("cannot read the current directory; has it been removed?")
                return 1
            }
            return CurrentCommand.run(tool: tool, json: json, settings: settings)
        case "which":
            guard args.count == 2, !args[1].hasPrefix("-") else { return nil }
            guard let settings = CurrentProcess.settings(relevantOnly: true) else {
                Output.error("cannot read the current directory; has it been removed?")
                return 1
            }
            return WhichCommand.run(args[1], settings: settings)
        case "install":
            // A no-op install is answered here; anything to do goes to tack-cli.
            guard args.dropFirst().allSatisfy({ $0 == "--frozen" }), let settings = CurrentProcess.settings(relevantOnly: true),
                  let resolution = try? Resolver(settings).resolve(), !resolution.pins.isEmpty,
                  UpToDate.check(resolution, settings: settings)
            else { return nil }
            IgnoredFiles.report(resolution.ignored, settings: settings)
            return 0
        default:
            return nil
        }
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
