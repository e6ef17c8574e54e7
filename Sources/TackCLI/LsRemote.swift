import ArgumentParser
import TackCore
import TackKit

struct LsRemote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls-remote",
        abstract: "List the versions of a tool that can be installed, oldest first.",
        discussion: """
            The tool's source is where it is pinned here; a tool pinned nowhere can be named \
            as the registry names it (node, jq), as a git URL, or as a GitHub owner/repo. A \
            PREFIX keeps the versions whose text starts with it.

            Examples:
              tack ls-remote node 20            20.0.0 … 20.18.1
              tack ls-remote apple/swift-format
              tack ls-remote https://github.com/realm/SwiftLint.git --json   [{"version":"0.57.0"},…]
              tack ls-remote swift 6.2 --sdks    6.2.1  static-linux wasm
            """
    )

    @Argument(help: "A tool pinned here or in the registry, a git URL, or owner/repo.")
    var tool: String

    @Argument(help: "Only versions starting with this.")
    var prefix: String?

    @Flag(help: "Print a JSON array of objects: version (and lts where the index says).")
    var json = false

    @Flag(help: "For swift: development snapshots, of main or of the branch PREFIX names (6.0), instead of releases.")
    var snapshots = false

    @Flag(help: "For swift: the releases that publish Swift SDKs, each with the SDKs `sdks:` can pin (static-linux, wasm).")
    var sdks = false

    func validate() throws {
        _ = try RemoteTool.request(tool)
        if let prefix, prefix.contains(where: { $0.isWhitespace || $0.isControl }) {
            throw ValidationError("`\(prefix)` is not a version prefix")
        }
    }

    func run() async throws {
        let project = try Workspace.current()
        var request: ToolRequest
        if let pin = project.resolution.pin(tool) { request = pin.request } else { request = try RemoteTool.request(tool) }
        request = try ToolRegistry.load(store: project.settings.store, backends: project.settings.backends).apply(request)
        if case .registry = request.source, let (_, source) = try await CatalogService(project.context).lookUp(tool, workspace: project) {
            request.source = source
        }
        if request.source.kind?.isSwiftToolchain == true {
            // Releases, or one branch's snapshots: `main-snapshot`, or the prefix's `6.0-snapshot`.
            request.requirement = .latest
            if snapshots {
                var branch = "main"
                if let prefix, let v = Version(SwiftToolchain.normalize(prefix)) { branch = v.release.prefix(2).joined(separator: ".") }
                if let series = Version(word: branch + "-snapshot") { request.requirement = .prefix(series) }
            }
            if snapshots && sdks { throw ValidationError("--sdks lists releases; snapshots publish their SDKs elsewhere") }
        } else if snapshots || sdks {
            throw ValidationError("--\(snapshots ? "snapshots" : "sdks") is for swift; \(tool) has no \(snapshots ? "snapshots" : "Swift SDKs")")
        }
        var versions: [AvailableVersion]
        do { versions = try await project.registry.backend(for: request).available(of: request) } catch { throw fail(error) }
        if let prefix { versions = versions.filter { $0.version.text.hasPrefix(prefix) } }
        if sdks {
            versions = versions.filter { !$0.sdks.isEmpty }
            if json {
                Output.out(JSON.array(versions.map { v in
                    .object([("version", .string(v.version.text)), ("sdks", .array(v.sdks.map { .string($0) }))])
                }).serialized() + "\n")
            } else {
                Output.out(versions.map { "\($0.version.text)  \($0.sdks.joined(separator: " "))\n" }.joined())
            }
            return
        }
        if json {
            Output.out(JSON.array(versions.map { v in
                .object([("version", .string(v.version.text))] + (v.lts.map { [("lts", JSON.string($0))] } ?? []))
            }).serialized() + "\n")
        } else {
            Output.out(versions.map { $0.version.text + "\n" }.joined())
        }
    }
}
