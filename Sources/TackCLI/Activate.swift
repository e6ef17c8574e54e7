import ArgumentParser
import TackCore
import TackFront

struct Activate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the shell hook that switches PATH and env as you cd.",
        discussion: """
            Add one line to your shell's start-up file. At every prompt the hook runs \
            `tack hook-env`, which prints nothing when nothing changed; entering a project puts \
            its tools' bin directories first on PATH and exports its env (trusted manifests \
            only), and leaving it restores exactly what was there before.

            Examples:
              echo 'eval "$(tack activate bash)"' >> ~/.bashrc
              echo 'eval "$(tack activate zsh)"' >> ~/.zshrc
              echo 'tack activate fish | source' >> ~/.config/fish/config.fish
            """
    )

    @Argument(help: "bash, zsh or fish.")
    var shell: ShellHook.Shell

    func run() throws {
        guard let tack = Front.launcherPath() else {
            throw fail(TackError("cannot find the tack executable to put in the hook — reinstall tack with ./bootstrap.sh"))
        }
        Output.out(ShellHook.activation(shell, tack: tack))
    }
}

extension ShellHook.Shell: ExpressibleByArgument {}
