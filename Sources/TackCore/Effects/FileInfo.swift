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
    /// The permission bits (`0o755`).
    public var permissions: UInt16
    public init(kind: Kind, size: Int, mtime: Int64, permissions: UInt16 = 0o644) {
        self.kind = kind
        self.size = size
        self.mtime = mtime
        self.permissions = permissions
    }
}
