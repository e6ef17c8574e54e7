import ArgumentParser
import TackCore
import TackKit

struct Use: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pin a tool in tack.yml (or the global manifest), lock it and install it.",
        discussion: """
            Changes the version of an existing entry in place, or adds one; comments and layout \
            are kept. If the tool cannot be resolved or installed, tack.yml and tack.lock are put \
            back as they were.

            Without a version, pins the newest release there is (an exact version).

            Examples:
              tack use jq                   the newest jq, exactly
              tack use swiftlint@0.57.0
              tack use ink@0.6.0 --git https://github.com/JohnSundell/Ink.git --product ink-cli
              tack use jq@1.7.1 --global
            """
    )

    @Argument(help: "tool or tool@requirement, like swiftlint@0.57.0 or swiftformat@'~> 0.54'.", completion: ToolArgument.completion)
    var target: ToolArgument

    @Flag(help: "Pin in the global manifest (~/.config/tack/tack.yml) instead of the project's tack.yml.")
    var global = false

    @Option(help: "For a new entry: the git repository the tool comes from.")
    var git: String?

    @Option(help: "For a new entry: a GitHub repository, owner/repo.")
    var github: String?

    @Option(name: .customLong("product"), help: "For a new git entry: an executable product to build (repeatable).")
    var products: [String] = []

    @OptionGroup var platform: PlatformOptions

    func validate() throws {
        try target.check()
        if git != nil && github != nil { throw ValidationError("give --git or --github, not both") }
        if !products.isEmpty && git == nil && github == nil { throw ValidationError("--product goes with --git or --github") }
    }

    func run() async throws {
        let arg = target
        let settings = try processSettings()
        if settings.isFrozen { throw fail(TackError("TACK_FROZEN is set, which forbids changing tack.yml and tack.lock")) }
        let requirement: Requirement
        if let r = arg.requirement { requirement = r } else { requirement = try await newest(settings) }
        let path: String
        let kind: Origin.Kind
        if global {
            guard let g = settings.globalManifest else { throw fail(TackError("HOME is not set, so there is no global manifest")) }
            path = g
            kind = .globalManifest
        } else {
            kind = .manifest
            let resolution: Resolution
            do { resolution = try Resolver(settings).resolve() } catch { throw fail(error) }
            path = resolution.manifests.first { $0.path.hasSuffix("/tack.yml") && $0.path != settings.globalManifest }?.path
                ?? Paths.join(settings.cwd, "tack.yml")
        }
        var entry: String?
        if let source = git.map({ "git: \(ManifestEditor.yamlValue($0))" }) ?? github.map({ "github: \(ManifestEditor.yamlValue($0))" }) {
            var fields = [source]
            fields.append("version: \(ManifestEditor.yamlValue(requirement.description))")
            if !products.isEmpty { fields.append("products: [\(products.map(ManifestEditor.yamlValue).joined(separator: ", "))]") }
            entry = "{ \(fields.joined(separator: ", ")) }"
        }

        let fs = settings.fs
        // Read, edit and write under the project's lock: parallel `tack use` keep every pin.
        let hold: FileLock
        let store: Store
        do {
            store = try settings.requireStore()
            hold = try ProjectLock.acquire(store: store, root: Paths.dirname(path))
        } catch { throw fail(error) }
        defer { hold.unlock() }
        let original: [UInt8]? = fs.info(path) == nil ? nil : try fsRead(fs, path)
        let lockPath = Paths.join(Paths.dirname(path), Lockfile.fileName)
        let originalLock: [UInt8]? = fs.info(lockPath) == nil ? nil : try fsRead(fs, lockPath)
        let edited: [UInt8]
        do { edited = try ManifestEditor.pin(arg.name, requirement, entry: entry, in: original ?? [], path: path, kind: kind) } catch { throw fail(error) }
        // A file the user trusted stays trusted through tack's own edit of one pin.
        let trust = TrustStore(store: store)
        let wasTrusted = original != nil && kind != .globalManifest && TrustPolicy(settings: settings).isTrusted(path)
        let restore: @Sendable () -> Void = {
            if let original { try? fs.writeAtomically(path, original) } else { try? fs.remove(path) }
            if let original, wasTrusted { try? trust.trust(path, hash: SHA256Digest.hex(original)) }
            if let originalLock { try? fs.writeAtomically(lockPath, originalLock) } else { try? fs.remove(lockPath) }
        }
        // Interrupted from here on (a build, a download), both files are put back as they were.
        Interrupts.undoOnInterrupt(path, restore)
        do { try fs.createDirectory(Paths.dirname(path)) } catch { throw fail(TackError("cannot write \(path): \(error)")) }
        do { try Interrupts.write(path, edited, fs: fs) } catch { throw fail(error) }
        if wasTrusted {
            do { try trust.trust(path, hash: SHA256Digest.hex(edited)) } catch { throw fail(error) }
        }

        let project: Workspace
        do { project = try Workspace(.cli(settings)) } catch {
            restore()
            throw fail(error)
        }
        guard let pin = project.resolution.pin(arg.name), pin.request.origin.file == path else {
            // Written, but something nearer wins (tack.local.yml, a nearer file, the environment).
            let winner = project.resolution.pin(arg.name).map { $0.request.origin.describe(home: settings.home) } ?? "nothing"
            Output.err("pinned \(arg.name) \(requirement) in \(Paths.abbreviate(path, home: settings.home)), but \(winner) takes precedence here\n")
            return
        }
        var options = InstallOptions(project.context)
        options.platforms = platform.platforms
        options.only = [arg.name]
        let status = await InstallService(project, options: options).run().status
        if status != 0 {
            restore()
            Output.err("\(Paths.abbreviate(path, home: settings.home)) and its tack.lock were left as they were\n")
            throw ExitCode(status)
        }
        Output.err("pinned \(arg.name) \(requirement) in \(Paths.abbreviate(path, home: settings.home))\n")
    }

    /// The newest release of the tool, from where it is pinned here, the --git or --github
    /// source given, or the registry: pinned exactly.
    func newest(_ settings: Settings) async throws -> Requirement {
        let project: Workspace
        do { project = try Workspace(.cli(settings)) } catch { throw fail(error) }
        var request = project.request(named: target.name, requirement: .latest)
        if let url = git ?? github.map(GitHub.url) { request.source = .git(url) }
        let versions: [AvailableVersion]
        do { versions = try await project.registry.backend(for: request).available(of: request) } catch { throw fail(error) }
        guard let newest = Requirement.latest.best(of: versions) else {
            throw fail(TackError("\(target.name) has no release to pin — name a version: `tack use \(target.name)@VERSION`"))
        }
        return .prefix(newest.version)
    }

    func fsRead(_ fs: any FileSystem, _ path: String) throws -> [UInt8] {
        do { return try fs.read(path) } catch { throw fail(TackError(error.description)) }
    }
}
