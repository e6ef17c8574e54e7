/// Whether `tack install` has nothing to do: every lockable pin has a lock entry that still
/// matches it (and has its checksum for this platform), the locks hold nothing else, and every
/// locked version is installed from that entry.
/// Cheap enough for the front end, which answers a no-op install without starting tack-cli.
public enum UpToDate {
    public static func check(_ resolution: Resolution, settings: Settings) -> Bool {
        guard let store = settings.store else { return false }
        var locks: [String: Lockfile] = [:]
        var pinnedPerLock: [String: Set<String>] = [:]
        for pin in resolution.pins {
            let r = pin.request
            if case .system = r.requirement { continue }
            // Environment overrides, and tools no registry knows, need the full resolver.
            guard let dir = pin.lockDirectory, r.source.identity != nil else { return false }
            if locks[dir] == nil {
                guard let lock = try? Lockfile.load(Paths.child(dir, Lockfile.fileName), fs: settings.fs) else { return false }
                locks[dir] = lock
            }
            // The entry describes the pin, has what --frozen verifies, and the install is the
            // one it describes, with the add-ons it pins (a toolchain's SDKs).
            guard let entry = locks[dir]?.tools[r.name],
                  LockMatch(pinOnly: r).isReadyToInstall(entry),
                  let record = store.installedEntry(r.name, entry.version), entry.isSameInstall(as: record),
                  SwiftSDK.missing(entry, install: store.installDirectory(r.name, entry.version), fs: settings.fs).isEmpty
            else { return false }
            pinnedPerLock[dir, default: []].insert(r.name)
        }
        for (dir, lock) in locks where Set(lock.tools.keys) != pinnedPerLock[dir] { return false }
        return true
    }
}
