import ArgumentParser
import TackCore
import TackKit

struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove one installed version of a tool.",
        discussion: "Example: tack uninstall swiftlint@0.54.1"
    )

    @Argument(help: "tool@version", completion: ToolArgument.completion)
    var target: String

    func validate() throws {
        _ = try parsed()
    }

    func parsed() throws -> (String, Version) {
        let arg = try ToolArgument.parse(target)
        let parts = target.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, let version = Version(word: parts[1]), version.text == parts[1] else {
            throw ValidationError("\(ToolArgument.shown(target)) names no exact version — write tool@version, like \(arg.name)@0.54.1 (`tack ls \(arg.name)` lists what is installed)")
        }
        return (arg.name, version)
    }

    func run() throws {
        let (tool, version) = try parsed()
        let settings = try processSettings()
        do { try UninstallService(.cli(settings)).uninstall(tool, version) } catch { throw fail(error) }
        Output.err("uninstalled \(tool) \(version)\n")
    }
}
