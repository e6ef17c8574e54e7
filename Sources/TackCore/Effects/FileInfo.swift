#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// What tack needs to know about a file without reading it.
public struct FileInfo: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case file, directory, other }
    public var kind: Kind
    public var size: Int
    /// Modification time in nanoseconds since the epoch.
    public var mtime: Int64
    /// The permission bits (`0o755`).
    public var permissions: UInt16
    /// The inode number (0 in memory).
    public var inode: UInt64
    /// The status-change time in nanoseconds since the epoch (in memory, the modification time).
    public var ctime: Int64
    public init(kind: Kind, size: Int, mtime: Int64, permissions: UInt16 = 0o644, inode: UInt64 = 0, ctime: Int64? = nil) {
        self.kind = kind
        self.size = size
        self.mtime = mtime
        self.permissions = permissions
        self.inode = inode
        self.ctime = ctime ?? mtime
    }

    /// `inode:size:mtime:ctime`, each time as `seconds.nanoseconds`: what a snapshot records
    /// of a file it depends on, and what the lean reader's own `stat` must give again
    /// (`LeanSnapshot.probeHolds`).
    public var statKey: String {
        let m = Self.seconds(mtime), c = Self.seconds(ctime)
        // Written digit by digit from the end of one buffer: a snapshot keys dozens of files
        // (thousands, with as many pinned tools), and building the String any other way cost
        // more than the `stat` it describes.
        let capacity = 128
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var at = capacity
        func put(_ magnitude: UInt64, negative: Bool = false) {
            var v = magnitude
            repeat {
                at -= 1
                buffer[at] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v > 0
            if negative {
                at -= 1
                buffer[at] = UInt8(ascii: "-")
            }
        }
        func put(_ n: Int64) { put(n.magnitude, negative: n < 0) }
        func mark(_ separator: UInt8) {
            at -= 1
            buffer[at] = separator
        }
        // At most 103 bytes: an inode of 20 digits, a size and two seconds of 19 and a sign,
        // two nanoseconds of 9 (`seconds` keeps them in 0..<1e9), five separators.
        put(c.1.magnitude)
        mark(UInt8(ascii: "."))
        put(c.0)
        mark(UInt8(ascii: ":"))
        put(m.1.magnitude)
        mark(UInt8(ascii: "."))
        put(m.0)
        mark(UInt8(ascii: ":"))
        put(Int64(size))
        mark(UInt8(ascii: ":"))
        put(inode)
        return String(decoding: UnsafeBufferPointer(start: buffer + at, count: capacity - at), as: UTF8.self)
    }

    /// Nanoseconds since the epoch as `timespec` holds them: seconds, and 0 to 999,999,999.
    public static func seconds(_ ns: Int64) -> (Int64, Int64) {
        var s = ns / 1_000_000_000, n = ns % 1_000_000_000
        if n < 0 {
            s -= 1
            n += 1_000_000_000
        }
        return (s, n)
    }
}
