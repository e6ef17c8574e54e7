#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

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
    /// Copies `from` to `to`, which must not exist: a file with its permissions, a directory
    /// with everything in it, a symbolic link as a link.
    func copy(_ from: String, to: String) throws(FileSystemError)
    /// Where the symbolic link at `path` points (as written in it), or nil when it is not one.
    func linkTarget(_ path: String) -> String?
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

extension FileSystem {
    /// Creates `path` and its parents, or says it cannot.
    public func makeDirectory(_ path: String) throws(TackError) {
        do { try createDirectory(path) } catch { throw TackError("cannot create \(path): \(error)") }
    }

    /// Copies `from` to `to`, replacing what is there, or says it cannot.
    public func copyReplacing(_ from: String, to: String) throws(TackError) {
        do {
            if info(to) != nil || linkTarget(to) != nil { try remove(to) }
            try copy(from, to: to)
        } catch { throw TackError("cannot copy \(from) to \(to): \(error)") }
    }
}
