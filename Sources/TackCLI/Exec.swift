import ArgumentParser
import Backends
import Foundation
import TackCore
import TackKit

struct Exec: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command with the pinned tools first on PATH and the project's env set.",
        discussion: """
            Installs what is missing first (unless --frozen, TACK_FROZEN or TACK_OFFLINE forbids \
            it), puts each pinned tool's bin directory first on PATH, exports the `env` of trusted \
            manifests, and replaces itself with the command: exit status, signals, stdin, stdout \
            and stderr pass through untouched.

            Examples:
              tack exec -- swiftlint --version
              tack exec swiftlint@0.55.0 -- swiftlint lint
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "[tool@version...] -- command [args...]")
    var words: [String] = []

    @OptionGroup var frozenOption: FrozenOption

    /// What the words say: `tool@version` overrides, then the command and its arguments.
    struct Invocation: Equatable {
        var frozen: Bool
        var overrides: [ToolArgument]
        var command: [String]
    }

    /// Reads the words as `HotCommand` does for the forms it answers: `[--frozen] [--]
    /// COMMAND...`, or `tool@version... -- COMMAND...`.
    func invocation() throws -> Invocation {
        var words = self.words
        var frozen = frozenOption.frozen
        if words.first == "--frozen" {  // captured with the rest: `tack exec --frozen cmd`
            frozen = true
            words.removeFirst()
        }
        var overrides: [ToolArgument] = []
        var command = words
        if let dash = words.firstIndex(of: "--") {
            for w in words[..<dash] {
                let o = try ToolArgument.parse(w)
                guard o.requirement != nil else { throw ValidationError("say which version: \(o.name)@VERSION") }
                overrides.append(o)
            }
            command = Array(words[(dash + 1)...])
        }
        guard let program = command.first, !program.isEmpty else {
            throw ValidationError("say what to run: tack exec [tool@version...] -- COMMAND [ARGS...]")
        }
        return Invocation(frozen: frozen, overrides: overrides, command: command)
    }

    func validate() throws {
        // Help is asked for before any command is named; after one, the words are the command's.
        if let first = words.first, first == "-h" || first == "--help" { throw CleanExit.helpRequest(self) }
        _ = try invocation()
    }

    func run() async throws {
        let invocation = try invocation()
        let command = invocation.command
        var settings = try processSettings()
        // `tool@version` on the command line wins, as TACK_<TOOL>_VERSION would.
        for o in invocation.overrides {
            if let r = o.requirement {
                settings.environment[ToolName.environmentVariable(o.name)] = r.description
                settings.commandLine[o.name] = o.text
            }
        }
        let (project, current, notProviding) = try await installProviders(of: command[0], settings: settings, frozen: invocation.frozen)
        let run = RunEnvironment.make(resolution: project.resolution, rows: current, settings: settings)
        let env = run.applied(to: settings.environment)
        RunEnvironment.untrustedWarningsToSay(run.untrusted, settings: settings).forEach(Output.error)
        var lookup = settings
        lookup.environment = env
        let executable = try Self.executable(command[0], lookup: lookup, notProviding: notProviding)
        let argv = command.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        StartState.captured.restore()
        execve(executable, argv, envp)
        throw fail(TackError("cannot run \(executable): \(String(cString: strerror(errno)))"), status: 126)
    }

    /// The workspace and what runs here, after installing what is missing and provides
    /// `program` (nothing else: an unrelated build must not hold the command up), unless that
    /// is forbidden; and the pinned tools still missing that were not installed.
    func installProviders(of program: String, settings: Settings, frozen: Bool) async throws -> (Workspace, [CurrentTool], [String]) {
        var project: Workspace
        var current: [CurrentTool]
        do {
            project = try Workspace(.cli(settings))
            current = try project.resolution.current(settings: settings)
        } catch { throw fail(error) }
        // The frozen rule is install's: every lock exactly as pinned, or nothing runs.
        if frozen || settings.isFrozen {
            let problems = InstallService(project).frozenProblems()
            if let only = problems.first, problems.count == 1 { throw fail(only) }
            if !problems.isEmpty { throw fail(TackError(problems.map(\.message).joined(separator: "\n"))) }
        }
        let allMissing = current.filter { t in
            guard let pin = project.resolution.pin(t.tool), pin.request.isLockable else { return false }
            return !t.installed
        }
        let providers = Set(CommandProviders.tools(providing: program, among: allMissing.compactMap { project.resolution.pin($0.tool)?.request }))
        let missing = allMissing.filter { providers.contains($0.tool) }
        let notProviding = allMissing.filter { !providers.contains($0.tool) }.map(\.tool)
        guard !missing.isEmpty else { return (project, current, notProviding) }
        if frozen || settings.isFrozen || settings.isOffline {
            throw fail(Self.cannotInstall(missing[0], project: project, frozen: frozen || settings.isFrozen))
        }
        let writer: Workspace
        do { writer = try Workspace.locked(.cli(settings)) } catch { throw fail(error) }
        var options = InstallOptions(writer.context)
        options.only = Set(missing.map(\.tool))
        let status = await InstallService(writer, options: options).run().status
        if status != 0 { throw ExitCode(status) }
        do {
            project = try Workspace(.cli(settings))
            current = try project.resolution.current(settings: settings)
        } catch { throw fail(error) }
        return (project, current, notProviding)
    }

    /// The program to run: a path as given, else the first on the run's PATH; not found
    /// (status 127) names the pinned tools not installed that may provide it.
    static func executable(_ program: String, lookup: Settings, notProviding: [String]) throws -> String {
        if program.contains("/") { return program }
        if let found = CommandSearch.searchPath(program, settings: lookup) { return found }
        var message = "\(program): command not found"
        if !notProviding.isEmpty { message += "; these pinned tools are not installed and may provide it: \(notProviding.joined(separator: ", ")) — run `tack install`" }
        throw fail(TackError(message), status: 127)
    }

    /// Why a missing tool stays missing under --frozen or TACK_OFFLINE, and what to do.
    static func cannotInstall(_ tool: CurrentTool, project: Workspace, frozen: Bool) -> TackError {
        let home = project.settings.home
        let what = tool.label
        let setBy = tool.origin.describe(home: home)
        guard frozen else {
            return TackError("\(what) is not installed (set by \(setBy)), and TACK_OFFLINE forbids fetching it — install it while online with `tack install`")
        }
        guard let pin = project.resolution.pin(tool.tool), pin.lockDirectory != nil, pin.overridden == nil,
              tool.origin.kind != .environment, tool.origin.kind != .commandLine else {
            // An override is pinned nowhere: installing it is a separate, deliberate step.
            return TackError("\(what) is not installed (set by \(setBy)), and --frozen (or TACK_FROZEN) forbids installing it — install it first with `tack install \(tool.tool)@\(tool.version ?? tool.requested)`")
        }
        // (A lock that does not lock what is pinned was refused before: `frozenProblems`.)
        return TackError("\(what) is not installed (set by \(setBy)), and --frozen (or TACK_FROZEN) forbids installing here — run `tack install --frozen`")
    }
}
