import ArgumentParser
import Foundation
import TackCore
import TackKit

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove every installed version that no known project still pins.",
        discussion: """
            Known projects are those where `tack install` (or use, lock, update) has run. \
            First, what interrupted or killed installs left behind (temporary install \
            directories, partial downloads, half-made environments) whose tack is gone. A version \
            is kept while a known project's tack.lock, the global manifest's lock, or this \
            directory's pins name it. Then the cache entries no remaining install uses go too: \
            downloads and gems (by checksum), asdf plugin checkouts (by commit) and Python \
            environments (no install shares their files).
            """
    )

    @OptionGroup var dryRunOption: DryRunOption
    var dryRun: Bool { dryRunOption.dryRun }

    func run() throws {
        let project = try Workspace.current()
        let settings = project.settings
        var keep: Set<String> = []
        var locks = project.knownProjects().map { Paths.join($0, Lockfile.fileName) }
        if let global = settings.globalManifest { locks.append(Paths.join(Paths.dirname(global), Lockfile.fileName)) }
        for path in locks where settings.fs.isFile(path) {
            guard let lock = try? Lockfile.load(path, fs: settings.fs) else {
                throw fail(TackError("cannot read \(path), so tack cannot tell what it pins — fix it or remove that project, then prune again"))
            }
            for (name, t) in lock.tools { keep.insert("\(name)@\(t.version.text)") }
        }
        if let current = try? project.resolution.current(settings: settings) {
            for t in current { if let v = t.version { keep.insert("\(t.tool)@\(v)") } }
        }
        var removed = 0
        var removedVersions: Set<String> = []
        for tool in project.store.installedTools() {
            for v in project.store.installedVersions(tool) where !keep.contains("\(tool)@\(v.text)") {
                removedVersions.insert("\(tool)@\(v.text)")
                if dryRun {
                    Output.out("would remove \(tool) \(v)\n")
                } else {
                    do { try Remover(store: project.store).remove(tool, v) } catch { throw fail(error) }
                    Output.out("removed \(tool) \(v)\n")
                }
                removed += 1
            }
        }
        if removed > 0 && !dryRun { project.reshim() }
        // Projects that are gone are forgotten (their tools went above, unless pinned elsewhere).
        let gone = project.knownProjects().filter { !settings.fs.isDirectory($0) }
        for root in gone { Output.out(dryRun ? "would forget \(Paths.abbreviate(root, home: settings.home)), which no longer exists\n" : "forgot \(Paths.abbreviate(root, home: settings.home)), which no longer exists\n") }
        if !gone.isEmpty && !dryRun { project.forget(Set(gone)) }
        /// Removes a path (with --dry-run, says it would) and says so.
        func remove(_ path: String, _ why: String = "") throws {
            let shown = Paths.abbreviate(path, home: settings.home) + why
            if dryRun {
                Output.out("would remove \(shown)\n")
            } else {
                do { try FileManager.default.removeItem(atPath: path) } catch { throw fail(TackError("cannot remove \(path): \(error.localizedDescription)")) }
                Output.out("removed \(shown)\n")
            }
        }
        // What interrupted or killed installs left (their process is gone).
        for path in Leftovers.find(in: project.store) {
            try remove(path, ", left by an unfinished install")
            removed += 1
        }
        // What the remaining installs no longer use (with --dry-run: what they would not).
        let unused = CachePrune(store: project.store, removing: dryRun ? removedVersions : []).unused()
        for path in unused { try remove(path) }
        if removed == 0 && unused.isEmpty { Output.out("nothing to prune\n") }
    }
}

/// The cache entries no install uses: downloads and gems whose checksum no install records,
/// asdf plugin checkouts whose commit none records, and Python environments whose files no
/// install shares (they are hard links to the installs made from them).
struct CachePrune {
    let store: Store
    /// Installs (`tool@version`) to count as gone already (for --dry-run).
    let removing: Set<String>

    func unused() -> [String] {
        let fm = FileManager.default
        var sums: Set<String> = [], commits: Set<String> = []
        for tool in store.installedTools() {
            for entry in store.installedEntries(tool) where !removing.contains("\(tool)@\(entry.version.text)") {
                if case .map(let m)? = entry.fields["sha256"] { sums.formUnion(m.values) }
                if case .string(let c)? = entry.fields["plugin-commit"] { commits.insert(c) }
            }
        }
        func entries(_ dir: String) -> [String] {
            ((try? fm.contentsOfDirectory(atPath: store.cache + "/" + dir)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }
        var out: [String] = []
        for f in entries("downloads") where !sums.contains(f) { out.append(store.cache + "/downloads/" + f) }
        for d in entries("gems") where !sums.contains(d) { out.append(store.cache + "/gems/" + d) }
        for d in entries("asdf-plugins") {
            guard let dash = d.lastIndex(of: "-"), !commits.contains(String(d[d.index(after: dash)...])) else { continue }
            out.append(store.cache + "/asdf-plugins/" + d)
        }
        for d in entries("pip-envs") {
            var st = stat()
            let cfg = store.cache + "/pip-envs/" + d + "/venv/pyvenv.cfg"
            // (With --dry-run, an environment only a version about to go still uses is not listed.)
            if stat(cfg, &st) != 0 || st.st_nlink <= 1 { out.append(store.cache + "/pip-envs/" + d) }
        }
        return out
    }
}
