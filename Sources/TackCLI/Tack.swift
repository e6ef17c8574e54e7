import ArgumentParser
import TackCore
import TackFront

/// The root command of `tack-cli`, which `tack` execs for everything it does not answer itself.
public struct Tack: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tack",
        abstract: "Pin developer tools to a directory.",
        discussion: """
            A project lists its tools in tack.yml; tack resolves them into tack.lock, installs \
            exactly those versions and runs them per directory.
            """,
        version: "tack \(TackVersion.current)",
        subcommands: [
            Install.self, Use.self, Lock.self, Update.self, Outdated.self, Current.self, Which.self, Ls.self, LsRemote.self,
            Exec.self, Uninstall.self, Prune.self, Reshim.self, Activate.self, HookEnv.self, Registry.self, Trust.self, Bootstrap.self, New.self, Doctor.self,
        ]
    )

    public init() {}

    /// Parses the arguments and runs the command, awaiting async ones. (Called explicitly:
    /// from top-level code Swift picks ParsableCommand's synchronous `main()`.)
    public static func runFromCommandLine() async {
        _ = StartState.captured
        OutputCheck.install()
        Interrupts.install { CurrentProcess.settings(relevantOnly: true)?.store }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// The process's settings, or a clear error when the working directory is gone.
func processSettings() throws -> Settings {
    guard let settings = CurrentProcess.settings() else {
        Output.error("cannot read the current directory; has it been removed?")
        throw ExitCode(1)
    }
    return settings
}
