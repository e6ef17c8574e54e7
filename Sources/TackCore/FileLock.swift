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
