#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// What tack needs to know about a file without reading it.
public struct FileInfo: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case file, directory, other }
    public var kind: Kind
    public var size: Int
    /// Modification time in nanoseconds since the epoch.
    public var mtime: Int64
    public init(kind: Kind, size: Int, mtime: Int64) {
        self.kind = kind
        self.size = size
        self.mtime = mtime
    }
}

public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case notFound, tooLarge(Int), notAFile, permission, other(String) }
    public var path: String
    public var code: Code
    public init(_ path: String, _ code: Code) {
        self.path = path
        self.code = code
    }
    public var description: String {
        switch code {
        case .notFound: return "\(path): no such file"
        case .tooLarge(let n): return "\(path): the file is \(formatSize(n)); tack reads files of at most \(formatSize(LocalFileSystem.maxReadSize))"
        case .notAFile: return "\(path): not a regular file"
        case .permission: return "\(path): permission denied"
        case .other(let why): return "\(path): \(why)"
        }
    }
}

/// The file system as tack sees it, so that most tests can run on `InMemoryFileSystem`.
public protocol FileSystem: Sendable {
    func info(_ path: String) -> FileInfo?
    /// Reads a whole regular file of at most `limit` bytes.
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8]
    /// Writes a file atomically: a temporary file beside it, flushed, then renamed over it.
    func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError)
    func createDirectory(_ path: String) throws(FileSystemError)
    func list(_ path: String) throws(FileSystemError) -> [String]
    func remove(_ path: String) throws(FileSystemError)
    func isWritableDirectory(_ path: String) -> Bool
    /// Makes the file at `path` executable by everyone who may read it (mode 0755).
    func makeExecutable(_ path: String) throws(FileSystemError)
    /// Whether `path` is a symbolic link that leads nowhere (a loop, or a missing target).
    func isBrokenLink(_ path: String) -> Bool
    /// Runs `body` holding an exclusive lock named by `lockPath` (for a real file system, an
    /// `flock` on that file, released if the process dies): what every read-modify-write of a
    /// shared file holds.
    func exclusively<T>(_ lockPath: String, _ body: () throws(TackError) -> T) throws(TackError) -> T
}

extension FileSystem {
    public func isBrokenLink(_ path: String) -> Bool { false }
}

extension FileSystem {
    public func read(_ path: String) throws(FileSystemError) -> [UInt8] {
        try read(path, limit: LocalFileSystem.maxReadSize)
    }
    public func isFile(_ path: String) -> Bool { info(path)?.kind == .file }
    public func isDirectory(_ path: String) -> Bool { info(path)?.kind == .directory }
}

public func formatSize(_ n: Int) -> String {
    for (unit, shift) in [("TiB", 40), ("GiB", 30)] where n >= 1 << shift {
        let tenths = Int((Double(n) / Double(1 << shift) * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
    if n >= 1 << 20 {
        let tenths = n * 10 / (1 << 20)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
    if n >= 1 << 10 { return "\(n >> 10) KiB" }
    return "\(n) bytes"
}

/// The real file system, through POSIX calls (no Foundation: this runs on the hot path).
public struct LocalFileSystem: FileSystem {
    /// Manifests, locks and version files are small; a larger file is a mistake, not input.
    public static let maxReadSize = 1 << 20

    public init() {}

    public func isBrokenLink(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) != 0 && lstat(path, &st) == 0
    }

    public func info(_ path: String) -> FileInfo? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let kind: FileInfo.Kind
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        #if canImport(Darwin)
        let ns = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
        let ns = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
        return FileInfo(kind: kind, size: Int(st.st_size), mtime: ns)
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw FileSystemError(path, Self.code(error))
        }
        defer { try? fd.close() }
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0 else { throw FileSystemError(path, .other("cannot stat")) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw FileSystemError(path, .notAFile) }
        let size = Int(st.st_size)
        guard size <= limit else { throw FileSystemError(path, .tooLarge(size)) }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                throw FileSystemError(path, Self.code(error))
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw FileSystemError(path, .tooLarge(out.count)) }
        }
        return out
    }

    public func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        let tmp = "\(path).tmp-\(getpid())"
        do {
            let fd = try FileDescriptor.open(
                FilePath(tmp), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            do {
                _ = try fd.writeAll(bytes)
                _ = fsync(fd.rawValue)
                try fd.close()
            } catch {
                try? fd.close()
                throw error
            }
            guard rename(tmp, path) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            _ = unlink(tmp)
            throw FileSystemError(path, Self.code(error))
        }
    }

    public func makeExecutable(_ path: String) throws(FileSystemError) {
        guard chmod(path, 0o755) == 0 else { throw FileSystemError(path, Self.code(Errno(rawValue: errno))) }
    }

    public func exclusively<T>(_ lockPath: String, _ body: () throws(TackError) -> T) throws(TackError) -> T {
        let lock = try FileLock(path: lockPath)
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        if isDirectory(path) { return }
        let parent = Paths.dirname(path)
        if parent != path { try createDirectory(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw FileSystemError(path, Self.code(Errno(rawValue: errno)))
        }
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        guard let dir = opendir(path) else { throw FileSystemError(path, Self.code(Errno(rawValue: errno))) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public func remove(_ path: String) throws(FileSystemError) {
        if unlink(path) == 0 || errno == ENOENT { return }
        if errno == EISDIR || errno == EPERM, isDirectory(path) {
            for name in try list(path) { try remove(path + "/" + name) }
            if rmdir(path) == 0 { return }
        }
        throw FileSystemError(path, Self.code(Errno(rawValue: errno)))
    }

    public func isWritableDirectory(_ path: String) -> Bool {
        isDirectory(path) && access(path, W_OK) == 0
    }

    static func code(_ error: any Error) -> FileSystemError.Code {
        guard let e = error as? Errno else { return .other("\(error)") }
        switch e {
        case .noSuchFileOrDirectory, .notDirectory: return .notFound
        case .permissionDenied, .notPermitted: return .permission
        case .isDirectory: return .notAFile
        default: return .other(String(cString: strerror(e.rawValue)))
        }
    }
}

/// Path arithmetic on absolute, normalised strings.
public enum Paths {
    public static func dirname(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "." }
        return i == path.startIndex ? "/" : String(path[..<i])
    }

    public static func basename(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: i)...])
    }

    public static func join(_ base: String, _ name: String) -> String {
        if name.hasPrefix("/") { return normalize(name) }
        return normalize(base == "/" ? "/" + name : base + "/" + name)
    }

    /// `name` inside the normalised directory `dir`, without normalising again: the resolver
    /// builds dozens of these per run, on the hot path.
    public static func child(_ dir: String, _ name: String) -> String {
        dir == "/" ? "/" + name : dir + "/" + name
    }

    /// Removes `.`, `..` and repeated slashes lexically.
    public static func normalize(_ path: String) -> String {
        var out: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = out.popLast(); continue }
            out.append(part)
        }
        return "/" + out.joined(separator: "/")
    }

    /// `~/x` for paths under `home`, for messages people read.
    public static func abbreviate(_ path: String, home: String?) -> String {
        guard let home, home.count > 1, path.hasPrefix(home) else { return path }
        let rest = path.dropFirst(home.count)
        if rest.isEmpty { return "~" }
        return rest.first == "/" ? "~" + rest : path
    }
}

/// `rename(2)`, for atomic moves within one file system.
public enum PosixRename {
    public static func rename(_ from: String, _ to: String) -> Bool {
        #if canImport(Darwin)
        return Darwin.rename(from, to) == 0
        #else
        return Glibc.rename(from, to) == 0
        #endif
    }
}
