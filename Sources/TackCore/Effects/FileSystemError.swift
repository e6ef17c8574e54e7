#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case notFound, tooLarge(Int), notAFile, permission, other(String) }
    public var path: String
    public var code: Code
    public init(_ path: String, _ code: Code) {
        self.path = path
        self.code = code
    }
    public var description: String { "\(path): \(reason)" }

    /// What went wrong, without the path.
    public var reason: String {
        switch code {
        case .notFound: return "no such file"
        case .tooLarge(let n): return "the file is \(formatSize(n)); tack reads files of at most \(formatSize(LocalFileSystem.maxReadSize))"
        case .notAFile: return "not a regular file"
        case .permission: return "permission denied"
        case .other(let why): return why
        }
    }
}

extension TackError {
    /// `cannot write PATH: why`, the path said once (a file system error that names the
    /// same path gives only its reason).
    public static func cannotWrite(_ path: String, _ error: FileSystemError) -> TackError {
        TackError("cannot write \(path): \(error.path == path ? error.reason : error.description)")
    }
}
