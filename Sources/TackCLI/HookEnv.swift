import ArgumentParser
import TackCore
import TackFront

struct HookEnv: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hook-env",
        abstract: "Print the shell commands that bring PATH and env to this directory's pins (run by the hook).",
        discussion: "Run by the hook `tack activate` prints, at every prompt; prints nothing when nothing changed.",
        shouldDisplay: false
    )

    @Argument(help: "bash, zsh or fish.")
    var shell: ShellHook.Shell

    func run() throws {
        let status = HookEnvCommand.run(shell)
        if status != 0 { throw ExitCode(status) }
    }
}
