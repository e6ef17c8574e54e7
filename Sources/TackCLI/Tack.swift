#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Backends
import TackCore
import TackKit
import TackFront

/// The root command of `tack-cli`, which `tack` execs for everything it does not answer itself
/// (`HotCommand` is that table).
public struct Tack: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tack",
        abstract: "Pin developer tools to a directory.",
        discussion: """
            A project lists its tools in tack.yml; tack resolves them into tack.lock, installs \
            exactly those versions and runs them per directory.

            Global options, before or after the command: -q/--quiet (only errors and what was \
            asked for; also TACK_QUIET=1), -v/--verbose (also each program run and URL fetched; \
            also TACK_VERBOSE=1).

            Exit status: 0 success; 1 failure; 2 a command line tack cannot read; from `exec` and \
            shims, the command's own status, or 126 (found, cannot run) and 127 (not found) as a \
            shell gives them.
            """,
        subcommands: [
            Install.self, Use.self, Lock.self, Update.self, Outdated.self, Current.self, Which.self, Where.self, Ls.self,
            LsRemote.self, Search.self, Verify.self, Mirror.self, Exec.self, Env.self, Uninstall.self, Prune.self, Reshim.self, Activate.self, Deactivate.self,
            HookEnv.self, Registry.self, Cache.self, Trust.self, Bootstrap.self, New.self, Doctor.self, Sbom.self, Completion.self, VersionCommand.self,
        ]
    )

    public init() {}

    /// Every command's name, hidden ones included.
    static var commandNames: [String] { configuration.subcommands.map { $0._commandName } }

    /// Parses the arguments and runs the command, awaiting async ones. (Called explicitly:
    /// from top-level code Swift picks ParsableCommand's synchronous `main()`.)
    public static func runFromCommandLine() async {
        _ = StartState.captured
        OutputCheck.install()
        Interrupts.install { CurrentProcess.settings(relevantOnly: true)?.store }
        exitProcess(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line in-process, as `tack-cli` would run it in a process of its own:
    /// `scope` is that process (environment, working directory, executable) and receives its
    /// output. The status is what the process would exit with. What only a process has —
    /// signals, a terminal, `exec` (so not `tack exec`) — is not here.
    public static func main(arguments: [String], scope: ProcessScope) async -> Int32 {
        await ProcessScope.$current.withValue(scope) { await run(arguments) }
    }

    /// Parses the arguments, runs the command and says what went wrong: the exit status.
    static func run(_ commandLine: [String]) async -> Int32 {
        let arguments = GlobalOptions.apply(commandLine)
        // `tack --version` (tack's own; left out of the configuration so that no subcommand's
        // help offers a --version of its own).
        if arguments == ["--version"] {
            Output.out("tack \(TackVersion.current)\n")
            return 0
        }
        if let problem = preflight(arguments) {
            Output.error(problem)
            return UsageError.status
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Interrupts.settled()
            refreshSnapshot(arguments)
            return 0
        } catch {
            refreshSnapshot(arguments)
            return await status(for: error, arguments: arguments)
        }
    }

    /// The commands that change what is pinned, locked, trusted or installed here.
    static let changingCommands: Set<String> = ["install", "use", "update", "uninstall", "trust", "prune", "lock", "bootstrap", "registry", "reshim"]

    /// After such a command (done or failed part way), a snapshot that holds for this
    /// directory, so the next shim or prompt takes the hot path (`HotPath.refresh`).
    static func refreshSnapshot(_ arguments: [String]) {
        guard !Interrupts.isStopping, let first = arguments.first, changingCommands.contains(first),
              !arguments.contains("--help"), !arguments.contains("-h"),
              let settings = CurrentProcess.settings(relevantOnly: true)
        else { return }
        HotPath.refresh(settings: settings)
    }

    /// What ArgumentParser would not say well: a word that is no command ("did you mean"), and
    /// `tack help` of one.
    static func preflight(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = commandNames
        if first == "help" {
            for word in arguments.dropFirst() where !word.hasPrefix("-") {
                if !names.contains(word) { return UsageError.unknownCommand(word, commands: names) }
                break
            }
            return nil
        }
        return names.contains(first) ? nil : UsageError.unknownCommand(first, commands: names)
    }

    /// The status for an error, said: help and `--version` to stdout; a command line tack
    /// cannot read as `tack: <what> — see tack CMD --help`, status 2; a failure already said,
    /// with its status.
    static func status(for error: any Error, arguments: [String]) async -> Int32 {
        if Interrupts.isStopping { Interrupts.park() }
        if let code = error as? ExitCode { return code.rawValue }
        let code = exitCode(for: error)
        if code == .success {
            var help = fullMessage(for: error)
            if let extra = await New.templateHelp(arguments) {
                while help.last == "\n" { help.removeLast() }
                help += "\n\n" + extra
            }
            if !help.isEmpty { Output.out(help + "\n") }
            return 0
        }
        let command = arguments.first.flatMap { commandNames.contains($0) ? $0 : nil }
        if code == .validationFailure {
            Output.error(UsageError.message(message(for: error), command: command))
            return UsageError.status
        }
        if let error = error as? TackError { ProcessScope.current?.failed(error) }
        Output.error(message(for: error))
        return 1
    }
}

/// The C library's `exit` (inside `Tack`, `exit` names ArgumentParser's).
func exitProcess(_ status: Int32) -> Never {
    if Interrupts.isStopping { Interrupts.park() }
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}

/// The process's settings, or a clear error when the working directory is gone.
func processSettings() throws -> Settings {
    guard let settings = CurrentProcess.settings() else {
        Output.error(TackError.noWorkingDirectory.message)
        throw ExitCode(1)
    }
    return settings
}
