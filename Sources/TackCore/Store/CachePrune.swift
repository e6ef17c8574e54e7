#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The cache entries no install uses: downloads and gems whose checksum no install records,
/// asdf plugin checkouts whose commit none records, and Python environments whose files no
/// install shares (they are hard links to the installs made from them).
public struct CachePrune: Sendable {
    public let store: Store
    /// Installs (`tool@version`) to count as gone already (for --dry-run).
    public let removing: Set<String>

    public init(store: Store, removing: Set<String>) {
        self.store = store
        self.removing = removing
    }

    public func unused() -> [String] {
        var sums: Set<String> = [], commits: Set<String> = []
        for tool in store.installedTools() {
            for entry in store.installedEntries(tool) where !removing.contains("\(tool)@\(entry.version.text)") {
                sums.formUnion(entry.checksums.values)
                if let kind = store.backends.kind(of: entry) { commits.formUnion(kind.cachedRevisions(entry)) }
            }
        }
        func entries(_ dir: String) -> [String] {
            ((try? store.fs.list(store.cache + "/" + dir)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }
        var out: [String] = []
        let recorded = Set(sums.map { $0.lowercased() })
        for f in entries("downloads") where !(DownloadCacheName.sum(ofName: f).map(recorded.contains) ?? false) { out.append(store.cache + "/downloads/" + f) }
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
