#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// The real file system, through POSIX calls (no Foundation: this runs on the hot path).
public final class LocalFileSystem: FileSystem {
    /// Manifests, locks and version files are small; a larger file is a mistake, not input.
    public static let maxReadSize = 1 << 20

    public init() {}

    public func isBrokenLink(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) != 0 && lstat(path, &st) == 0
    }

    public func removeEmptyDirectory(_ path: String) -> Bool { rmdir(path) == 0 }

    public func syncDirectory(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    public func probe(_ path: String) -> FileProbe {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        if Self.type(st) == mode_t(S_IFLNK) {
            guard stat(path, &st) == 0 else { return .brokenLink }
        }
        return .present(Self.info(st))
    }

    public func info(_ path: String) -> FileInfo? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Self.info(st)
    }

    static func info(_ st: stat) -> FileInfo {
        let kind: FileInfo.Kind
        switch type(st) {
        case mode_t(S_IFREG): kind = .file
        case mode_t(S_IFDIR): kind = .directory
        default: kind = .other
        }
        #if canImport(Darwin)
        let ns = Int64(st.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtimespec.tv_nsec)
        let changed = Int64(st.st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctimespec.tv_nsec)
        #else
        let ns = Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec)
        let changed = Int64(st.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctim.tv_nsec)
        #endif
        return FileInfo(kind: kind, size: Int(st.st_size), mtime: ns, permissions: UInt16(st.st_mode & 0o7777), inode: UInt64(st.st_ino), ctime: changed)
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        try readWithInfo(path, limit: limit).bytes
    }

    public func readWithInfo(_ path: String, limit: Int) throws(FileSystemError) -> (bytes: [UInt8], info: FileInfo) {
        // Without blocking: a FIFO (or a device) where a file should be is refused below,
        // not waited on forever (a regular file's reads never block anyway).
        let fd = try Self.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileSystemError(path, .other("cannot stat")) }
        guard Self.type(st) == mode_t(S_IFREG) else { throw FileSystemError(path, .notAFile) }
        let size = Int(st.st_size)
        guard size <= limit else { throw FileSystemError(path, .tooLarge(size)) }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        // A read past the size fstat gave finds the end (or a file that grew since).
        var chunk = [UInt8](repeating: 0, count: min(size + 1, 65536))
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw FileSystemError(path, Self.code(errno: errno)) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw FileSystemError(path, .tooLarge(out.count)) }
        }
        return (out, Self.info(st))
    }

    public func writeUserFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        var st = stat()
        if lstat(path, &st) != 0 || Self.type(st) == mode_t(S_IFREG) {
            return try writeAtomically(path, bytes, permissions: nil)
        }
        if Self.type(st) == mode_t(S_IFDIR) { throw FileSystemError(path, .other("a directory")) }
        let fd = try Self.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        var open = true
        defer { if open { close(fd) } }
        try Self.writeAll(fd, bytes[...], path: path)
        open = false
        try Self.closeWritten(fd, path: path)
    }

    public func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: UInt16?, flush: Bool) throws(FileSystemError) {
        let tmp = "\(path).tmp-\(getpid())"
        do throws(FileSystemError) {
            let fd = try Self.openFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            var open = true
            defer { if open { close(fd) } }
            if let permissions, fchmod(fd, mode_t(permissions)) != 0 { throw FileSystemError(path, Self.code(errno: errno)) }
            try Self.writeAll(fd, bytes[...], path: path)
            // A network file system or a quota may report a failed write only here: the file
            // is then not renamed over the one it replaces.
            if flush, fsync(fd) != 0 { throw FileSystemError(path, Self.code(errno: errno)) }
            open = false
            try Self.closeWritten(fd, path: path)
        } catch {
            _ = unlink(tmp)
            throw FileSystemError(path, error.code)
        }
        // A cache is removed before it is replaced: ext4 flushes a file renamed over
        // another at once (auto_da_alloc), 0.14 ms of a snapshot's save.
        if !flush { _ = unlink(path) }
        guard rename(tmp, path) == 0 else {
            let code = Self.code(errno: errno)
            _ = unlink(tmp)
            throw FileSystemError(path, code)
        }
    }

    /// `open(2)` of `path`, retried when a signal interrupts it.
    static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(FileSystemError) -> Int32 {
        while true {
            let fd = open(path, flags, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw FileSystemError(path, code(errno: errno)) }
        }
    }

    /// `close(2)`, whose failure (a deferred write error) is the write's; an interruption is
    /// not (Linux has closed the descriptor by then).
    static func closeWritten(_ fd: Int32, path: String) throws(FileSystemError) {
        if close(fd) != 0 && errno != EINTR { throw FileSystemError(path, code(errno: errno)) }
    }

    /// All of `bytes` to `fd`, retried after an interruption or a short write.
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws(FileSystemError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { b in write(fd, b.baseAddress! + written, b.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FileSystemError(path, n < 0 ? code(errno: errno) : .other("nothing was written")) }
            written += n
        }
    }

    /// The file type bits of `st` (`S_IFREG`, `S_IFDIR`, `S_IFLNK`, …).
    static func type(_ st: stat) -> mode_t { st.st_mode & mode_t(S_IFMT) }

    public func copy(_ from: String, to: String) throws(FileSystemError) {
        var st = stat()
        guard lstat(from, &st) == 0 else { throw FileSystemError(from, Self.code(errno: errno)) }
        switch Self.type(st) {
        case mode_t(S_IFLNK):
            guard let target = linkTarget(from) else { throw FileSystemError(from, Self.code(errno: errno)) }
            guard symlink(target, to) == 0 else { throw FileSystemError(to, Self.code(errno: errno)) }
        case mode_t(S_IFDIR):
            guard mkdir(to, st.st_mode & 0o7777) == 0 else { throw FileSystemError(to, Self.code(errno: errno)) }
            for name in try list(from) { try copy(from + "/" + name, to: to + "/" + name) }
        case mode_t(S_IFREG):
            try copyFile(from, to: to, mode: st.st_mode & 0o7777)
        default:
            throw FileSystemError(from, .other("not a file, a directory or a link"))
        }
    }

    /// A regular file's bytes into a new file with `mode`.
    func copyFile(_ from: String, to: String, mode: mode_t) throws(FileSystemError) {
        let source = open(from, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw FileSystemError(from, Self.code(errno: errno)) }
        defer { close(source) }
        let target = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard target >= 0 else { throw FileSystemError(to, Self.code(errno: errno)) }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { posixRead(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw FileSystemError(from, Self.code(errno: errno)) }
            if n == 0 { break }
            try Self.writeAll(target, buffer[0..<n], path: to)
        }
        // The mode as asked, whatever the umask took away.
        _ = fchmod(target, mode)
    }

    public func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func move(_ from: String, to: String) throws(FileSystemError) {
        guard rename(from, to) == 0 else { throw FileSystemError(to, Self.code(errno: errno)) }
    }

    public func linkOrCopy(_ from: String, to: String) throws(FileSystemError) {
        if link(from, to) == 0 { return }
        var st = stat()
        guard lstat(from, &st) == 0 else { throw FileSystemError(from, Self.code(errno: errno)) }
        try copyFile(from, to: to, mode: st.st_mode & 0o7777)
    }

    public func versionKey(_ path: String) -> String { info(path)?.statKey ?? "-" }

    public func isExecutable(_ path: String) -> Bool {
        info(path)?.kind == .file && access(path, X_OK) == 0
    }

    public func makeLink(_ path: String, to target: String) throws(FileSystemError) {
        guard symlink(target, path) == 0 else { throw FileSystemError(path, Self.code(errno: errno)) }
    }

    public func makeExecutable(_ path: String) throws(FileSystemError) {
        guard chmod(path, 0o755) == 0 else { throw FileSystemError(path, Self.code(errno: errno)) }
    }

    public func lock(at path: String) throws(TackError) -> any ExclusiveLock { try FileLock(path: path) }

    public func lockHolder(at path: String) -> LockHolder? { FileLock.holder(at: path) }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        if isDirectory(path) { return }
        let parent = Paths.dirname(path)
        if parent != path { try createDirectory(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw FileSystemError(path, Self.code(errno: errno))
        }
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        try listWithInfo(path).names
    }

    public func listWithInfo(_ path: String) throws(FileSystemError) -> (names: [String], info: FileInfo) {
        guard let dir = opendir(path) else { throw FileSystemError(path, Self.code(errno: errno)) }
        defer { closedir(dir) }
        var st = stat()
        guard fstat(dirfd(dir), &st) == 0 else { throw FileSystemError(path, Self.code(errno: errno)) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return (names.sorted(), Self.info(st))
    }

    public func remove(_ path: String) throws(FileSystemError) {
        if unlink(path) == 0 || errno == ENOENT { return }
        if errno == EISDIR || errno == EPERM, isDirectory(path) {
            for name in try list(path) { try remove(path + "/" + name) }
            if rmdir(path) == 0 { return }
        }
        throw FileSystemError(path, Self.code(errno: errno))
    }

    public func isWritableDirectory(_ path: String) -> Bool {
        isDirectory(path) && access(path, W_OK) == 0
    }

    /// What an error number from a call on a path means to tack.
    static func code(errno number: Int32) -> FileSystemError.Code {
        switch number {
        case ENOENT, ENOTDIR: return .notFound
        case EACCES, EPERM: return .permission
        case EISDIR: return .notAFile
        default: return .other(String(cString: strerror(number)))
        }
    }
}

/// The C library's `read` (inside `LocalFileSystem`, `read` names its own method).
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

