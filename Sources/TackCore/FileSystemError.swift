#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case notFound, tooLarge(Int), notAFile, permission, other(String) }
    public var path: String
    public var code: Code
    public init(_ path: String, _ code: Code) {
        self.path = path
        self.code = code
    }
    public var description: String {
        switch code {
        case .notFound: return "\(path): no such file"
        case .tooLarge(let n): return "\(path): the file is \(formatSize(n)); tack reads files of at most \(formatSize(LocalFileSystem.maxReadSize))"
        case .notAFile: return "\(path): not a regular file"
        case .permission: return "\(path): permission denied"
        case .other(let why): return "\(path): \(why)"
        }
    }
}
