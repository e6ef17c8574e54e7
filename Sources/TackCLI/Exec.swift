import ArgumentParser
import Backends
import Foundation
import TackCore
import TackFront

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

    @Flag(help: "Do not install or change anything; fail if a pinned tool is missing.")
    var frozen = false

    func run() async throws {
        var overrides: [ToolArgument] = []
        var command: [String]
        if let dash = words.firstIndex(of: "--") {
            for w in words[..<dash] { overrides.append(try ToolArgument.parse(w)) }
            command = Array(words[(dash + 1)...])
        } else {
            command = words
        }
        if command.first == "--frozen" { command.removeFirst() }  // `tack exec --frozen cmd`
        guard let program = command.first else {
            throw ValidationError("say what to run: tack exec [tool@version...] -- COMMAND [ARGS...]")
        }
        var settings = try processSettings()
        // `tool@version` on the command line wins, as TACK_<TOOL>_VERSION would.
        for o in overrides {
            guard let r = o.requirement else { throw ValidationError("say which version: \(o.name)@VERSION") }
            settings.environment[ToolName.environmentVariable(o.name)] = r.description
        }
        var project: Project
        do { project = try Project(settings: settings) } catch { throw fail(error) }
        var current: [CurrentTool]
        do { current = try project.resolution.current(settings: settings) } catch { throw fail(error) }

        // Install what is missing and provides the command (nothing else: an unrelated
        // build must not hold the command up), unless that is forbidden.
        let allMissing = current.filter { t in
            guard let pin = project.resolution.pin(t.tool), LockPlanner.isLockable(pin.request) else { return false }
            return !t.installed
        }
        let providers = Set(CommandProviders.tools(providing: program, among: allMissing.compactMap { project.resolution.pin($0.tool)?.request }))
        let missing = allMissing.filter { providers.contains($0.tool) }
        if !missing.isEmpty {
            if frozen || settings.isFrozen || settings.isOffline {
                let first = missing[0]
                let what = first.version.map { "\(first.tool) \($0)" } ?? "\(first.tool) \(first.requested)"
                throw fail(TackError("\(what) is not installed (set by \(first.origin.describe(home: settings.home))) — run `tack install`"))
            }
            let writer: Project
            do { writer = try Project.locked(settings: settings) } catch { throw fail(error) }
            var sync = Sync(project: writer)
            sync.only = Set(missing.map(\.tool))
            let status = await sync.run()
            if status != 0 { throw ExitCode(status) }
            do {
                project = try Project(settings: settings)
                current = try project.resolution.current(settings: settings)
            } catch { throw fail(error) }
        }

        var env = settings.environment
        let run = RunEnvironment.make(resolution: project.resolution, rows: current, settings: settings)
        let path = run.binDirectories
        for v in run.variables { env[v.name] = v.value }
        for file in run.untrusted { Output.error(RunEnvironment.untrustedWarning(file, home: settings.home)) }
        if !path.isEmpty { env["PATH"] = (path + [env["PATH"] ?? ""]).filter { !$0.isEmpty }.joined(separator: ":") }
        var lookup = settings
        lookup.environment = env
        let executable: String
        if program.contains("/") {
            executable = program
        } else if let found = TackCore.Which.searchPath(program, settings: lookup) {
            executable = found
        } else {
            var message = "\(program): command not found"
            let unknown = allMissing.filter { !providers.contains($0.tool) }.map(\.tool)
            if !unknown.isEmpty { message += "; these pinned tools are not installed and may provide it: \(unknown.joined(separator: ", ")) — run `tack install`" }
            throw fail(TackError(message), status: 127)
        }
        let argv = command.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        StartState.captured.restore()
        execve(executable, argv, envp)
        throw fail(TackError("cannot run \(executable): \(String(cString: strerror(errno)))"), status: 126)
    }
}
