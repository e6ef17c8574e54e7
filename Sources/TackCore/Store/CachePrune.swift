#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// The cache entries no install uses: downloads whose checksum no install records, and what
/// each kind keeps in a cache folder of its own and says is unused (`BackendKind.unusedCache`:
/// gems, asdf plugin checkouts, Python environments).
public struct CachePrune: Sendable {
    public let store: Store
    /// Installs (`tool@version`) to count as gone already (for --dry-run).
    public let removing: Set<String>

    public init(store: Store, removing: Set<String>) {
        self.store = store
        self.removing = removing
    }

    public func unused() -> [String] {
        var use = CacheUse()
        for tool in store.installedTools() {
            for entry in store.installedEntries(tool) where !removing.contains("\(tool)@\(entry.version.text)") {
                use.checksums.formUnion(entry.checksums.values)
                if let kind = store.backends.kind(of: entry) { use.revisions.formUnion(kind.cachedRevisions(entry)) }
            }
        }
        var out: [String] = []
        let recorded = Set(use.checksums.map { $0.lowercased() })
        for f in store.cacheEntries("downloads") where !(DownloadCacheName.sum(ofName: f).map(recorded.contains) ?? false) {
            out.append(store.cache + "/downloads/" + f)
        }
        for kind in store.backends.kinds { out += kind.unusedCache(store, use: use) }
        return out
    }
}

/// What the installs that stay record, for deciding which cache entries they still use.
public struct CacheUse: Sendable {
    /// Every checksum an install records (as written).
    public var checksums: Set<String> = []
    /// Every revision an install keeps in the cache (`BackendKind.cachedRevisions`).
    public var revisions: Set<String> = []
}

extension Store {
    /// The entries of one folder of the cache (`gems`, `downloads`), by name, sorted; none
    /// when it does not exist.
    public func cacheEntries(_ folder: String) -> [String] {
        ((try? fs.list(cache + "/" + folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
}
