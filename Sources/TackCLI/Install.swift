import ArgumentParser
import Backends
import TackCore
import TackKit

struct Install: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install every tool pinned here, exactly as tack.lock says.",
        discussion: """
            Resolves and writes tack.lock where it is missing or no longer matches tack.yml, then \
            installs in parallel. Installs are transactional: a failed or killed install leaves \
            nothing that looks installed.

            A tool with a version (jq@1.6) installs that version from the tool's source (where \
            it is pinned here, else the registry) without pinning or locking it: `tack use` pins.

            Examples:
              tack install                  everything pinned here
              tack install swiftlint        one pinned tool
              tack install jq@1.7.1 shellcheck
              tack install --frozen         CI: exactly tack.lock; fail on any difference
              tack install --from /mnt/copy exactly tack.lock, from a copy `tack mirror` made,
                                            with no other network
            """
    )

    @Argument(help: "Only these: pinned tools, or tool@version for a version pinned nowhere.", completion: ToolArgument.completion)
    var tools: [ToolArgument] = []

    @OptionGroup var frozenOption: FrozenOption
    var frozen: Bool { frozenOption.frozen }

    @Option(help: "How many tools to install at once (default: TACK_JOBS, else the number of cores).")
    var jobs: Int?

    @Flag(help: "Build installed tools again (after a toolchain change).")
    var rebuild = false

    @Flag(help: "Build git tools from source even where tack.lock names a prebuilt artifact bundle.")
    var build = false

    @OptionGroup var cacheOption: NoCacheOption

    @Option(help: ArgumentHelp("Install exactly tack.lock from a copy `tack mirror` made (a directory, or oci://HOST/REPO[:TAG]), with no other network (also TACK_MIRROR_FROM).", valueName: "copy"))
    var from: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        for t in tools { try t.check() }
        var seen: Set<String> = []
        for t in tools where !seen.insert(t.name).inserted {
            throw ValidationError("\(t.name) is named twice — install one version of a tool at a time")
        }
    }

    func run() async throws {
        let settings = try processSettings()
        let place = from ?? settings.environment["TACK_MIRROR_FROM"].flatMap { $0.isEmpty ? nil : $0 }
        var copy: CarriedCopy?
        if let place {
            do { copy = .from(try await CopyConnection.open(place, settings: settings)) } catch { throw fail(error) }
        }
        let project = try Workspace.current(locking: true, copy: copy)
        let pinned = tools.filter { $0.requirement == nil }.map(\.name)
        let versions = tools.compactMap { t -> ToolRequest? in
            t.requirement.map { project.request(named: t.name, requirement: $0) }
        }
        if project.resolution.pins.isEmpty && versions.isEmpty {
            Output.err("no tools are pinned for \(Paths.abbreviate(project.settings.cwd, home: project.home)) — add one with `tack use TOOL@VERSION`\n")
            return
        }
        for t in pinned where project.resolution.pin(t) == nil {
            let names = project.resolution.pins.map(\.request.name)
            if let close = ToolName.suggestion(for: t, store: project.store, pinned: names) {
                throw fail(TackError("\(t) is not pinned here — did you mean `\(close)`?"))
            }
            guard PinAdvice.registryKnows(t, store: project.store) else { throw fail(TackError("\(t) is not pinned here — \(PinAdvice.pin(t, registryKnows: false))")) }
            throw fail(TackError("\(t) is not pinned here — pin it with `tack use \(t)`, or install a version without pinning it: `tack install \(t)@VERSION`"))
        }
        var options = InstallOptions(project.context)
        // A copy is of a lock: installed exactly, as --frozen installs.
        options.frozen = options.frozen || frozen || copy != nil
        options.rebuild = rebuild
        options.build = build
        options.noCache = cacheOption.noCache
        if let jobs { options.jobs = jobs }
        if !tools.isEmpty { options.only = Set(pinned) }
        options.extra = versions
        let status = await InstallService(project, options: options).run().status
        if status != 0 { throw ExitCode(status) }
    }
}
