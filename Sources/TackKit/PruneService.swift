import TackCore

/// `tack prune`: what interrupted installs left, every installed version no known project
/// still pins, projects that are gone, and the cache entries no remaining install uses.
public struct PruneService: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// One thing pruned (or, with a dry run, that would be).
    public enum Step: Sendable, Equatable {
        case version(tool: String, version: String)
        case forgotten(project: String)
        /// A path, and why it goes (`, left by an unfinished install`), when there is more to say.
        case path(String, why: String)
    }

    /// Prunes (or, with `dryRun`, only says what it would), each step said through `each` as
    /// it is done; how many versions and paths went (forgotten projects are not counted).
    @discardableResult
    public func prune(dryRun: Bool, each: (Step) -> Void) throws(TackError) -> Int {
        let keep = try pinnedVersions()
        let store = workspace.store
        var steps = 0
        var removedVersions: Set<String> = []
        for tool in store.installedTools() {
            for v in store.installedVersions(tool) where !keep.contains("\(tool)@\(v.text)") {
                removedVersions.insert("\(tool)@\(v.text)")
                if !dryRun { try Remover(store: store).remove(tool, v) }
                each(.version(tool: tool, version: v.text))
                steps += 1
            }
        }
        if steps > 0 && !dryRun { workspace.reshim() }
        // Projects that are gone are forgotten (their tools went above, unless pinned elsewhere).
        let gone = workspace.knownProjects().filter { !workspace.settings.fs.isDirectory($0) }
        for root in gone { each(.forgotten(project: root)) }
        if !gone.isEmpty && !dryRun { workspace.forget(Set(gone)) }
        // What interrupted or killed installs left (their process is gone), then what the
        // remaining installs no longer use (with a dry run: what they would not).
        let leftovers = Leftovers.find(in: store).map { ($0, ", left by an unfinished install") }
        let unused = CachePrune(store: store, removing: dryRun ? removedVersions : []).unused().map { ($0, "") }
        for (path, why) in leftovers + unused {
            if !dryRun {
                do { try workspace.settings.fs.remove(path) } catch { throw TackError("cannot remove \(path): \(error)") }
            }
            each(.path(path, why: why))
        }
        return steps + leftovers.count + unused.count
    }

    /// `tool@version` of every version a known project's tack.lock, the global manifest's
    /// lock or this directory's pins name.
    func pinnedVersions() throws(TackError) -> Set<String> {
        let settings = workspace.settings
        var keep: Set<String> = []
        var locks = workspace.knownProjects().map { Paths.join($0, Lockfile.fileName) }
        if let global = settings.globalManifest { locks.append(Paths.join(Paths.dirname(global), Lockfile.fileName)) }
        for path in locks where settings.fs.isFile(path) {
            guard let lock = try? Lockfile.load(path, fs: settings.fs, backends: settings.backends) else {
                throw TackError("cannot read \(path), so tack cannot tell what it pins — fix it or remove that project, then prune again")
            }
            for (name, t) in lock.tools { keep.insert("\(name)@\(t.version.text)") }
        }
        if let current = try? workspace.resolution.current(settings: settings) {
            for t in current { if let v = t.version { keep.insert("\(t.tool)@\(v)") } }
        }
        return keep
    }
}
