import ArgumentParser
import TackCore

struct Lock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resolve what is pinned here and write tack.lock, without installing.",
        discussion: """
            Entries that still match tack.yml are kept; new or changed pins are resolved to the \
            newest version their requirement allows. `tack update` moves kept entries too. \
            Checksums are recorded for this platform, those tack.yml's `platforms:` lists, \
            those the lock already covers, and each --platform: a url tool's download, a pip \
            tool's wheels (resolved for each platform by uv), a gem tool's platform gems, a \
            Swift toolchain's archive and signer. --verify fetches every one again and names \
            any that changed.

            Examples:
              tack lock
              tack lock --platform linux-arm64     also cover ARM Linux (kept from then on)
              tack lock --verify                   download every locked artifact again and compare
            """
    )

    @OptionGroup var platform: PlatformOptions

    @Flag(help: "Download every platform's artifact the lock has a checksum for again, and compare; change nothing.")
    var verify = false

    func validate() throws {
        if verify && !platform.names.isEmpty { throw ValidationError("--verify checks the lock as it is; it takes no --platform") }
    }

    func run() async throws {
        let project = try Project.current(locking: true)
        if verify {
            let status = await Sync(project: project).verifyLocks()
            if status != 0 { throw ExitCode(status) }
            return
        }
        if project.settings.isFrozen { throw fail(TackError("TACK_FROZEN is set, which forbids writing tack.lock")) }
        var sync = Sync(project: project)
        sync.install = false
        sync.platforms = platform.platforms
        let status = await sync.run()
        if status != 0 { throw ExitCode(status) }
    }
}

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
        let project = try Project.current(locking: true)
        if project.settings.isFrozen { throw fail(TackError("TACK_FROZEN is set, which forbids changing tack.lock")) }
        for t in tools where project.resolution.pin(t) == nil {
            throw fail(TackError("\(t) is not pinned here — pin it with `tack use \(t)@VERSION`"))
        }
        var sync = Sync(project: project)
        sync.platforms = platform.platforms
        sync.update = tools.isEmpty ? .all : .only(Set(tools))
        if !tools.isEmpty { sync.only = Set(tools) }
        let status = await sync.run()
        if status != 0 { throw ExitCode(status) }
    }
}
