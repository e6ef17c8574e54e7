import ArgumentParser
import TackCore
import TackFront

struct Current: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the version of each tool pinned here, and the file that set it.",
        discussion: """
            Precedence, tool by tool: TACK_<TOOL>_VERSION in the environment; else the nearest \
            directory (walking up) that pins the tool, where tack.local.yml beats tack.yml beats \
            the compatible files (.tool-versions, .ruby-version, .python-version, .node-version, \
            .nvmrc, .swift-version, Mintfile, read as their own tools read them); else the \
            global manifest; else ~/.tool-versions.

            With a tool, exits 1 when its pinned version is not installed or not resolved yet \
            (system and path: pins are not checked).

            Examples:
              tack current              every pinned tool
              tack current swiftlint    0.57.0 (set by ~/app/tack.yml:2)
              tack current --json       [{"tool":"swiftlint","requested":"0.57.0",...}]
            """
    )

    @Argument(help: "Show only this tool.", completion: ToolArgument.completion)
    var tool: String?

    func validate() throws {
        if let tool { try ToolArgument(argument: tool).check(allowingRequirement: false) }
    }

    @Flag(help: "Print a JSON array: tool, requested, version, backend, source, line, installed.")
    var json = false

    func run() throws {
        let status = CurrentCommand.run(tool: tool, json: json, settings: try processSettings())
        if status != 0 { throw ExitCode(status) }
    }
}
