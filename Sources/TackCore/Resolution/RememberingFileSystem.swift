/// A file system that remembers each file read through it: its stat when opened and its
/// bytes' fingerprint (for a file of up to `Snapshot.contentLimit` bytes). A resolution runs
/// over one, so the snapshot it makes keys the manifests, locks and install records it read
/// without opening and reading each of them a second time; what a read or a listing found
/// missing, which it records as missing without another look; and the directories it listed,
/// with their stat as opened, and the names in them it asked about, whose keys the
/// snapshot must hold (a directory no listing read is not keyed for what it holds; a name in
/// one may be a link, whose target the directory's key does not follow). Each path keeps its
/// first look; a later look that saw it otherwise (a resolution may read or list one path
/// twice) is noted (`sawChange`), since the answer may then mix the two. Everything else
/// passes through.
public final class RememberingFileSystem: FileSystem, @unchecked Sendable {
    /// What one read saw.
    public struct Read: Sendable {
        public var info: FileInfo
        /// FNV-1a of the bytes (`Snapshot.contentFingerprint`), nil for a larger file.
        public var fingerprint: String?
    }

    public let base: any FileSystem
    private var reads: [String: Read] = [:]
    /// Directories a listing found missing (a tool's `.variants`, mostly), and files a read did.
    private var missing: Set<String> = []
    /// Directories listed (a tool's installed versions, for a version file's newest install),
    /// each with its stat as opened.
    private var listed: [String: FileInfo] = [:]
    /// Every path read, found missing or asked about in a listed directory (`info`: is this
    /// version a directory?), once each, in the order it came: what `lookedAt` gives, the same
    /// on every run (no Set's order).
    private var order: [String] = []
    private var ordered: Set<String> = []
    private var changed = false
    private let lock = PThreadMutex()

    public init(_ base: any FileSystem) { self.base = base }

    /// Every path read, or found missing by a read or a listing, and every name asked about in
    /// a listed directory, in the order first met (a resolution runs on one thread): what a
    /// snapshot of the resolution keys beside what it names.
    public var lookedAt: [String] { lock.locked { order } }

    /// Called holding `lock`.
    private func note(_ path: String) {
        if ordered.insert(path).inserted { order.append(path) }
    }

    /// Remembers `path` as missing when `error` says it is.
    private func rememberMissing(_ path: String, _ error: FileSystemError) {
        guard error.code == .notFound else { return }
        lock.locked {
            if reads[path] != nil || listed[path] != nil { changed = true }
            missing.insert(path)
            note(path)
        }
    }

    /// Whether a path read, listed or found missing was seen otherwise by a later look in the
    /// same resolution: what was read may mix the two, so no snapshot of it is kept.
    public var sawChange: Bool { lock.locked { changed } }

    /// The first read of `path` (as it was named when read), if any.
    public func remembered(_ path: String) -> Read? { lock.locked { reads[path] } }

    /// Whether a listing or a read of `path` found nothing there (no such file or directory).
    public func wasMissing(_ path: String) -> Bool { lock.locked { missing.contains(path) } }

    /// Whether `path` was listed.
    public func wasListed(_ path: String) -> Bool { lock.locked { listed[path] != nil } }

    /// The stat of a listed directory as it was opened, before its names were read.
    public func listedAs(_ path: String) -> FileInfo? { lock.locked { listed[path] } }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        try listWithInfo(path).names
    }

    public func listWithInfo(_ path: String) throws(FileSystemError) -> (names: [String], info: FileInfo) {
        do {
            let got = try base.listWithInfo(path)
            lock.locked {
                if let first = listed[path] {
                    if first.statKey != got.info.statKey { changed = true }
                } else {
                    if missing.contains(path) { changed = true }
                    listed[path] = got.info
                }
            }
            return got
        } catch {
            rememberMissing(path, error)
            throw error
        }
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        try readWithInfo(path, limit: limit).bytes
    }

    public func readWithInfo(_ path: String, limit: Int) throws(FileSystemError) -> (bytes: [UInt8], info: FileInfo) {
        let got: (bytes: [UInt8], info: FileInfo)
        do { got = try base.readWithInfo(path, limit: limit) } catch {
            rememberMissing(path, error)
            throw error
        }
        var fingerprint: String?
        if got.bytes.count <= Int(Snapshot.contentLimit) {
            var hash = FNV1a()
            hash.add(bytes: got.bytes)
            fingerprint = hash.hex
        }
        let read = Read(info: got.info, fingerprint: fingerprint)
        lock.locked {
            if let first = reads[path] {
                if first.info.statKey != read.info.statKey || first.fingerprint != read.fingerprint { changed = true }
            } else {
                if missing.contains(path) { changed = true }
                reads[path] = read
            }
            note(path)
        }
        return got
    }

    public func info(_ path: String) -> FileInfo? {
        lock.locked {
            if !listed.isEmpty, listed[Paths.dirname(path)] != nil { note(path) }
        }
        return base.info(path)
    }
    public func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: UInt16?, flush: Bool) throws(FileSystemError) {
        try base.writeAtomically(path, bytes, permissions: permissions, flush: flush)
    }
    public func writeUserFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) { try base.writeUserFile(path, bytes) }
    public func move(_ from: String, to: String) throws(FileSystemError) { try base.move(from, to: to) }
    public func linkOrCopy(_ from: String, to: String) throws(FileSystemError) { try base.linkOrCopy(from, to: to) }
    public func createDirectory(_ path: String) throws(FileSystemError) { try base.createDirectory(path) }
    public func remove(_ path: String) throws(FileSystemError) { try base.remove(path) }
    public func isWritableDirectory(_ path: String) -> Bool { base.isWritableDirectory(path) }
    public func copy(_ from: String, to: String) throws(FileSystemError) { try base.copy(from, to: to) }
    public func linkTarget(_ path: String) -> String? { base.linkTarget(path) }
    public func makeExecutable(_ path: String) throws(FileSystemError) { try base.makeExecutable(path) }
    public func isExecutable(_ path: String) -> Bool { base.isExecutable(path) }
    public func makeLink(_ path: String, to target: String) throws(FileSystemError) { try base.makeLink(path, to: target) }
    public func versionKey(_ path: String) -> String { base.versionKey(path) }
    public func isBrokenLink(_ path: String) -> Bool { base.isBrokenLink(path) }
    public func probe(_ path: String) -> FileProbe { base.probe(path) }
    public func removeEmptyDirectory(_ path: String) -> Bool { base.removeEmptyDirectory(path) }
    public func syncDirectory(_ path: String) -> Bool { base.syncDirectory(path) }
    public func lock(at path: String) throws(TackError) -> any ExclusiveLock { try base.lock(at: path) }
    public func lockHolder(at path: String) -> LockHolder? { base.lockHolder(at: path) }
    public func keepsDirectoryTimes(_ path: String) -> Bool { base.keepsDirectoryTimes(path) }
}
