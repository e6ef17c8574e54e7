import ArgumentParser
import Archive
import Backends
import Foundation
import TackCore
import TackFront

/// What the install-side commands share: the process's settings, what the directory pins,
/// the store, the backends, and the lock files those pins belong to.
struct Project {
    let settings: Settings
    let resolution: Resolution
    let store: Store
    let registry: BackendRegistry
    /// The project's lock, when this value was read under it (`Project.locked`).
    private(set) var hold: FileLock?

    init(settings: Settings) throws(TackError) {
        self.settings = settings
        self.store = try settings.requireStore()
        let resolution = try Resolver(settings).resolve()
        IgnoredFiles.report(resolution.ignored, settings: settings)
        self.resolution = resolution
        self.registry = Project.registry(settings, pathPrefix: Project.pinnedBinDirectories(resolution, settings))
    }

    /// The project of the process's working directory, or a printed error. With `locking`,
    /// read under the project's lock (for commands that write its files).
    static func current(locking: Bool = false) throws -> Project {
        let settings = try processSettings()
        do { return locking ? try locked(settings: settings) : try Project(settings: settings) } catch { throw fail(error) }
    }

    /// The project read again under its lock, held until the value goes: what a command that
    /// reads, changes and writes tack.yml or tack.lock works on, so that parallel commands
    /// each see the others' writes.
    static func locked(settings: Settings) throws(TackError) -> Project {
        let root = try Resolver(settings).resolve().projectRoot ?? settings.cwd
        let lock = try ProjectLock.acquire(store: try settings.requireStore(), root: root)
        var project = try Project(settings: settings)
        project.hold = lock
        return project
    }

    /// The tools whose programs tack's own builds run when pinned: the Swift toolchain, Python
    /// and Ruby. No other tool's binaries come before the system's while tack builds, so a tool
    /// that ships a `python3`, `git` or `swift` never becomes the interpreter or compiler.
    static let buildInterpreters: Set<String> = ["swift", "python", "ruby"]

    /// The bin directories of the interpreters pinned here that are installed now: backends
    /// that run one (pip, gem, a Swift build) find the pinned python, ruby or swift there first
    /// on PATH. `path:` pins are never among them.
    static func pinnedBinDirectories(_ resolution: Resolution, _ settings: Settings) -> [String] {
        guard let store = settings.store, let rows = try? resolution.current(settings: settings) else { return [] }
        var out: [String] = []
        for (pin, row) in zip(resolution.pins, rows) where buildInterpreters.contains(row.tool) {
            if case .path = pin.request.requirement { continue }
            if case .system = pin.request.requirement { continue }
            if let v = row.version.flatMap({ Version(word: $0) }), row.installed {
                out.append((row.installDirectory ?? store.installDirectory(row.tool, v)) + "/bin")
            }
        }
        return out
    }

    /// The backends again, with the pinned tools installed since this project was read on PATH.
    func registryWithPinnedInterpreters() -> BackendRegistry {
        Project.registry(settings, pathPrefix: Project.pinnedBinDirectories(resolution, settings))
    }

    /// The process environment with `pathPrefix` first on PATH.
    static func environment(_ settings: Settings, pathPrefix: [String]) -> [String: String] {
        var env = settings.environment
        if !pathPrefix.isEmpty { env["PATH"] = (pathPrefix + [settings.environment["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":") }
        return env
    }

    static func registry(_ settings: Settings, pathPrefix: [String] = []) -> BackendRegistry {
        let interpreters = environment(settings, pathPrefix: pathPrefix)
        return BackendRegistry([
            GitBackend(runner: ChildProcessRunner(), environment: interpreters),
            URLBackend(http: URLSessionHTTPClient(), limits: SafeExtractor.Limits.from(environment: settings.environment)),
            PipBackend(runner: ChildProcessRunner(), http: URLSessionHTTPClient(), environment: interpreters, shims: settings.store?.shims),
            GemBackend(runner: ChildProcessRunner(), environment: interpreters, shims: settings.store?.shims),
            AsdfBackend(runner: ChildProcessRunner(), environment: interpreters, cache: settings.store?.cache, mayRun: pluginTrust(settings)),
            SwiftBackend(http: URLSessionHTTPClient(), runner: ChildProcessRunner(), environment: settings.environment,
                         limits: SafeExtractor.Limits.from(environment: settings.environment)),
        ])
    }

    /// An asdf plugin runs its own scripts: one a registry names may run; one a project file
    /// names runs only when that file is trusted (`tack trust`), as `env` is applied.
    static func pluginTrust(_ settings: Settings) -> @Sendable (ToolRequest) -> String? {
        let registry = try? ToolRegistry.load(store: settings.store)
        let store = settings.store
        let fs = settings.fs
        let home = settings.home
        return { request in
            if let entry = registry?.entries[request.name], entry.source == request.source { return nil }
            if request.origin.kind == .globalManifest { return nil }
            let file = request.origin.file
            if let store, let bytes = try? fs.read(file), TrustStore(store: store).isTrusted(file, hash: SHA256Digest.hex(bytes)) { return nil }
            let dir = Paths.abbreviate(Paths.dirname(file), home: home)
            return "\(request.name) comes from the asdf plugin \(request.source.identity ?? ""), whose scripts run on this machine, and \(Paths.abbreviate(file, home: home)) is not trusted (set by \(request.origin.describe(home: home))) — read it, then run `tack trust \(dir)`"
        }
    }

    var home: String? { settings.home }

    /// A tool named on the command line, as every command reads it: as pinned here, else as
    /// the registries name it (the user's own first, then tack's built-in one), with
    /// `requirement`. Still `.registry` (a source to give) when none does.
    func request(named name: String, requirement: Requirement) -> ToolRequest {
        var request = resolution.pin(name)?.request ?? ToolRequest(name: name, requirement: requirement, source: .registry, origin: .commandLine)
        request.requirement = requirement
        if case .registry = request.source, let registry = try? ToolRegistry.load(store: settings.store) {
            request = registry.apply(request)
        }
        return request
    }
    var planner: LockPlanner { LockPlanner(registry: registry) }

    /// Pins grouped by the lock file that records them; environment overrides (which no lock
    /// records) under nil.
    var groups: [(lockPath: String?, requests: [ToolRequest])] {
        var byDir: [String: [ToolRequest]] = [:]
        var loose: [ToolRequest] = []
        for pin in resolution.pins where LockPlanner.isLockable(pin.request) {
            if let dir = pin.lockDirectory { byDir[dir, default: []].append(pin.request) } else { loose.append(pin.request) }
        }
        var out: [(String?, [ToolRequest])] = byDir.keys.sorted().map { (Paths.join($0, Lockfile.fileName), byDir[$0]!) }
        if !loose.isEmpty { out.append((nil, loose)) }
        return out
    }

    func loadLock(_ path: String) throws(TackError) -> Lockfile {
        settings.fs.info(path) == nil ? Lockfile() : try Lockfile.load(path, fs: settings.fs)
    }

    /// Writes a lock only when its bytes change, so an unchanged lock keeps its mtime.
    @discardableResult
    func writeLock(_ lock: Lockfile, to path: String) throws(TackError) -> Bool {
        let bytes = lock.serialized()
        if let old = try? settings.fs.read(path), old == bytes { return false }
        try Interrupts.write(path, bytes, fs: settings.fs)
        return true
    }

    /// Remembers a project root, so `tack prune` keeps what it pins.
    func remember(_ root: String) { store.rememberProject(root) }

    func knownProjects() -> [String] { store.knownProjects() }

    /// Drops projects from `state/projects`.
    func forget(_ roots: Set<String>) {
        try? store.projectsFile.update { (lines) throws(TackError) in (lines.filter { !roots.contains($0) }, ()) }
    }

    func installedProvider() -> @Sendable (String) -> [LockedTool] {
        let store = self.store
        return { store.installedEntries($0) }
    }
}

/// Fails a command with the error's message on stderr.
func fail(_ error: TackError, status: Int32 = 1) -> ExitCode {
    Output.error(error.message)
    return ExitCode(status)
}

var defaultJobs: Int {
    if let s = ProcessInfo.processInfo.environment["TACK_JOBS"], let n = Int(s), n > 0 { return n }
    return max(1, ProcessInfo.processInfo.activeProcessorCount)
}

/// The Swift toolchain on PATH, as tack records it in a build's metadata.
enum Toolchain {
    static func current(_ settings: Settings) async -> String? {
        guard let out = try? await ChildProcessRunner().run("swift", ["--version"], directory: settings.cwd, environment: settings.environment),
              out.status == 0 else { return nil }
        return GitBackend.toolchainLine(out.output)
    }
}
