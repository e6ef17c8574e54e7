import ArgumentParser
import TackFront

struct Which: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the full path of the executable a command runs here.",
        discussion: """
            The pinned tool that provides the command, else the next one on PATH outside tack's \
            shims. Exits 127 when there is none, naming the installed tools that have it.

            Example: tack which swiftlint
            """
    )

    @Argument(help: "The command name.")
    var command: String

    func run() throws {
        let status = WhichCommand.run(command, settings: try processSettings())
        if status != 0 { throw ExitCode(status) }
    }
}
