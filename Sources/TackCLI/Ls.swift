import ArgumentParser
import TackCore
import TackKit

struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List installed tools and versions.",
        discussion: """
            The version that runs here (pinned for this directory and installed) is marked \
            with `*`, as `rbenv versions` marks it.

            Examples:
              tack ls                   every installed version
              tack ls swiftlint         the versions of one tool
              tack ls --json            [{"tool":"swiftlint","version":"0.57.0","path":"…","from":"prebuilt"}]
            """
    )

    @Argument(help: "List only this tool.", completion: ToolArgument.completion)
    var tool: String?

    @Flag(help: "Print a JSON array: tool, version, path, and where it came from (prebuilt, team-cache, or built, with build_seconds).")
    var json = false

    func validate() throws {
        if let tool { try ToolArgument(argument: tool).check(allowingRequirement: false) }
    }

    func run() throws {
        let settings = try processSettings()
        let store: Store
        do { store = try settings.requireStore() } catch { throw fail(error) }
        let tools = tool.map { [$0] } ?? store.installedTools()
        var rows: [(String, String, String)] = []
        var origins: [String: InstallOrigin] = [:]
        for t in tools {
            for v in store.installedVersions(t) {
                for build in store.installs(t, v) {
                    rows.append((t, v.text, build.directory))
                    origins[build.directory] = InstallOrigin(record: build.record.built)
                }
            }
        }
        if json {
            Output.out(JSON.array(rows.map { row in
                var fields: [(String, JSON)] = [("tool", .string(row.0)), ("version", .string(row.1)), ("path", .string(row.2))]
                // Where it came from, for installs made since tack keeps it.
                if let origin = origins[row.2] {
                    fields.append(("from", .string(origin.word)))
                    if case .builtHere(let seconds) = origin { fields.append(("build_seconds", .number(seconds))) }
                }
                return .object(fields)
            }).serialized() + "\n")
            return
        }
        if rows.isEmpty {
            if let tool {
                let problem = ToolName.withSuggestion("\(tool) is not installed", for: tool, store: store)
                throw fail(TackError(problem.contains(" — ") ? problem : problem + " — `tack install \(tool)@VERSION` installs a version"))
            }
            Output.err("no tools are installed\n")
            return
        }
        // What runs here: each pinned tool's version, where that install is the one in use.
        var active: Set<String> = []
        if let resolution = try? Resolver(settings).resolve(), let current = try? resolution.current(settings: settings) {
            for t in current where t.installed { if let dir = t.installDirectory { active.insert(dir) } }
        }
        Output.out(renderTable(rows.map { [active.contains($0.2) ? "*" : " ", $0.0, $0.1, Paths.abbreviate($0.2, home: settings.home)] }))
    }
}

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
        request = try ToolRegistry.load(store: project.settings.store).apply(request)
        if case .swift = request.source {
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
