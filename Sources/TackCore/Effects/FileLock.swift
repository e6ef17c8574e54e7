#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// An exclusive `flock` on a file (`LocalFileSystem.lock(at:)`): released by the OS when the
/// process dies, so a killed install never blocks the next one. Its holder writes what it
/// does into the file (`pid`, then a line of what), so one that waits says at once what it
/// waits for.
public final class FileLock: ExclusiveLock, @unchecked Sendable {
    let fd: Int32
    public let path: String


    public init(path: String) throws(TackError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw TackError("cannot open \(path): \(String(cString: strerror(errno)))") }
    }
    /// Lets go before closing: a child another thread is starting at this moment shares the
    /// descriptor until it execs, and `flock` holds while any copy is open, so a close alone
    /// could leave the lock held past its owner (the next command then says it is waiting).
    /// `LOCK_UN` frees it whatever copies exist, and is a no-op when this value never held it.
    deinit {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
    public func tryLock() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }
    public func lock() { while flock(fd, LOCK_EX) != 0 && errno == EINTR {} }
    public func unlock() {
        _ = ftruncate(fd, 0)
        _ = flock(fd, LOCK_UN)
    }

    /// Writes this process and what it does into the lock file (best effort: a full disk
    /// only loses the message).
    public func record(_ doing: String) {
        let text = Array("\(getpid())\n\(Terminal.escapeControls(doing))\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Who holds the lock now, as it wrote it, or nil.
    public func holder() -> LockHolder? { Self.holder(fd: fd) }

    /// Who holds the lock at `path`, as it wrote it (nil when nobody said, or it is free).
    public static func holder(at path: String) -> LockHolder? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return holder(fd: fd)
    }

    static func holder(fd: Int32) -> LockHolder? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBufferPointer { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let lines = String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, let pid = Int32(lines[0]), pid > 0 else { return nil }
        return LockHolder(pid: pid, doing: String(lines[1]))
    }
}
