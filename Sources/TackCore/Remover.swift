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
            let others = store.installedVersions(tool).map(\.text)
            throw TackError("\(tool) \(version) is not installed" + (others.isEmpty ? " — `tack ls` lists what is" : " (installed: \(others.joined(separator: ", "))) — uninstall one of those"))
        }
        do { try store.fs.createDirectory(store.state + "/locks") } catch { throw TackError("cannot write to \(store.root): \(error)") }
        let lock = try FileLock(path: store.state + "/locks/\(tool)@\(version.text).lock")
        lock.lock()
        defer { lock.unlock() }
        let trash = store.toolDirectory(tool) + "/.old-\(version.text)-removing"
        try? store.fs.remove(trash)
        guard PosixRename.rename(dir, trash) else { throw TackError("cannot remove \(dir): permission denied or busy") }
        try? store.fs.remove(trash)
        // Every other build of that version goes with it.
        try? store.fs.remove(store.variantsDirectory(tool, version))
        if ((try? store.fs.list(store.toolDirectory(tool) + "/.variants")) ?? []).isEmpty { try? store.fs.remove(store.toolDirectory(tool) + "/.variants") }
        if store.installedVersions(tool).isEmpty, ((try? store.fs.list(store.toolDirectory(tool))) ?? []).isEmpty {
            try? store.fs.remove(store.toolDirectory(tool))
        }
    }
}
