import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes that survive a crash or a power cut: the whole new file or the whole old one.
public enum DurableFile {
    public struct Failure: Error, CustomStringConvertible {
        public var what: String
        public var path: String
        public var code: Int32
        public var description: String { "cannot \(what) \(path): \(String(cString: strerror(code)))" }
    }

    /// Replaces `url` with `data`: a temporary file beside it, fsynced, renamed over it, then
    /// the directory fsynced so the rename itself is on disk. With `keepingOldAs`, the file it
    /// replaces is renamed there first (a crash between the two renames leaves no `url`, and
    /// the old file under its new name). The directory must exist: one removed while the app
    /// runs is not made again, so state never goes where no lock holds it.
    public static func replace(_ url: URL, with data: Data, keepingOldAs old: URL? = nil) throws {
        let directory = url.deletingLastPathComponent()
        let temp = directory.appendingPathComponent(temporaryPrefix(for: url) + UUID().uuidString + ".tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw Failure(what: "create", path: temp.path, code: errno) }
        // The descriptor is closed exactly once, whatever fails: a second close could close
        // a descriptor another thread has opened since under the same number.
        do {
            defer { closeFile(fd) }
            try writeAll(fd, data, path: temp.path)
            guard fsync(fd) == 0 else { throw Failure(what: "sync", path: temp.path, code: errno) }
        } catch {
            unlink(temp.path)
            throw error
        }
        var st = stat()
        if let old, lstat(url.path, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
            guard rename(url.path, old.path) == 0 else {
                let code = errno
                unlink(temp.path)
                throw Failure(what: "rename to", path: old.path, code: code)
            }
        }
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            unlink(temp.path)
            throw Failure(what: "rename to", path: url.path, code: code)
        }
        try syncDirectory(directory)
    }

    /// Removes temporary files a crash left beside `url`.
    public static func removeTemporaries(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: url)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    public static func syncDirectory(_ directory: URL, io: FileIO = .system) throws {
        let fd = open(directory.path, O_RDONLY)
        guard fd >= 0 else { throw Failure(what: "open", path: directory.path, code: errno) }
        defer { closeFile(fd) }
        guard io.fsync(fd) == 0 else { throw Failure(what: "sync", path: directory.path, code: errno) }
    }

    /// Writes every byte of `data` to `fd`, through short writes and interrupted calls.
    public static func writeAll(_ fd: Int32, _ data: Data, path: String, io: FileIO = .system) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = io.write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Failure(what: "write", path: path, code: errno)
                }
                if n == 0 { throw Failure(what: "write", path: path, code: EIO) }
                offset += n
            }
        }
    }

    static func temporaryPrefix(for url: URL) -> String { "." + url.lastPathComponent + "." }
}
