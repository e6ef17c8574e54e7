import ArgumentParser
import TackCore
import TackKit

struct Update: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-resolve tools to the newest versions their requirements allow, and install them.",
        discussion: """
            Examples:
              tack update               every tool pinned here
              tack update swiftlint     one tool; the others keep their locked versions
            """
    )

    @Argument(help: "Update only these tools.", completion: ToolArgument.completion)
    var tools: [String] = []

    @OptionGroup var platform: PlatformOptions

    func validate() throws {
        for t in tools { try ToolArgument(argument: t).check(allowingRequirement: false) }
    }

    func run() async throws {
        let project = try Workspace.current(locking: true)
        if project.settings.isFrozen { throw fail(TackError("TACK_FROZEN is set, which forbids changing tack.lock")) }
        for t in tools where project.resolution.pin(t) == nil {
            throw fail(TackError("\(t) is not pinned here — \(PinAdvice.notPinned(t, pinned: project.resolution.pins.map(\.request.name), store: project.store))"))
        }
        var options = InstallOptions(project.context)
        options.platforms = platform.platforms
        options.update = tools.isEmpty ? .all : .only(Set(tools))
        if !tools.isEmpty { options.only = Set(tools) }
        let status = await InstallService(project, options: options).run().status
        if status != 0 { throw ExitCode(status) }
    }
}
