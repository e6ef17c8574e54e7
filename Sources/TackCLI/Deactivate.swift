import ArgumentParser
import TackCore

struct Deactivate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Undo `tack activate` in this shell: the hook goes, PATH and env go back.",
        discussion: """
            In a shell where `tack activate` ran, `tack deactivate` is all it takes (the hook \
            defines a `tack` function that applies it). Elsewhere it prints the commands for \
            the shell to run:
              eval "$(tack deactivate bash)"
            """
    )

    @Argument(help: "bash, zsh or fish (default: the one in $SHELL, else bash).")
    var shell: ShellHook.Shell?

    func run() throws {
        let settings = try processSettings()
        let shell = self.shell ?? Env.loginShell(settings)
        if CurrentProcess.isTerminal(1) {
            Output.err("tack: these commands undo the hook only when the shell runs them — in a shell where `tack activate` ran, `tack deactivate` does; elsewhere: eval \"$(tack deactivate \(shell.rawValue))\"\n")
        }
        Output.out(ShellHook.deactivation(shell, environment: settings.environment, home: settings.home))
    }
}
