#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// `rename(2)`, for atomic moves within one file system.
public enum PosixRename {
    public static func rename(_ from: String, _ to: String) -> Bool {
        #if canImport(Darwin)
        return Darwin.rename(from, to) == 0
        #else
        return Glibc.rename(from, to) == 0
        #endif
    }
}
