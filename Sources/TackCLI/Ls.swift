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
