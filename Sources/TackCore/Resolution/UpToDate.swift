/// Whether `tack install` has nothing to do, with or without --frozen: every lockable pin has a
/// lock entry that still matches it (and has what a frozen install verifies on this platform),
/// the locks cover this platform and hold nothing else, and every locked version is installed
/// from that entry. `tack exec --frozen` runs from the snapshot only when this holds.
/// Cheap enough for the front end, which answers a no-op install without starting tack-cli.
public enum UpToDate {
    ///
    /// `locks` and `rows`, where the caller has them (`Resolution.readLocks`, `current`): the
    /// locks as read and each pin's install, so that nothing is read or parsed twice.
    public static func check(_ resolution: Resolution, settings: Settings, locks read: [String: Lockfile?]? = nil, rows: [CurrentTool]? = nil) -> Bool {
        guard let store = settings.store else { return false }
        var locks: [String: Lockfile] = [:]
        var pinnedPerLock: [String: Set<String>] = [:]
        for (index, pin) in resolution.pins.enumerated() {
            let r = pin.request
            if case .system = r.requirement { continue }
            // Environment overrides, and tools no registry knows, need the full resolver.
            guard let identity = r.source.identity, pin.overridden == nil, r.origin.kind != .environment, r.origin.kind != .commandLine else { return false }
            // A version file with no tack.lock: installed when an install from its source
            // satisfies it (what `tack install` would pick).
            guard let dir = pin.lockDirectory else {
                let versions = store.installedVersions(r.name).filter { v in
                    store.installs(r.name, v).contains { $0.record.isFrom(r, backend: r.source.backend, source: identity) }
                }
                guard r.requirement.best(of: versions) != nil else { return false }
                continue
            }
            if locks[dir] == nil {
                // A lock that does not cover this platform fails a frozen install: not a no-op.
                let lock = read.map { $0[dir] ?? nil } ?? (try? Lockfile.load(Paths.child(dir, Lockfile.fileName), fs: settings.fs, backends: settings.backends))
                guard let lock, lock.uncovered() == nil else { return false }
                locks[dir] = lock
            }
            // The entry describes the pin, has what --frozen verifies, and the install is the
            // one it describes (in the version's own directory), with the add-ons it pins (a
            // toolchain's SDKs). A row from `current` made from this entry says where its
            // install is, found by the same rule.
            let versionDirectory = { (entry: LockedTool) in store.installDirectory(r.name, entry.version) }
            func installed(_ entry: LockedTool) -> Bool {
                if let rows, index < rows.count, rows[index].tool == r.name, rows[index].version == entry.version.text {
                    return rows[index].installDirectory == versionDirectory(entry)
                }
                guard let record = store.installedEntry(r.name, entry.version) else { return false }
                return entry.isSameInstall(as: record)
            }
            guard let entry = locks[dir]?.tools[r.name],
                  LockMatch(pinOnly: r).isReadyToInstall(entry),
                  installed(entry),
                  SwiftSDK.missing(entry, install: versionDirectory(entry), fs: settings.fs).isEmpty
            else { return false }
            pinnedPerLock[dir, default: []].insert(r.name)
        }
        for (dir, lock) in locks where Set(lock.tools.keys) != pinnedPerLock[dir] { return false }
        return true
    }
}
