#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore

/// What the install-side services share: the context, what the directory pins, the store,
/// the backends, and the lock files those pins belong to.
public struct Workspace: Sendable {
    public let context: Context
    public let resolution: Resolution
    public let store: Store
    public let registry: BackendRegistry
    /// The project's lock, when this value was read under it (`Workspace.locked`).
    public private(set) var hold: (any ExclusiveLock)?

    public var settings: Settings { context.settings }
    public var home: String? { settings.home }

    public init(_ context: Context) throws(TackError) {
        var context = context
        self.store = try context.settings.requireStore()
        let resolution = try Resolver(context.settings).resolve()
        if !resolution.ignored.isEmpty { context.notify(.ignored(resolution.ignored)) }
        // Every download from here on goes through the global manifest's mirrors too.
        context.settings.manifestMirrors = resolution.mirrors
        self.context = context
        self.resolution = resolution
        self.registry = context.makeBackends(context.settings, BackendFactory.pinnedBinDirectories(resolution, context.settings), context.copy)
        self.releaseAge = try ReleaseAge.inForce(resolution, settings: context.settings, home: context.settings.home)
    }

    /// `min_release_age` in force here (or `TACK_MIN_RELEASE_AGE`), if any.
    public let releaseAge: ReleaseAge?

    /// The workspace read again under its project's lock, held until the value goes: what a
    /// command that reads, changes and writes tack.yml or tack.lock works on, so that parallel
    /// commands each see the others' writes.
    public static func locked(_ context: Context) throws(TackError) -> Workspace {
        // Resolved first: a project whose files tack cannot read fails before anything is
        // written, the project's lock file included.
        let root = try Resolver(context.settings).resolve().projectRoot ?? context.settings.cwd
        let lock = try ProjectLock.acquire(store: try context.settings.requireStore(), root: root) { context.notify(.line($0)) }
        var workspace = try Workspace(context)
        workspace.hold = lock
        return workspace
    }

    /// The backends again, with the pinned tools installed since this workspace was read on PATH.
    public func registryWithPinnedInterpreters() -> BackendRegistry {
        context.makeBackends(settings, BackendFactory.pinnedBinDirectories(resolution, settings), context.copy)
    }

    /// A tool named on the command line, as every command reads it: as pinned here, else as
    /// the registries name it (the user's own first, then tack's built-in one), with
    /// `requirement`. Still `.registry` (a source to give) when none does.
    public func request(named name: String, requirement: Requirement) -> ToolRequest {
        var request = resolution.pin(name)?.request ?? ToolRequest(name: name, requirement: requirement, source: .registry, origin: .commandLine)
        request.requirement = requirement
        if case .registry = request.source, let registry = try? ToolRegistry.load(store: settings.store, backends: settings.backends) {
            request = registry.apply(request)
        }
        return request
    }

    public var planner: LockPlanner {
        var planner = LockPlanner(registry: registry)
        planner.releaseAge = releaseAge
        planner.now = Int64(time(nil))
        let context = self.context
        planner.warn = { context.notify(.line($0)) }
        return planner
    }

    /// Pins grouped by the lock file that records them; environment overrides (which no lock
    /// records) under nil.
    public var groups: [(lockPath: String?, requests: [ToolRequest])] {
        var byDir: [String: [ToolRequest]] = [:]
        var loose: [ToolRequest] = []
        for pin in resolution.pins where pin.request.isLockable {
            if let dir = pin.lockDirectory { byDir[dir, default: []].append(pin.request) } else { loose.append(pin.request) }
        }
        var out: [(String?, [ToolRequest])] = byDir.keys.sorted().map { dir in (Paths.join(dir, Lockfile.fileName), byDir[dir] ?? []) }
        if !loose.isEmpty { out.append((nil, loose)) }
        return out
    }

    /// The file pins an environment override hides (`TACK_<TOOL>_VERSION`), by the lock that
    /// records them: their entries are kept as that lock has them, and --frozen checks the
    /// lock against them, as if no override were set.
    public var hidden: [String: [ToolRequest]] {
        var out: [String: [ToolRequest]] = [:]
        for pin in resolution.pins {
            guard let underlying = pin.overridden, let dir = pin.overriddenLockDirectory, underlying.isLockable else { continue }
            out[Paths.join(dir, Lockfile.fileName), default: []].append(underlying)
        }
        return out
    }

    public func loadLock(_ path: String) throws(TackError) -> Lockfile {
        settings.fs.info(path) == nil ? Lockfile() : try Lockfile.load(path, fs: settings.fs, backends: settings.backends)
    }

    /// Writes a lock only when its bytes change, so an unchanged lock keeps its mtime.
    @discardableResult
    public func writeLock(_ lock: Lockfile, to path: String) throws(TackError) -> Bool {
        let bytes = lock.serialized()
        if let old = try? settings.fs.read(path), old == bytes { return false }
        try context.projectFiles.write(path, bytes)
        return true
    }

    /// Remembers a project root, so `tack prune` keeps what it pins.
    public func remember(_ root: String) { store.rememberProject(root) }

    public func knownProjects() -> [String] { store.knownProjects() }

    /// Drops projects from `state/projects`.
    public func forget(_ roots: Set<String>) {
        try? store.projectsFile.update { (lines) throws(TackError) in (lines.filter { !roots.contains($0) }, ()) }
    }

    public func installedProvider() -> @Sendable (String) -> [LockedTool] {
        let store = self.store
        return { store.installedEntries($0) }
    }

    /// Rebuilds the shims after installs change; a failure is said, not fatal.
    public func reshim() {
        guard let launcher = context.launcher() else {
            context.notify(.problem(TackError("cannot find the tack binary to point shims at; run `tack reshim` from an installed tack")))
            return
        }
        do { try Shims.rebuild(store: store, front: launcher) } catch { context.problem(error) }
    }
}
