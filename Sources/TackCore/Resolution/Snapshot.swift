#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// What a resolution computed for one directory, kept on disk so the hot commands (shims,
/// `current`, `which`) read one small file instead of resolving again.
///
/// It is keyed by every file the resolution looked for, read or depends on (manifests,
/// version files, locks, the install directories, the registries, tack itself), each with its
/// existence, modification and change times, size and inode; by the working directory; and by
/// the environment that steers resolution. If anything differs it is not used: an edit, a
/// `touch` back to an old time (the change time still moves), a deleted or a new nearer file,
/// a `TACK_<TOOL>_VERSION`, an install or an uninstall all take effect on the very next run.
/// A small file's key also carries its content's fingerprint (`KEY=HEX`): when only its times
/// moved (a `touch`, a checkout, a save with no change) the bytes decide, so the snapshot holds.
public struct Snapshot: Sendable, Equatable {
    public static let formatVersion = "tack-snapshot 7"

    public var cwd: String
    public var environment: String
    /// (stat key, path); the key is "-" for a path that did not exist.
    public var probes: [(key: String, path: String)]
    /// Names the walk found missing in a directory, vouched for by the directory's stat key:
    /// while the directory is unchanged no name can have appeared in it (one `stat` instead of
    /// one per name); when it changed, each name is looked for again.
    public var absent: [(key: String, directory: String, names: [String])] = []
    public var rows: [CurrentTool]
    /// For `path:` pins, the directory; for `system` pins, nil rows are kept as they are.
    public var pathRoots: [String: String]
    /// What running the tools here applies (PATH and env), for shims, `exec` and the hook.
    public var run: RunEnvironment = RunEnvironment()
    /// What the hot commands print here, computed with the snapshot so `tack` can print it
    /// without resolving: `current`, `current --json`, `current TOOL` and `current TOOL --json`
    /// (the keys are those arguments, in that order), each with its stdout.
    public var answers: [(key: String, output: String)] = []
    /// `tack install` has nothing to do here (`UpToDate`): every file that decides it is probed.
    public var upToDate = false
    /// A probed file changed within the file system clock's current tick, so a later change in
    /// the same tick could leave its times as recorded: such a snapshot is not saved.
    public var racy = false
    /// When `racy` only because a file changed in the current tick: that change's time (ns
    /// since the epoch). Once the file system clock has moved past it, a new snapshot holds.
    public var racyUntil: Int64?

    public static func == (a: Snapshot, b: Snapshot) -> Bool {
        a.cwd == b.cwd && a.environment == b.environment && a.rows == b.rows && a.pathRoots == b.pathRoots && a.run == b.run
            && a.upToDate == b.upToDate && a.answers.map({ $0.key }) == b.answers.map({ $0.key }) && a.answers.map({ $0.output }) == b.answers.map({ $0.output })
            && a.probes.map({ $0.key }) == b.probes.map({ $0.key }) && a.probes.map({ $0.path }) == b.probes.map({ $0.path })
            && a.absent.map({ $0.key }) == b.absent.map({ $0.key }) && a.absent.map({ $0.directory }) == b.absent.map({ $0.directory })
            && a.absent.map({ $0.names }) == b.absent.map({ $0.names })
    }

    /// The environment variables that steer resolution, as one string, `NAME=value` joined by
    /// U+0001. Names are compared as bytes, as the lean reader compares them
    /// (`LeanContext.relevant`): a name another spelling of which is canonically equal
    /// (`TAC\u{212A}_HOME`, with a Kelvin sign) is another name. Nil when one of them holds
    /// U+0001 itself, which would make two environments one key: no snapshot is read or
    /// written there (the lean reader's `LeanContext.environmentKey` agrees).
    public static func environmentKey(_ env: [String: String]) -> String? {
        var chosen: [(key: String, value: String)] = []
        for (k, v) in env where steersResolution(k) {
            if k.utf8.contains(1) || v.utf8.contains(1) { return nil }
            chosen.append((k, v))
        }
        chosen.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var out: [UInt8] = []
        for (i, pair) in chosen.enumerated() {
            if i > 0 { out.append(1) }
            out.append(contentsOf: pair.key.utf8)
            out.append(UInt8(ascii: "="))
            out.append(contentsOf: pair.value.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// HOME, TACK_HOME, TACK_PLATFORM, XDG_CONFIG_HOME, XDG_DATA_HOME and every `TACK_*_VERSION`
    /// (the prefix and the suffix may overlap: `TACK_VERSION`).
    static func steersResolution(_ name: String) -> Bool {
        let u = name.utf8
        // Most of an environment starts otherwise (this runs for every variable, every run).
        guard let first = u.first, first == UInt8(ascii: "H") || first == UInt8(ascii: "T") || first == UInt8(ascii: "X") else { return false }
        for fixed in ["HOME", "TACK_HOME", "TACK_PLATFORM", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] where u.elementsEqual(fixed.utf8) { return true }
        return ToolName.isVersionVariable(name)
    }

    /// `ino:size:mtime:ctime` (`FileInfo.statKey`), or "-" when the path does not exist.
    /// Symbolic links are followed: a manifest that links to a shared file goes stale when that
    /// file changes.
    public static func statKey(_ path: String, fs: any FileSystem) -> String { fs.info(path)?.statKey ?? "-" }

    /// Files up to this size are recorded with their content's fingerprint (the lean reader's
    /// `LeanSnapshot.contentLimit`).
    public static let contentLimit: Int64 = 65536

    /// The largest snapshot read (the lean reader's `LeanSnapshot.sizeLimit`); a bigger one is
    /// not saved. Each pinned tool adds about a kilobyte.
    public static let sizeLimit = 32 << 20

    /// The FNV-1a fingerprint and size of a regular file of at most `contentLimit` bytes (the
    /// lean reader computes the same, `lean_content_fingerprint`).
    static func contentFingerprint(_ path: String, fs: any FileSystem) -> (size: Int64, hex: String)? {
        guard let bytes = try? fs.read(path, limit: Int(contentLimit)) else { return nil }
        var hash = FNV1a()
        hash.add(bytes: bytes)
        return (Int64(bytes.count), hash.hex)
    }

    /// Whether the probe still holds: the same stat key, or a fingerprinted file whose times
    /// moved while its bytes stayed the same.
    static func probeHolds(key: String, path: String, fs: any FileSystem) -> Bool {
        // Nothing at all, not even a link that leads nowhere (which is an error where tack's
        // own file should be): one look, links not followed.
        if key == "-" { return fs.probe(path) == .missing }
        if key == Snapshot.brokenLinkKey { return fs.probe(path) == .brokenLink }
        let current = statKey(path, fs: fs)
        guard let equals = key.firstIndex(of: "=") else { return current == key }
        if current == key[..<equals] { return true }
        let recordedSize = key.split(separator: ":", maxSplits: 2).dropFirst().first.flatMap { Int64($0) }
        guard let now = contentFingerprint(path, fs: fs), now.size == recordedSize else { return false }
        return now.hex == key[key.index(after: equals)...]
    }

    /// The key of a link that leads nowhere, which the walk read as nothing (a version file) or
    /// as an error (tack's own files): it holds while the link still leads nowhere.
    static let brokenLinkKey = "~"

    /// The key of what a look found where nothing is: `~` for a link that leads nowhere, else `-`.
    static func absentKey(_ found: FileProbe) -> String { found == .brokenLink ? brokenLinkKey : "-" }

    /// Whether the names the walk found missing in `directory` are all still missing: the
    /// directory is as it was (`key`), or none of them is there now.
    static func absenceHolds(key: String, directory: String, names: [String], fs: any FileSystem) -> Bool {
        if statKey(directory, fs: fs) == key { return true }
        return names.allSatisfy { probeHolds(key: "-", path: Paths.child(directory, $0), fs: fs) }
    }

    /// A directory changed less than this long before the walk began (ns) vouches for no name:
    /// a name added in the same tick of the clock as that change would leave its times as they
    /// were (a FAT file system's times are 2 s apart).
    static let settledDirectory: Int64 = 2_000_000_000

    /// The key of `path` with its content's fingerprint, or nil when the file changed while it
    /// was read (the fingerprint might describe other bytes than the times).
    static func fingerprintedKey(_ path: String, key: String, fs: any FileSystem) -> String? {
        guard let content = contentFingerprint(path, fs: fs) else { return key }
        guard statKey(path, fs: fs) == key else { return nil }
        return key + "=" + content.hex
    }

    /// The clock file systems stamp times with, in ns since the epoch.
    public static func fileSystemNanoseconds() -> Int64 {
        let now = fileSystemNow()
        return now.0 &* 1_000_000_000 &+ now.1
    }

    /// The clock file systems stamp times with (coarse: one tick is a few milliseconds).
    static func fileSystemNow() -> (Int64, Int64) {
        var ts = timespec()
        #if canImport(Darwin)
        clock_gettime(CLOCK_REALTIME, &ts)
        #else
        clock_gettime(CLOCK_REALTIME_COARSE, &ts)
        #endif
        return (Int64(ts.tv_sec), Int64(ts.tv_nsec))
    }

    /// The snapshot of a fresh resolution, with every file it depends on. `reads` is the file
    /// system the resolution ran over, when it remembers what it read: such a file is keyed
    /// from that read, not read again.
    public static func make(settings: Settings, resolution: Resolution, rows: [CurrentTool], executable: String?, reads: RememberingFileSystem?) -> Snapshot {
        let fs = settings.fs
        // Names the walk found missing in a directory that had settled before the walk began
        // and has not changed since: the directory vouches for them (one `absent` record).
        // Elsewhere each is a probe of its own.
        var absent: [(key: String, directory: String, names: [String])] = []
        var walkMissing: [String] = []
        for (dir, info, names) in resolution.directories where !names.isEmpty {
            if let info, info.kind == .directory, info.ctime < resolution.walkStarted - settledDirectory,
               fs.info(dir)?.statKey == info.statKey, fs.keepsDirectoryTimes(dir) {
                absent.append((info.statKey, dir, names))
            } else {
                walkMissing += names.map { Paths.child(dir, $0) }
            }
        }
        var paths: [String] = resolution.probes.map({ $0.path }) + walkMissing
        var roots: [String: String] = [:]
        let policy = TrustPolicy(settings: settings)
        if let executable { paths.append(executable) }
        if let store = settings.store {
            paths.append(store.root + "/registries")
            for name in ToolRegistry.userRegistries(store: store) { paths.append(store.root + "/registries/" + name + "/registry.yml") }
            for (pin, row) in zip(resolution.pins, rows) {
                // Which versions are installed, where the resolution listed them (a version
                // file's or an override's newest install). A locked pin's answer is its
                // install's record: the directories holding it are never read, so not keyed.
                let toolDirectory = store.toolDirectory(row.tool)
                if reads.map({ $0.wasListed(toolDirectory) || $0.wasMissing(toolDirectory) }) ?? true { paths.append(toolDirectory) }
                if let v = row.version.flatMap({ Version(word: $0) }) {
                    paths.append(store.installDirectory(row.tool, v) + "/" + Store.installRecordFile)
                    // A variant's coming or going changes which build runs: `.variants`
                    // missing (one look, most tools), else it and this version's own.
                    let variants = store.variantsRoot(row.tool)
                    paths.append(variants)
                    if reads?.wasMissing(variants) != true { paths.append(store.variantsDirectory(row.tool, v)) }
                    if let dir = row.installDirectory { paths.append(dir + "/" + Store.installRecordFile) }
                    // A toolchain's SDKs, whose coming or going decides whether an install is due.
                    if let kind = pin.request.source.kind { paths += kind.watchedPaths(install: store.installDirectory(row.tool, v)) }
                }
                if let dir = pin.lockDirectory { paths.append(Paths.child(dir, Lockfile.fileName)) }
                if let root = policy.pathRoot(pin.request) {
                    roots[row.tool] = root
                    // Whether it has a `bin` decides what goes on PATH.
                    paths.append(RunEnvironment.binDirectory(ofPathRoot: root))
                }
            }
        }
        let run = RunEnvironment.make(resolution: resolution, rows: rows, settings: settings)
        // And whatever else the resolution read or found missing: another build's record, which
        // decided that this one is not the install (`Store.installs`), the trust store, a
        // registry; and each version a listing of a tool's directory found, which may be a link.
        if let reads { paths += reads.lookedAt }
        if let store = settings.store, resolution.manifests.contains(where: { !$0.env.isEmpty })
            || resolution.pins.contains(where: { if case .path = $0.request.requirement { return true } else { return false } }) {
            paths.append(TrustStore(store: store).path)
        }
        var seen: Set<String> = []
        let unique = paths.filter { seen.insert($0).inserted }
        // Racy: a file changed in the clock's current tick (a later change in the same tick
        // would leave its times as recorded), or changed between being read and being
        // stat'ed here (the recorded key would describe content the resolution never saw).
        let now = fileSystemNanoseconds()
        // A path the resolution looked at twice and saw otherwise the second time: its answer
        // may mix the two.
        var racy = false, otherwiseRacy = reads?.sawChange == true
        var newest: Int64?
        var seenByResolution: [String: FileInfo?] = [:]
        for p in resolution.probes { seenByResolution[p.path] = p.info }
        let brokenLinks = Set(resolution.brokenLinks)
        for path in walkMissing { seenByResolution[path] = .some(nil) }
        let probes: [(key: String, path: String)] = unique.map { path in
            // What the walk found missing is recorded so without another look: a file that
            // appears since fails the probe, so the snapshot can only be stale, never wrong.
            if case .some(nil) = seenByResolution[path] { return (brokenLinks.contains(path) ? brokenLinkKey : "-", path) }
            // So is a directory the resolution listed and found missing (an install's variants),
            // with one look to tell a link that leads nowhere (which a read or a listing finds
            // missing too) from nothing at all.
            if seenByResolution[path] == nil, reads?.wasMissing(path) == true { return (absentKey(fs.probe(path)), path) }
            // Read by the resolution, and changed last well before the walk began: keyed from
            // that read, without another look. A change since would have moved its times past
            // that (the same clock), so the key is not the file's now and the bytes decide,
            // which are the bytes the answer came from. "Well before", as for a vouching
            // directory: a file system that keeps times to the second (or two) would leave a
            // change in the same second as the last with the times it had.
            let read = reads?.remembered(path)
            if let read, let hex = read.fingerprint, read.info.kind == .file, read.info.ctime < resolution.walkStarted - settledDirectory {
                return (read.info.statKey + "=" + hex, path)
            }
            // One look: what is there (links followed), or nothing, or a link that leads nowhere.
            let found = fs.probe(path)
            let info = found.info
            // Changed since the resolution read or listed it: the answer may describe what was
            // there before, so no snapshot is saved (the next run resolves again).
            if let read, read.info.statKey != info?.statKey { otherwiseRacy = true }
            if let listed = reads?.listedAs(path), listed.statKey != info?.statKey { otherwiseRacy = true }
            if let seen = seenByResolution[path] {
                switch (seen, info) {
                case (nil, nil): break
                case (let a?, let b?) where a.size == b.size && a.mtime == b.mtime: break
                default: otherwiseRacy = true
                }
            }
            guard let info else { return (absentKey(found), path) }
            if info.ctime >= now {
                racy = true
                newest = max(newest ?? info.ctime, info.ctime)
            } else if info.ctime % 1_000_000_000 == 0, info.ctime >= now - settledDirectory {
                // A time with no fraction of a second is a coarse file system's (HFS+, ext3,
                // FAT keep a second or two): another change in that second or two would leave
                // it as recorded, so none is saved until it has passed. (A fine-grained one
                // stamps a whole second once in a billion changes: one snapshot not saved.)
                otherwiseRacy = true
            }
            // Only a regular file has content to fingerprint (a directory's key is its times).
            guard info.kind == .file, info.size <= Int(contentLimit) else { return (info.statKey, path) }
            guard let key = fingerprintedKey(path, key: info.statKey, fs: fs) else {
                otherwiseRacy = true
                return (info.statKey, path)
            }
            return (key, path)
        }
        // Files that are there first: an edit is then found by the first few probes, not after
        // every name looked for and missing in every directory up to `/`.
        let ordered = probes.filter { $0.key != "-" } + probes.filter { $0.key == "-" }
        // (An environment with no key gets no snapshot saved: `location`.)
        var s = Snapshot(cwd: settings.cwd, environment: environmentKey(settings.environment) ?? "", probes: ordered, rows: rows, pathRoots: roots)
        s.absent = absent
        s.run = run
        s.racy = racy || otherwiseRacy
        s.racyUntil = otherwiseRacy ? nil : newest
        return s
    }

    /// Where the snapshot for this directory and environment lives; nil where the environment
    /// has no key (`environmentKey`), and such a directory resolves every time.
    public static func location(settings: Settings) -> String? {
        guard let store = settings.store, let key = environmentKey(settings.environment) else { return nil }
        return store.state + "/snapshots/" + FNV1a.hex(settings.cwd + "\u{0}" + key)
    }

    /// The snapshot, if one exists for this directory and environment and nothing it depends
    /// on has changed since it was written.
    public static func load(settings: Settings) -> Snapshot? {
        guard let path = location(settings: settings), let bytes = try? settings.fs.read(path, limit: sizeLimit),
              let s = decode(bytes), s.cwd == settings.cwd, s.environment == environmentKey(settings.environment)
        else { return nil }
        for p in s.probes where !probeHolds(key: p.key, path: p.path, fs: settings.fs) { return nil }
        for a in s.absent where !absenceHolds(key: a.key, directory: a.directory, names: a.names, fs: settings.fs) { return nil }
        return s
    }

    /// The `absent` records of the snapshot last written for this directory and environment,
    /// stale or not, by directory: each is true while its directory keeps its key, so a
    /// resolution after an edit looks again only in directories that changed. Only the records
    /// are read (they come before the rows and answers).
    public static func recordedAbsences(settings: Settings) -> [String: (key: String, names: [String])] {
        guard let path = location(settings: settings), let bytes = try? settings.fs.read(path, limit: sizeLimit), isWhole(bytes) else { return [:] }
        return bytes.withUnsafeBufferPointer { b in
            var out: [String: (key: String, names: [String])] = [:]
            var start = 0
            var number = 0
            while start < b.count {
                var end = start
                while end < b.count && b[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: b[start..<end])
                start = end + 1
                number += 1
                if number > 3 {
                    // Probes come first, then these; anything else ends them.
                    if line.starts(with: "probe\t".utf8) { continue }
                    guard line.starts(with: "absent\t".utf8) else { return out }
                }
                let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                switch number {
                case 1: guard fields.count == 1, fields[0] == formatVersion else { return [:] }
                case 2: guard fields.count == 2, fields[0] == "cwd", fields[1] == settings.cwd else { return [:] }
                case 3: guard fields.count == 2, fields[0] == "env", fields[1] == environmentKey(settings.environment) else { return [:] }
                default:
                    guard fields.count >= 4 else { return out }
                    out[fields[2]] = (fields[1], Array(fields[3...]))
                }
            }
            return out
        }
    }

    /// Writes the snapshot (atomically, not flushed: it is a cache, and one a crash empties is
    /// made again); failing to is not an error, only slower next time.
    /// Whether it was written.
    @discardableResult
    public func save(settings: Settings) -> Bool {
        guard let bytes = encode() else { return false }
        return save(settings: settings, encoded: bytes)
    }

    /// `save`, with the snapshot's bytes (`encode`) made already.
    @discardableResult
    func save(settings: Settings, encoded bytes: [UInt8]) -> Bool {
        // Only where the store may be made (never under a HOME that does not exist).
        guard !racy, bytes.count <= Snapshot.sizeLimit, (try? settings.requireStore()) != nil, let path = Snapshot.location(settings: settings) else { return false }
        try? settings.fs.createDirectory(Paths.dirname(path))
        do { try settings.fs.writeAtomically(path, bytes, permissions: nil, flush: false) } catch { return false }
        return true
    }
}
