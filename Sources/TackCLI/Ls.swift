import ArgumentParser
import TackCore
import TackFront

struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List installed tools and versions.",
        discussion: """
            Examples:
              tack ls                   every installed version
              tack ls swiftlint         the versions of one tool
              tack ls --json            [{"tool":"swiftlint","version":"0.57.0","path":"…"}]
            """
    )

    @Argument(help: "List only this tool.")
    var tool: String?

    @Flag(help: "Print a JSON array: tool, version, path.")
    var json = false

    func validate() throws {
        if let tool, !ToolName.isValid(tool) { throw ValidationError(ToolName.problem(tool)) }
    }

    func run() throws {
        let settings = try processSettings()
        let store: Store
        do { store = try settings.requireStore() } catch { throw fail(error) }
        let tools = tool.map { [$0] } ?? store.installedTools()
        var rows: [(String, String, String)] = []
        for t in tools {
            for v in store.installedVersions(t) where store.installedEntry(t, v) != nil {
                rows.append((t, v.text, store.installDirectory(t, v)))
            }
        }
        if json {
            Output.out(JSON.array(rows.map { .object([("tool", .string($0.0)), ("version", .string($0.1)), ("path", .string($0.2))]) }).serialized() + "\n")
            return
        }
        if rows.isEmpty {
            Output.err(tool.map { "\($0) is not installed\n" } ?? "no tools are installed\n")
            return
        }
        Output.out(renderTable(rows.map { [$0.0, $0.1, Paths.abbreviate($0.2, home: settings.home)] }))
    }
}

struct LsRemote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls-remote",
        abstract: "List the versions of a tool that can be installed, oldest first.",
        discussion: "The tool's source comes from where it is pinned here."
    )

    @Argument(help: "The tool.")
    var tool: String

    @Flag(help: "Print a JSON array of version strings.")
    var json = false

    func validate() throws {
        if !ToolName.isValid(tool) { throw ValidationError(ToolName.problem(tool)) }
    }

    func run() async throws {
        let project = try Project.current()
        guard let pin = project.resolution.pin(tool) else {
            throw fail(TackError("\(tool) is not pinned here, so tack does not know its source — pin it in tack.yml first"))
        }
        let versions: [AvailableVersion]
        do { versions = try await project.registry.backend(for: pin.request).versions(of: pin.request) } catch { throw fail(error) }
        if json {
            Output.out(JSON.array(versions.map { .string($0.version.text) }).serialized() + "\n")
        } else {
            Output.out(versions.map { $0.version.text + "\n" }.joined())
        }
    }
}
