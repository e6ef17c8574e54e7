import CArchive
import TackCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Extracts tar (gz, xz, bz2, zstd) and zip archives with libarchive, refusing the whole
/// archive when any entry would land outside the target directory: absolute paths, `..`,
/// links whose target leaves the directory, hard links to anything outside the archive,
/// entries written through a link, and device files. Every entry is checked before the
/// first byte is written. Setuid and setgid bits are removed and reported.
public enum SafeExtractor {
    /// How much an archive may unpack to: generous for every real tool, small enough that a
    /// few megabytes of compressed zeros cannot fill the disk or the inode table.
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int64
        public var maxEntries: Int
        public static let standard = Limits(maxBytes: 8 << 30, maxEntries: 500_000)
        public init(maxBytes: Int64, maxEntries: Int) {
            self.maxBytes = maxBytes
            self.maxEntries = maxEntries
        }

        /// The standard limits, raised (or lowered) by `TACK_UNPACK_MAX_BYTES` (a number of
        /// bytes, or with K, M, G or T) and `TACK_UNPACK_MAX_ENTRIES`.
        public static func from(environment: [String: String]) -> Limits {
            var limits = Limits.standard
            if let text = environment["TACK_UNPACK_MAX_BYTES"], let n = parseSize(text) { limits.maxBytes = n }
            if let n = NumericSetting.integer(environment, "TACK_UNPACK_MAX_ENTRIES", minimum: 1, maximum: 1_000_000_000) { limits.maxEntries = n }
            return limits
        }

        static func parseSize(_ text: String) -> Int64? {
            let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
            var digits = text.uppercased()
            var scale: Int64 = 1
            if digits.hasSuffix("B") { digits.removeLast() }
            if let last = digits.last, let u = units[last] { scale = u; digits.removeLast() }
            guard let n = Int64(digits), n > 0 else { return nil }
            let (product, overflow) = n.multipliedReportingOverflow(by: scale)
            return overflow ? nil : product
        }

        public var describeBytes: String {
            for (unit, size) in [("TiB", Int64(1) << 40), ("GiB", Int64(1) << 30), ("MiB", Int64(1) << 20), ("KiB", Int64(1) << 10)] where maxBytes % size == 0 {
                return "\(maxBytes / size) \(unit)"
            }
            return "\(maxBytes) bytes"
        }
    }

    public struct Report: Sendable, Equatable {
        /// Entries whose setuid or setgid bit was removed.
        public var strippedSpecialBits: [String] = []
        public var entries = 0
    }

    struct Entry {
        enum Kind { case file, directory, symlink(String), hardlink(String) }
        var path: String
        var kind: Kind
        var mode: UInt32
    }

    public static func extract(_ archivePath: String, into root: String, limits: Limits = .standard) throws(ArchiveError) -> Report {
        let entries = try list(archivePath, limits: limits)
        try validate(entries)
        // The target is named by its real path: the store may be reached through a symbolic
        // link (a linked home), and libarchive refuses to write through any link in the path.
        var real = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(root, &real) != nil else {
            throw ArchiveError("cannot extract into \(root): \(String(cString: strerror(errno)))")
        }
        return try write(archivePath, into: String(decoding: real.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), limits: limits)
    }

    static func tooLarge(_ limits: Limits) -> ArchiveError {
        ArchiveError("the archive unpacks to more than \(limits.describeBytes), tack's limit (raise it with TACK_UNPACK_MAX_BYTES)")
    }

    static func tooMany(_ limits: Limits) -> ArchiveError {
        ArchiveError("the archive holds more than \(limits.maxEntries) entries, tack's limit (raise it with TACK_UNPACK_MAX_ENTRIES)")
    }

    /// Reads every header, without extracting.
    static func list(_ archivePath: String, limits: Limits) throws(ArchiveError) -> [Entry] {
        let a = try openReader(archivePath)
        defer { archive_read_free(a) }
        var out: [Entry] = []
        var total: Int64 = 0
        var entry: OpaquePointer?
        while true {
            let r = archive_read_next_header(a, &entry)
            if r == ARCHIVE_EOF { break }
            guard r == ARCHIVE_OK || r == ARCHIVE_WARN, let entry else { throw readError(a, archivePath) }
            guard let rawPath = archive_entry_pathname(entry) else { throw ArchiveError("an entry without a name") }
            let path = String(cString: rawPath)
            let type = UInt32(archive_entry_filetype(entry))  // AE_IFREG and friends are C casts Swift cannot import
            let mode = UInt32(archive_entry_mode(entry))
            let kind: Entry.Kind
            if let hard = archive_entry_hardlink(entry) {
                kind = .hardlink(String(cString: hard))
            } else if type == 0o100000 {
                kind = .file
            } else if type == 0o040000 {
                kind = .directory
            } else if type == 0o120000 {
                kind = .symlink(archive_entry_symlink(entry).map { String(cString: $0) } ?? "")
            } else {
                throw ArchiveError("`\(path)` is a device, pipe or socket; tack installs only files, directories and links")
            }
            out.append(Entry(path: path, kind: kind, mode: mode))
            if out.count > limits.maxEntries { throw tooMany(limits) }
            if archive_entry_size_is_set(entry) != 0 {
                total += max(0, archive_entry_size(entry))
                if total > limits.maxBytes { throw tooLarge(limits) }
            }
        }
        return out
    }

    /// The archive's path as components, with `.` removed; nil if it is absolute or has `..`.
    static func components(_ path: String) -> [Substring]? {
        if path.hasPrefix("/") { return nil }
        let parts = path.split(separator: "/").filter { $0 != "." }
        if parts.contains("..") { return nil }
        return parts
    }

    static func validate(_ entries: [Entry]) throws(ArchiveError) {
        var symlinks: Set<String> = []
        var seen: Set<String> = []
        var directories: Set<String> = []
        for e in entries {
            if case .symlink = e.kind, let c = components(e.path) { symlinks.insert(c.joined(separator: "/")) }
        }
        for e in entries {
            guard let parts = components(e.path), !parts.isEmpty else {
                if e.path.hasPrefix("/") { throw ArchiveError("`\(e.path)` is an absolute path") }
                if components(e.path) == nil { throw ArchiveError("`\(e.path)` leaves the install directory (`..`)") }
                continue  // "./" itself
            }
            let key = parts.joined(separator: "/")
            // One entry per path: a later duplicate would silently replace what was checked.
            if seen.contains(key) {
                let bothDirectories: Bool = {
                    if case .directory = e.kind { return directories.contains(key) }
                    return false
                }()
                if !bothDirectories { throw ArchiveError("`\(e.path)` appears twice in the archive") }
            }
            if case .directory = e.kind { directories.insert(key) }
            // Never write through a link: no parent of an entry may be a symlink.
            for i in 1..<parts.count where symlinks.contains(parts[..<i].joined(separator: "/")) {
                throw ArchiveError("`\(e.path)` would be written through the link `\(parts[..<i].joined(separator: "/"))`")
            }
            switch e.kind {
            case .symlink(let target):
                if target.isEmpty || target.hasPrefix("/") { throw ArchiveError("the link `\(e.path)` points to the absolute path `\(target)`") }
                // Resolve lexically from the link's directory; `..` may not leave the root nor
                // back out of another link (whose real place is elsewhere).
                var stack = Array(parts.dropLast())
                for c in target.split(separator: "/") where c != "." {
                    if c == ".." {
                        guard let last = stack.popLast() else { throw ArchiveError("the link `\(e.path)` points outside the install directory (`\(target)`)") }
                        if symlinks.contains((stack + [last]).joined(separator: "/")) {
                            throw ArchiveError("the link `\(e.path)` goes through another link with `..` (`\(target)`)")
                        }
                    } else {
                        stack.append(c)
                    }
                }
            case .hardlink(let target):
                guard let t = components(target), !t.isEmpty else { throw ArchiveError("the hard link `\(e.path)` points outside the archive (`\(target)`)") }
                guard seen.contains(t.joined(separator: "/")) else { throw ArchiveError("the hard link `\(e.path)` points to `\(target)`, which is not in the archive before it") }
            case .file, .directory:
                break
            }
            seen.insert(key)
        }
    }

    static func write(_ archivePath: String, into root: String, limits: Limits) throws(ArchiveError) -> Report {
        let a = try openReader(archivePath)
        defer { archive_read_free(a) }
        guard let disk = archive_write_disk_new() else { throw ArchiveError("out of memory") }
        defer { archive_write_free(disk) }
        let flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT
        archive_write_disk_set_options(disk, flags)
        var report = Report()
        var entry: OpaquePointer?
        var total: Int64 = 0
        // What the user's umask takes away, and always group and other write: an install is
        // the user's, read-only to everybody else.
        let mask = umask(0o022)
        umask(mask)
        let cleared = UInt32(mask) | 0o022
        while true {
            let r = archive_read_next_header(a, &entry)
            if r == ARCHIVE_EOF { break }
            guard r == ARCHIVE_OK || r == ARCHIVE_WARN, let entry else { throw readError(a, archivePath) }
            let path = String(cString: archive_entry_pathname(entry))
            guard let parts = components(path), !parts.isEmpty else { continue }
            let mode = archive_entry_mode(entry)
            if mode & 0o6000 != 0 { report.strippedSpecialBits.append(path) }
            archive_entry_set_mode(entry, mode & ~(0o7000 | mode_t(cleared)))
            archive_entry_set_pathname(entry, root + "/" + parts.joined(separator: "/"))
            if let hard = archive_entry_hardlink(entry), let t = components(String(cString: hard)) {
                archive_entry_set_hardlink(entry, root + "/" + t.joined(separator: "/"))
            }
            archive_entry_set_uid(entry, Int64(getuid()))
            archive_entry_set_gid(entry, Int64(getgid()))
            guard archive_write_header(disk, entry) == ARCHIVE_OK else { throw writeError(disk, path) }
            if archive_entry_size(entry) > 0 {
                var buffer: UnsafeRawPointer?
                var size = 0
                var offset: Int64 = 0
                while true {
                    let rr = archive_read_data_block(a, &buffer, &size, &offset)
                    if rr == ARCHIVE_EOF { break }
                    guard rr == ARCHIVE_OK else { throw readError(a, archivePath) }
                    total += Int64(size)
                    if total > limits.maxBytes { throw tooLarge(limits) }
                    guard archive_write_data_block(disk, buffer, size, offset) == ARCHIVE_OK else { throw writeError(disk, path) }
                }
            }
            guard archive_write_finish_entry(disk) == ARCHIVE_OK else { throw writeError(disk, path) }
            report.entries += 1
        }
        return report
    }

    /// A single compressed file (`.gz`, `.bz2`, `.xz`, `.zst`: a program, not an archive)
    /// decompressed into `destination`, which must not exist; refused past `limits.maxBytes`.
    public static func decompress(_ path: String, to destination: String, limits: Limits = .standard) throws(ArchiveError) {
        guard let a = archive_read_new() else { throw ArchiveError("out of memory") }
        defer { archive_read_free(a) }
        archive_read_support_filter_all(a)
        archive_read_support_format_raw(a)
        guard archive_read_open_filename(a, path, 65536) == ARCHIVE_OK else { throw readError(a, path) }
        var entry: OpaquePointer?
        guard archive_read_next_header(a, &entry) == ARCHIVE_OK else { throw readError(a, path) }
        // The raw format reads anything; only a recognised compression makes it a compressed file.
        guard archive_filter_count(a) > 1 else { throw ArchiveError("not a compressed file (gzip, bzip2, xz or zstd)") }
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw ArchiveError("cannot create \(destination): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { archive_read_data(a, $0.baseAddress, $0.count) }
            if n == 0 { break }
            guard n > 0 else { throw readError(a, path) }
            total += Int64(n)
            if total > limits.maxBytes { throw tooLarge(limits) }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { bytes -> Int in
                    guard let base = bytes.baseAddress else { return -1 }
                    #if canImport(Glibc)
                    return Glibc.write(fd, base + written, n - written)
                    #else
                    return Darwin.write(fd, base + written, n - written)
                    #endif
                }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw ArchiveError("cannot write \(destination): \(String(cString: strerror(errno)))") }
                written += w
            }
        }
    }

    static func openReader(_ path: String) throws(ArchiveError) -> OpaquePointer {
        guard let a = archive_read_new() else { throw ArchiveError("out of memory") }
        archive_read_support_filter_all(a)
        archive_read_support_format_tar(a)
        archive_read_support_format_gnutar(a)
        archive_read_support_format_zip(a)
        guard archive_read_open_filename(a, path, 65536) == ARCHIVE_OK else {
            let e = readError(a, path)
            archive_read_free(a)
            throw e
        }
        return a
    }

    static func readError(_ a: OpaquePointer, _ path: String) -> ArchiveError {
        let why = archive_error_string(a).map { String(cString: $0) } ?? "unreadable"
        return ArchiveError("not a readable archive: \(why)")
    }

    static func writeError(_ a: OpaquePointer, _ path: String) -> ArchiveError {
        let why = archive_error_string(a).map { String(cString: $0) } ?? "cannot write"
        return ArchiveError("cannot extract `\(path)`: \(why)")
    }
}
