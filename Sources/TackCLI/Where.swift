import ArgumentParser
import TackCore

struct Where: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the directory an installed version of a tool lives in.",
        discussion: """
            Without a version: the version pinned here, else the newest installed one. With \
            one (an exact version or a requirement): the newest installed version it allows. \
            Exits 1 when that version is not installed.

            Examples:
              tack where jq                 ~/.local/share/tack/installs/jq/1.7.1
              tack where swiftlint@0.57.0
            """
    )

    @Argument(help: "tool or tool@version.", completion: ToolArgument.completion)
    var target: ToolArgument

    func validate() throws {
        try target.check()
    }

    func run() throws {
        let settings = try processSettings()
        let store: Store
        do { store = try settings.requireStore() } catch { throw fail(error) }
        let tool = target.name
        let installed = store.installedVersions(tool).filter { store.installedEntry(tool, $0) != nil }
        let version: Version
        if let requirement = target.requirement {
            guard let best = requirement.best(of: installed) else {
                throw fail(TackError("no installed version of \(tool) satisfies \(requirement)\(Self.listing(installed)) — \(Self.installAdvice(tool, requirement.description, settings: settings))"))
            }
            version = best
        } else if let row = try pinnedRow(tool, settings: settings) {
            guard let text = row.version, let v = Version(word: text), row.installed else {
                throw fail(TackError.notInstalled(row.tool, row.version ?? row.requested, setBy: row.origin.describe(home: settings.home)))
            }
            // The build that runs here: the version's own directory or a variant of it.
            if let dir = row.installDirectory {
                Output.out(dir + "\n")
                return
            }
            version = v
        } else if let newest = installed.last {
            version = newest
        } else {
            throw fail(TackError("\(tool) is not installed — \(Self.installAdvice(tool, "VERSION", settings: settings))"))
        }
        Output.out(store.installDirectory(tool, version) + "\n")
    }

    /// How to install a version without pinning it (`where` changes no pin, and neither does
    /// what it suggests): `tack install` where the tool's source is known here, else how to pin it.
    static func installAdvice(_ tool: String, _ requirement: String, settings: Settings) -> String {
        let pinnedHere = ((try? Resolver(settings).resolve())?.pin(tool)) != nil
        guard pinnedHere || PinAdvice.registryKnows(tool, store: settings.store) else {
            return PinAdvice.pin(tool, registryKnows: false)
        }
        return "install one without pinning it: `tack install \(ShellQuote.posixIfNeeded("\(tool)@\(requirement)"))`"
    }

    /// The tool as pinned here, when it is (and tack installs it: not `system` or `path:`).
    func pinnedRow(_ tool: String, settings: Settings) throws -> CurrentTool? {
        do {
            let resolution = try Resolver(settings).resolve()
            guard let pin = resolution.pin(tool), pin.request.isLockable else { return nil }
            return try resolution.current(settings: settings).first { $0.tool == tool }
        } catch { throw fail(error) }
    }

    static func listing(_ versions: [Version]) -> String {
        versions.isEmpty ? " (none is installed)" : " (installed: \(versions.map(\.text).joined(separator: ", ")))"
    }
}
