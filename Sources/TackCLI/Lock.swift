import ArgumentParser
import TackCore
import TackKit

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
              tack lock --verify --offline         check the kept downloads and signatures, no network
            """
    )

    @OptionGroup var platform: PlatformOptions

    @Flag(help: "Download every platform's artifact the lock has a checksum for again, and compare; change nothing.")
    var verify = false

    @Flag(help: "With --verify: check what the download cache kept (downloads, signatures, bundles) instead, with no network.")
    var offline = false

    func validate() throws {
        if verify && !platform.names.isEmpty { throw ValidationError("--verify checks the lock as it is; it takes no --platform") }
        if offline && !verify { throw ValidationError("--offline goes with --verify (set TACK_OFFLINE to lock from the cache)") }
    }

    func run() async throws {
        // Asked for, a lock is written beside other managers' version files too.
        let project = try Workspace.current(locking: true, locksVersionFiles: !verify)
        if verify {
            var options = InstallOptions(project.context)
            options.offline = options.offline || offline
            let status: Int32 = await InstallService(project, options: options).verifyLocks().problems == 0 ? 0 : 1
            if status != 0 { throw ExitCode(status) }
            return
        }
        if project.settings.isFrozen { throw fail(TackError("TACK_FROZEN is set, which forbids writing tack.lock")) }
        var options = InstallOptions(project.context)
        options.install = false
        options.platforms = platform.platforms
        let status = await InstallService(project, options: options).run().status
        if status != 0 { throw ExitCode(status) }
    }
}
