/// The lock a command holds while it reads, changes and writes a project's files (tack.yml,
/// tack.local.yml, tack.lock): eight `tack use` at once in one project keep all eight pins. It
/// lives in the store, keyed by the project's directory, never in the project.
public enum ProjectLock {
    public static func path(store: Store, root: String) -> String {
        store.state + "/locks/project-" + String(SHA256Digest.hex(Array(root.utf8)).prefix(24)) + ".lock"
    }

    /// Waits for the project's lock and returns it held; it is released when the value goes.
    /// Another process holding it is said at once through `waiting`: `waiting for pid 123,
    /// which is installing swift-protobuf 1.39.0` (what it installs now, where it holds a
    /// tool's lock too).
    public static func acquire(store: Store, root: String, waiting: (String) -> Void = { _ in }) throws(TackError) -> any ExclusiveLock {
        do { try store.fs.createDirectory(store.state + "/locks") } catch {
            throw TackError("cannot write to \(store.root): \(error) — check TACK_HOME")
        }
        let lock = try store.fs.lock(at: path(store: store, root: root))
        lock.lock(as: "working in \(root)") { holder in
            waiting("waiting for \(holder.map { (installing(by: $0, store: store) ?? $0).description } ?? "another tack working in \(root)")")
        }
        return lock
    }

    /// The tool lock `holder`'s process holds too, as it said (what it installs), or nil.
    static func installing(by holder: LockHolder, store: Store) -> LockHolder? {
        let dir = store.state + "/locks"
        for name in ((try? store.fs.list(dir)) ?? []).sorted() where name.contains("@") && name.hasSuffix(".lock") {
            if let h = store.fs.lockHolder(at: dir + "/" + name), h.pid == holder.pid { return h }
        }
        return nil
    }
}
