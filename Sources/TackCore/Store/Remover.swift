#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Removes installs atomically: renamed out of sight first (under the install lock), then deleted.
public struct Remover: Sendable {
    public let store: Store
    public init(store: Store) { self.store = store }

    public func remove(_ tool: String, _ version: Version) throws(TackError) {
        // Nothing is removed through a link out of the store.
        for link in [store.installs, store.toolDirectory(tool), store.installDirectory(tool, version)] where store.fs.linkTarget(link) != nil {
            throw TackError("\(link) is a symbolic link; tack removes nothing through one — remove it yourself if it is yours")
        }
        let dir = store.installDirectory(tool, version)
        guard store.fs.isDirectory(dir) else {
            let others = store.installedVersions(tool).map({ $0.text })
            throw TackError("\(tool) \(version) is not installed" + (others.isEmpty ? " — `tack ls` lists what is" : " (installed: \(others.joined(separator: ", "))) — uninstall one of those"))
        }
        do { try store.fs.createDirectory(store.state + "/locks") } catch { throw TackError("cannot write to \(store.root): \(error)") }
        let lock = try store.fs.lock(at: store.state + "/locks/\(tool)@\(version.text).lock")
        lock.lock()
        defer { lock.unlock() }
        keepPart(of: dir, tool: tool, version: version)
        let trash = store.toolDirectory(tool) + "/.old-\(version.text)-removing"
        try? store.fs.remove(trash)
        do { try store.fs.move(dir, to: trash) } catch { throw TackError("cannot remove \(dir): \(error.reason)") }
        try? store.fs.remove(trash)
        // Every other build of that version goes with it.
        try? store.fs.remove(store.variantsDirectory(tool, version))
        if ((try? store.fs.list(store.variantsRoot(tool))) ?? []).isEmpty { try? store.fs.remove(store.variantsRoot(tool)) }
        if store.installedVersions(tool).isEmpty, ((try? store.fs.list(store.toolDirectory(tool))) ?? []).isEmpty {
            try? store.fs.remove(store.toolDirectory(tool))
        }
    }

    /// The part the install's record keeps (`KeptPart`), moved into the cache unless an entry
    /// is there already: into a temporary directory beside the entry with its `prefix`, then
    /// renamed into place. Best effort: anything that fails leaves it to be removed.
    func keepPart(of dir: String, tool: String, version: Version) {
        guard let text = store.installedEntry(tool, version)?.built[KeptPart.builtField],
              let kept = KeptPart(recorded: text) else { return }
        let entry = store.cache + "/" + kept.cacheEntry, part = dir + "/" + kept.part
        guard store.fs.info(entry) == nil, store.fs.linkTarget(part) == nil, store.fs.isDirectory(part) else { return }
        let temp = Paths.dirname(entry) + "/.tmp-\(getpid())-\(UInt64.random(in: 1...UInt64.max))"
        do {
            try store.fs.createDirectory(temp)
            try store.fs.move(part, to: temp + "/" + Paths.basename(kept.part))
            try store.fs.writeAtomically(temp + "/prefix", Array(dir.utf8), permissions: nil, flush: false)
            try store.fs.move(temp, to: entry)
        } catch {
            try? store.fs.remove(temp)
        }
    }
}
