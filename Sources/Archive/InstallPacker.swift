import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Packs an install directory into a tar compressed with zstd, the same bytes for the same
/// files: entries in sorted order, every time set to zero, owner root, no user or group names.
/// Files, directories and symbolic links are packed (hard links as copies); anything else
/// (a socket, a device) refuses the whole directory.
public enum InstallPacker {
    /// Packs everything under `root` but the top-level entries in `excluding`; returns the
    /// number of entries.
    @discardableResult
    public static func pack(_ root: String, to archivePath: String, excluding: Set<String> = []) throws(ArchiveError) -> Int {
        var paths: [String] = []
        try walk(root, "", excluding: excluding, into: &paths)
        guard let a = archive_write_new() else { throw ArchiveError("out of memory") }
        defer { archive_write_free(a) }
        archive_write_set_format_pax_restricted(a)
        guard archive_write_add_filter_zstd(a) == ARCHIVE_OK else { throw ArchiveError("this libarchive cannot write zstd") }
        guard archive_write_open_filename(a, archivePath) == ARCHIVE_OK else {
            throw ArchiveError("cannot write \(archivePath): \(String(cString: archive_error_string(a)))")
        }
        guard let entry = archive_entry_new() else { throw ArchiveError("out of memory") }
        defer { archive_entry_free(entry) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for relative in paths {
            let full = root + "/" + relative
            var st = stat()
            guard lstat(full, &st) == 0 else { throw ArchiveError("cannot read \(full): \(String(cString: strerror(errno)))") }
            archive_entry_clear(entry)
            archive_entry_set_pathname(entry, relative)
            archive_entry_set_mtime(entry, 0, 0)
            archive_entry_set_uid(entry, 0)
            archive_entry_set_gid(entry, 0)
            let kind = st.st_mode & 0o170000
            let perm = st.st_mode & 0o777
            if kind == 0o040000 {
                archive_entry_set_filetype(entry, 0o040000 as UInt32)
                archive_entry_set_perm(entry, perm)
                guard archive_write_header(a, entry) == ARCHIVE_OK else { throw writeError(a, relative) }
            } else if kind == 0o120000 {
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(full, &target, target.count - 1)
                guard n >= 0 else { throw ArchiveError("cannot read the link \(full): \(String(cString: strerror(errno)))") }
                target[n] = 0
                archive_entry_set_filetype(entry, 0o120000 as UInt32)
                archive_entry_set_perm(entry, 0o777)
                archive_entry_set_symlink(entry, target)
                guard archive_write_header(a, entry) == ARCHIVE_OK else { throw writeError(a, relative) }
            } else if kind == 0o100000 {
                archive_entry_set_filetype(entry, 0o100000 as UInt32)
                archive_entry_set_perm(entry, perm)
                archive_entry_set_size(entry, Int64(st.st_size))
                guard archive_write_header(a, entry) == ARCHIVE_OK else { throw writeError(a, relative) }
                try writeContents(full, size: Int64(st.st_size), to: a, as: relative, buffer: &buffer)
            } else {
                throw ArchiveError("\(full) is neither a file, a directory nor a link, so the install cannot be packed")
            }
        }
        guard archive_write_close(a) == ARCHIVE_OK else { throw writeError(a, archivePath) }
        return paths.count
    }

    /// A regular file's bytes into the archive entry just written; exactly `size` of them,
    /// or the file changed while it was packed.
    static func writeContents(_ full: String, size: Int64, to a: OpaquePointer, as relative: String, buffer: inout [UInt8]) throws(ArchiveError) {
        let fd = open(full, O_RDONLY)
        guard fd >= 0 else { throw ArchiveError("cannot read \(full): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written: Int64 = 0
        while written < size {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else { throw ArchiveError("cannot read \(full): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            let w = buffer.withUnsafeBytes { archive_write_data(a, $0.baseAddress, n) }
            guard w == n else { throw writeError(a, relative) }
            written += Int64(n)
        }
        guard written == size else { throw ArchiveError("\(full) changed while it was packed") }
    }

    static func walk(_ root: String, _ relative: String, excluding: Set<String>, into paths: inout [String]) throws(ArchiveError) {
        let dir = relative.isEmpty ? root : root + "/" + relative
        guard let d = opendir(dir) else { throw ArchiveError("cannot read \(dir): \(String(cString: strerror(errno)))") }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            if relative.isEmpty, excluding.contains(name) { continue }
            names.append(name)
        }
        closedir(d)
        for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            let path = relative.isEmpty ? name : relative + "/" + name
            paths.append(path)
            var st = stat()
            if lstat(root + "/" + path, &st) == 0, st.st_mode & 0o170000 == 0o040000 {
                try walk(root, path, excluding: excluding, into: &paths)
            }
        }
    }

    static func writeError(_ a: OpaquePointer, _ path: String) -> ArchiveError {
        ArchiveError("cannot pack \(path): \(archive_error_string(a).map { String(cString: $0) } ?? "unknown error")")
    }
}
