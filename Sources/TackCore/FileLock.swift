#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file: released by the OS when the process dies, so a killed
/// install never blocks the next one.
public final class FileLock: @unchecked Sendable {
    let fd: Int32
    public init(path: String) throws(TackError) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TackError("cannot open \(path): \(String(cString: strerror(errno)))") }
    }
    deinit { close(fd) }
    public func tryLock() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }
    public func lock() { while flock(fd, LOCK_EX) != 0 && errno == EINTR {} }
    public func unlock() { _ = flock(fd, LOCK_UN) }
}

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
