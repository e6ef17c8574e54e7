/// The lock a command holds while it reads, changes and writes a project's files (tack.yml,
/// tack.local.yml, tack.lock): eight `tack use` at once in one project keep all eight pins. It
/// lives in the store, keyed by the project's directory, never in the project.
public enum ProjectLock {
    public static func path(store: Store, root: String) -> String {
        store.state + "/locks/project-" + String(SHA256Digest.hex(Array(root.utf8)).prefix(24)) + ".lock"
    }

    /// Waits for the project's lock and returns it held; it is released when the value goes.
    public static func acquire(store: Store, root: String) throws(TackError) -> FileLock {
        do { try store.fs.createDirectory(store.state + "/locks") } catch {
            throw TackError("cannot write to \(store.root): \(error) — check TACK_HOME")
        }
        let lock = try FileLock(path: path(store: store, root: root))
        lock.lock()
        return lock
    }
}
