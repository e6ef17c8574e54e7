import ArgumentParser
import TackCore
import TackFront

struct Install: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install every tool pinned here, exactly as tack.lock says.",
        discussion: """
            Resolves and writes tack.lock where it is missing or no longer matches tack.yml, then \
            installs in parallel. Installs are transactional: a failed or killed install leaves \
            nothing that looks installed.

            Examples:
              tack install                  everything pinned here
              tack install swiftlint        one pinned tool
              tack install --frozen         CI: exactly tack.lock; fail on any difference
            """
    )

    @Argument(help: "Install only these pinned tools.")
    var tools: [String] = []

    @Flag(help: "Install exactly tack.lock, never write it, and fail listing every difference from the manifest (also TACK_FROZEN=1).")
    var frozen = false

    @Option(help: "How many tools to install at once (default: TACK_JOBS, else the number of cores).")
    var jobs: Int?

    @Flag(help: "Build installed tools again (after a toolchain change).")
    var rebuild = false

    func validate() throws {
        for t in tools where !ToolName.isValid(t) { throw ValidationError(ToolName.problem(t)) }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let project = try Project.current(locking: true)
        if project.resolution.pins.isEmpty {
            Output.err("no tools are pinned for \(Paths.abbreviate(project.settings.cwd, home: project.home)) — add one with `tack use TOOL@VERSION`\n")
            return
        }
        for t in tools where project.resolution.pin(t) == nil {
            throw fail(TackError("\(t) is not pinned here — pin it with `tack use \(t)@VERSION`"))
        }
        var sync = Sync(project: project)
        sync.frozen = sync.frozen || frozen
        sync.rebuild = rebuild
        if let jobs { sync.jobs = jobs }
        if !tools.isEmpty { sync.only = Set(tools) }
        let status = await sync.run()
        if status != 0 { throw ExitCode(status) }
    }
}
