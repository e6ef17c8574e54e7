#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// A file system in memory, for tests: no disk, no clean-up, and a clock tests control.
public final class InMemoryFileSystem: FileSystem, @unchecked Sendable {
    private enum Entry {
        case file([UInt8], mtime: Int64)
        case directory(mtime: Int64)
    }
    private var entries: [String: Entry] = ["/": .directory(mtime: 0)]
    private var clock: Int64 = 1_000_000_000

    /// Sets the clock (ns since the epoch): each change moves it on by a nanosecond and is
    /// stamped with it, so the next is stamped `ns + 1`.
    public func setClock(_ ns: Int64) { lock.locked { clock = ns } }
    private let lock = PThreadMutex()
    /// The locks taken on each path (`lock(at:)`), shared by every value for that path.
    private var lockSlots: [String: MemoryLock.Slot] = [:]

    public func lock(at path: String) throws(TackError) -> any ExclusiveLock {
        let p = Paths.normalize(path)
        guard isDirectory(Paths.dirname(p)) else { throw TackError("cannot open \(path): No such file or directory") }
        if info(p) == nil {
            do { try writeAtomically(p, [], permissions: 0o644, flush: false) } catch { throw TackError("cannot open \(path): \(error)") }
        }
        let slot = lock.locked { () -> MemoryLock.Slot in
            if let slot = lockSlots[p] { return slot }
            let slot = MemoryLock.Slot()
            lockSlots[p] = slot
            return slot
        }
        return MemoryLock(slot: slot)
    }

    public func lockHolder(at path: String) -> LockHolder? {
        guard let slot = lock.locked({ lockSlots[Paths.normalize(path)] }) else { return nil }
        return slot.locked { slot.said }
    }

    private var executables: Set<String> = []

    public func copy(_ from: String, to: String) throws(FileSystemError) {
        let f = Paths.normalize(from), t = Paths.normalize(to)
        try lock.locked { () throws(FileSystemError) in
            guard entries[f] != nil || links[f] != nil else { throw FileSystemError(from, .notFound) }
            guard case .directory = entries[Paths.dirname(t)] else { throw FileSystemError(to, .notFound) }
            guard entries[t] == nil, links[t] == nil else { throw FileSystemError(to, .other("it exists")) }
            for (path, entry) in entries where path == f || path.hasPrefix(f + "/") {
                entries[t + path.dropFirst(f.count)] = entry
            }
            for (path, target) in links where path == f || path.hasPrefix(f + "/") {
                links[t + path.dropFirst(f.count)] = target
            }
            clock += 1
            touchDirectory(of: t)
        }
    }

    private var links: [String: String] = [:]

    /// Links are kept apart from files: one is listed by `linkTarget`, never followed.
    public func linkTarget(_ path: String) -> String? { lock.locked { links[Paths.normalize(path)] } }

    public func makeLink(_ path: String, to target: String) throws(FileSystemError) {
        let key = Paths.normalize(path)
        try lock.locked { () throws(FileSystemError) in
            guard case .directory = entries[Paths.dirname(key)] else { throw FileSystemError(path, .notFound) }
            guard entries[key] == nil, links[key] == nil else { throw FileSystemError(path, .other("it exists")) }
            links[key] = target
            clock += 1
            touchDirectory(of: key)
        }
    }

    public func makeExecutable(_ path: String) throws(FileSystemError) {
        let key = Paths.normalize(path)
        try lock.locked { () throws(FileSystemError) in
            guard case .file? = entries[key] else { throw FileSystemError(path, .notFound) }
            executables.insert(key)
        }
    }

    /// Whether `makeExecutable` was called for the file at `path` (and it was not replaced since).
    public func isExecutable(_ path: String) -> Bool {
        lock.locked {
            let key = Paths.normalize(path)
            guard case .file? = entries[key] else { return false }
            return executables.contains(key)
        }
    }

    public init(files: [String: String] = [:]) {
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            seed(path, Array(text.utf8))
        }
    }

    /// A file and the directories above it, for a test's starting state.
    public func seed(_ path: String, _ bytes: [UInt8]) {
        let p = Paths.normalize(path)
        lock.locked {
            var dir = Paths.dirname(p)
            var made: [String] = []
            while entries[dir] == nil {
                entries[dir] = .directory(mtime: clock)
                made.append(dir)
                dir = Paths.dirname(dir)
            }
            clock += 1
            entries[p] = .file(bytes, mtime: clock)
            touchDirectory(of: p)
            // A directory made for it is a name come into the one above.
            if let top = made.last { touchDirectory(of: top) }
        }
    }

    /// A name came, went or was replaced in the directory holding `path`: the directory's
    /// times move, as a real one's do (a snapshot lets an unchanged directory vouch for the
    /// names it did not hold). Called holding `lock`.
    private func touchDirectory(of path: String) {
        let dir = Paths.dirname(path)
        if case .directory = entries[dir] { entries[dir] = .directory(mtime: clock) }
    }

    /// One look at a path: asked about (`info`, and so `probe`, `isDirectory` …), read or listed.
    public struct Look: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case info, read, list }
        public var kind: Kind
        public var path: String
    }

    /// The looks at paths so far, in order: for tests of what a command looks at.
    public var looks: [Look] { lock.locked { lookedAt } }
    /// The paths of `looks`.
    public var looked: [String] { lock.locked { lookedAt.map { $0.path } } }
    private var lookedAt: [Look] = []

    public func info(_ path: String) -> FileInfo? {
        let p = Paths.normalize(path)
        return lock.locked {
            lookedAt.append(Look(kind: .info, path: p))
            switch entries[p] {
            case .file(let bytes, let m):
                return FileInfo(kind: .file, size: bytes.count, mtime: m, permissions: executables.contains(p) ? 0o755 : 0o644)
            case .directory(let m): return FileInfo(kind: .directory, size: 0, mtime: m)
            case nil: return nil
            }
        }
    }

    /// Bytes returned by `read` so far: the work a resolution does, for tests that it stays
    /// linear in the number of pins.
    public var bytesRead: Int { lock.locked { readCount } }
    private var readCount = 0

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        let p = Paths.normalize(path)
        let entry = lock.locked { () -> Entry? in
            lookedAt.append(Look(kind: .read, path: p))
            return entries[p]
        }
        switch entry {
        case .file(let bytes, _):
            guard bytes.count <= limit else { throw FileSystemError(path, .tooLarge(bytes.count)) }
            lock.locked { readCount += bytes.count }
            return bytes
        case .directory: throw FileSystemError(path, .notAFile)
        case nil: throw FileSystemError(path, .notFound)
        }
    }

    public func move(_ from: String, to: String) throws(FileSystemError) {
        let f = Paths.normalize(from), t = Paths.normalize(to)
        try lock.locked { () throws(FileSystemError) in
            guard entries[f] != nil || links[f] != nil else { throw FileSystemError(from, .notFound) }
            if case .directory? = entries[t], (entries.keys.contains { $0.hasPrefix(t + "/") } || links.keys.contains { $0.hasPrefix(t + "/") }) {
                throw FileSystemError(to, .other("a directory that is not empty is in the way"))
            }
            let moving = entries.filter { $0.key == f || $0.key.hasPrefix(f + "/") }
            for (path, _) in moving { entries[path] = nil }
            entries[t] = nil
            links[t] = nil
            for (path, entry) in moving { entries[t + path.dropFirst(f.count)] = entry }
            let movingLinks = links.filter { $0.key == f || $0.key.hasPrefix(f + "/") }
            for (path, target) in movingLinks {
                links[path] = nil
                links[t + path.dropFirst(f.count)] = target
            }
            executables = Set(executables.map { $0 == f || $0.hasPrefix(f + "/") ? t + $0.dropFirst(f.count) : $0 })
            clock += 1
            touchDirectory(of: f)
            touchDirectory(of: t)
        }
    }

    public func versionKey(_ path: String) -> String {
        guard let info = info(path) else { return "-" }
        return "\(info.size):\(info.mtime)"
    }

    public func linkOrCopy(_ from: String, to: String) throws(FileSystemError) {
        try copy(from, to: to)
    }

    public func writeUserFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        try writeAtomically(path, bytes, permissions: nil)
    }

    public func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: UInt16?, flush: Bool) throws(FileSystemError) {
        let p = Paths.normalize(path)
        try lock.locked { () throws(FileSystemError) in
            // As on disk: the directory must be there already.
            guard case .directory = entries[Paths.dirname(p)] else { throw FileSystemError(path, .notFound) }
            if case .directory = entries[p] { throw FileSystemError(path, .notAFile) }
            clock += 1
            entries[p] = .file(bytes, mtime: clock)
            // Written atomically: a new file renamed over the name.
            touchDirectory(of: p)
            if let permissions, permissions & 0o111 != 0 { executables.insert(p) } else { executables.remove(p) }
        }
    }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        let p = Paths.normalize(path)
        if p != "/" { try createDirectory(Paths.dirname(p)) }
        try lock.locked { () throws(FileSystemError) in
            switch entries[p] {
            case .directory: return
            case .file: throw FileSystemError(path, .other("a file is in the way"))
            case nil:
                clock += 1
                entries[p] = .directory(mtime: clock)
                touchDirectory(of: p)
            }
        }
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        let p = Paths.normalize(path)
        return try lock.locked { () throws(FileSystemError) -> [String] in
            lookedAt.append(Look(kind: .list, path: p))
            guard case .directory = entries[p] else { throw FileSystemError(path, .notFound) }
            let prefix = p == "/" ? "/" : p + "/"
            return (Array(entries.keys) + Array(links.keys)).filter { $0.hasPrefix(prefix) && $0 != p && !$0.dropFirst(prefix.count).contains("/") }
                .map { String($0.dropFirst(prefix.count)) }.sorted()
        }
    }

    public func remove(_ path: String) throws(FileSystemError) {
        let p = Paths.normalize(path)
        lock.locked {
            guard entries[p] != nil || links[p] != nil else { return }
            entries = entries.filter { $0.key != p && !$0.key.hasPrefix(p + "/") }
            links = links.filter { $0.key != p && !$0.key.hasPrefix(p + "/") }
            clock += 1
            touchDirectory(of: p)
        }
    }

    public func isWritableDirectory(_ path: String) -> Bool {
        isDirectory(path)
    }

    public func removeEmptyDirectory(_ path: String) -> Bool {
        let p = Paths.normalize(path)
        return lock.locked {
            guard case .directory? = entries[p], !entries.keys.contains(where: { $0.hasPrefix(p + "/") }),
                  !links.keys.contains(where: { $0.hasPrefix(p + "/") }) else { return false }
            entries[p] = nil
            clock += 1
            touchDirectory(of: p)
            return true
        }
    }

    public func syncDirectory(_ path: String) -> Bool { isDirectory(path) }

    /// Its directories' times move with every name that comes or goes; a test sets this false
    /// to stand for a network file system's.
    public var directoryTimesAreLocal: Bool {
        get { lock.locked { localTimes } }
        set { lock.locked { localTimes = newValue } }
    }
    private var localTimes = true

    public func keepsDirectoryTimes(_ path: String) -> Bool { directoryTimesAreLocal }
}
