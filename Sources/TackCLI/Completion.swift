import ArgumentParser
import TackCore

struct Completion: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the shell completion script for tack.",
        discussion: """
            Examples:
              tack completion bash > ~/.local/share/bash-completion/completions/tack
              tack completion zsh > "${fpath[1]}/_tack"
              tack completion fish > ~/.config/fish/completions/tack.fish
            """
    )

    @Argument(help: "bash, zsh or fish.")
    var shell: ShellHook.Shell

    func run() throws {
        let kind: CompletionShell
        switch shell {
        case .bash: kind = .bash
        case .zsh: kind = .zsh
        case .fish: kind = .fish
        }
        Output.out(Tack.completionScript(for: kind))
    }
}
