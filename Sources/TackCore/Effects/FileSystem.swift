#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// The file system as tack sees it, so that most tests can run on `InMemoryFileSystem`.
public protocol FileSystem: AnyObject, Sendable {
    func info(_ path: String) -> FileInfo?
    /// Reads a whole regular file of at most `limit` bytes.
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8]
    /// `read`, with the file's stat as it was when opened (one open instead of a `stat` and an
    /// open, and the times of the very file read, not of one that replaced it).
    func readWithInfo(_ path: String, limit: Int) throws(FileSystemError) -> (bytes: [UInt8], info: FileInfo)
    /// Writes a file atomically: a temporary file beside it, flushed (with `flush`) then renamed
    /// over it; with `permissions` exactly those (whatever the umask), else the usual 0644 less
    /// the umask. Without `flush` a reader sees the old file, the new one or, for a moment, none
    /// (the old one is removed first: renaming over a file makes ext4 write the new one out at
    /// once, four times the cost), never a part, and a crash may leave it empty: for what can
    /// be made again (a cache, a snapshot) or what is made durable another way (a staged
    /// install, renamed into place when whole).
    func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: UInt16?, flush: Bool) throws(FileSystemError)
    /// Writes a file at a path the user named (`tack sbom --output PATH`): replaced atomically
    /// where nothing is there or a regular file is; anything else — a device, a FIFO, a link
    /// the user chose, `/dev/stdout` — is opened and written through, never replaced.
    func writeUserFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError)
    /// Renames `from` to `to` in one step, replacing a file there.
    func move(_ from: String, to: String) throws(FileSystemError)
    /// A hard link at `to` to the file at `from`, or a copy where no link can be made (another
    /// device). Whoever changes either later replaces it (a new file, then a rename).
    func linkOrCopy(_ from: String, to: String) throws(FileSystemError)
    func createDirectory(_ path: String) throws(FileSystemError)
    func list(_ path: String) throws(FileSystemError) -> [String]
    /// `list`, with the directory's stat as it was when opened, before its names were read (a
    /// name that comes after moves the directory's times past it).
    func listWithInfo(_ path: String) throws(FileSystemError) -> (names: [String], info: FileInfo)
    func remove(_ path: String) throws(FileSystemError)
    func isWritableDirectory(_ path: String) -> Bool
    /// Copies `from` to `to`, which must not exist: a file with its permissions, a directory
    /// with everything in it, a symbolic link as a link.
    func copy(_ from: String, to: String) throws(FileSystemError)
    /// Where the symbolic link at `path` points (as written in it), or nil when it is not one.
    func linkTarget(_ path: String) -> String?
    /// Makes the file at `path` executable by everyone who may read it (mode 0755).
    func makeExecutable(_ path: String) throws(FileSystemError)
    /// Whether `path` is a regular file this process may run.
    func isExecutable(_ path: String) -> Bool
    /// Makes a symbolic link at `path` that holds `target` (as written: relative or absolute).
    func makeLink(_ path: String, to target: String) throws(FileSystemError)
    /// A string that changes whenever the file at `path` is written or replaced (on a disk:
    /// its inode, size, modification and change times); `-` when there is no file.
    func versionKey(_ path: String) -> String
    /// Whether `path` is a symbolic link that leads nowhere (a loop, or a missing target).
    func isBrokenLink(_ path: String) -> Bool
    /// What is at `path` (links followed), told apart from nothing and from a link that leads
    /// nowhere: one system call where nothing or no link is there, the common case of the
    /// files a resolution looks for in every directory.
    func probe(_ path: String) -> FileProbe
    /// Removes the directory at `path` only if it is empty (`rmdir`); whether it went. What a
    /// tool directory left empty needs: a version another process adds meanwhile stays.
    func removeEmptyDirectory(_ path: String) -> Bool
    /// Makes a directory's entries durable (its renames and new names survive a crash).
    func syncDirectory(_ path: String) -> Bool
    /// The exclusive lock on the file at `path` (made when missing, in a directory that must
    /// exist), not taken yet: what an install, a removal and a project's commands hold.
    func lock(at path: String) throws(TackError) -> any ExclusiveLock
    /// Who holds the lock at `path`, as it wrote it (nil when nobody said, or it is free).
    func lockHolder(at path: String) -> LockHolder?
    /// Whether a name coming or going in the directory at `path` surely moves its times, by
    /// this machine's clock: a local file system (not NFS, SMB or FUSE, whose times come from
    /// elsewhere or do not move). Only then may a snapshot let the directory vouch for names.
    func keepsDirectoryTimes(_ path: String) -> Bool
}

extension FileSystem {
    public func isBrokenLink(_ path: String) -> Bool { false }

    public func readWithInfo(_ path: String, limit: Int) throws(FileSystemError) -> (bytes: [UInt8], info: FileInfo) {
        guard let info = info(path) else { throw FileSystemError(path, .notFound) }
        return (try read(path, limit: limit), info)
    }

    public func listWithInfo(_ path: String) throws(FileSystemError) -> (names: [String], info: FileInfo) {
        guard let info = info(path) else { throw FileSystemError(path, .notFound) }
        return (try list(path), info)
    }

    public func probe(_ path: String) -> FileProbe {
        if let info = info(path) { return .present(info) }
        return isBrokenLink(path) ? .brokenLink : .missing
    }
}

/// What `FileSystem.probe` found.
public enum FileProbe: Sendable, Equatable {
    case missing
    case brokenLink
    case present(FileInfo)

    /// What is there, links followed (nil for nothing or a broken link).
    public var info: FileInfo? {
        if case .present(let info) = self { return info }
        return nil
    }
}

extension FileSystem {
    /// Writes a file atomically (see the requirement), with the usual permissions.
    public func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        try writeAtomically(path, bytes, permissions: nil, flush: true)
    }

    /// Writes a file atomically and flushed (see the requirement), with these permissions.
    public func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: UInt16?) throws(FileSystemError) {
        try writeAtomically(path, bytes, permissions: permissions, flush: true)
    }

    public func read(_ path: String) throws(FileSystemError) -> [UInt8] {
        try read(path, limit: LocalFileSystem.maxReadSize)
    }
    public func isFile(_ path: String) -> Bool { info(path)?.kind == .file }
    public func isDirectory(_ path: String) -> Bool { info(path)?.kind == .directory }
}

extension FileSystem {
    /// Every path under `root`, relative to it, sorted, a directory before what it holds.
    /// Symbolic links are listed, never followed. Empty when `root` cannot be read.
    public func walk(_ root: String) -> [String] {
        var out: [String] = []
        func visit(_ relative: String) {
            let full = relative.isEmpty ? root : root + "/" + relative
            for name in (try? list(full)) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                out.append(child)
                if linkTarget(root + "/" + child) == nil, isDirectory(root + "/" + child) { visit(child) }
            }
        }
        visit("")
        return out
    }

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

/// An exclusive lock on a file (`FileSystem.lock(at:)`), taken and released by whoever has
/// the value, and held across awaits until released or the value goes: another process (in
/// memory, another holder) waits for it. Its holder writes what it does into it (`record`),
/// so one that waits says at once what it waits for.
public protocol ExclusiveLock: AnyObject, Sendable {
    /// Takes it if it is free; whether it did.
    func tryLock() -> Bool
    /// Takes it, waiting while another holds it.
    func lock()
    func unlock()
    /// Writes this process and what it does into the lock, for whoever waits next.
    func record(_ doing: String)
    /// Who holds it now, as they wrote it, or nil.
    func holder() -> LockHolder?
}

extension ExclusiveLock {
    /// Takes the lock, saying `doing` to whoever waits for it next; when another holds it,
    /// `waiting` is told at once who (nil when its holder has not said yet), then this blocks
    /// until it is free.
    public func lock(as doing: String, waiting: (LockHolder?) -> Void) {
        if !tryLock() {
            waiting(holder())
            lock()
        }
        record(doing)
    }
}

/// Who holds a lock, as its holder wrote it.
public struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    public var pid: Int32
    public var doing: String
    public init(pid: Int32, doing: String) {
        self.pid = pid
        self.doing = doing
    }
    /// `pid 123, which is installing swift-protobuf 1.39.0`
    public var description: String { doing.isEmpty ? "pid \(pid)" : "pid \(pid), which is \(doing)" }
}
