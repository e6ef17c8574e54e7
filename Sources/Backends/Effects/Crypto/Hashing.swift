import Foundation
import TackCore

public enum Hashing {
    /// The SHA-256 of a file's bytes, lowercase hex.
    public static func sha256(_ bytes: [UInt8]) -> String {
        hex(Digest.hash(.sha256, bytes))
    }

    /// Lowercase hex of a digest (`Checksum.hex`).
    public static func hex(_ digest: [UInt8]) -> String { Checksum.hex(digest) }

    /// The SHA-256 (hex) and size of a file, read in pieces; nil when it cannot be read.
    public static func sha256(file path: String) -> (hex: String, size: Int)? {
        digest(.sha256, file: path).map { (hex($0.digest), $0.size) }
    }

    /// A file's digest and size, read in pieces; nil when it cannot be read.
    public static func digest(_ algorithm: Digest.Algorithm, file path: String) -> (digest: [UInt8], size: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let hasher = Digest(algorithm)
        var size = 0
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch { return nil }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { hasher.update($0) }
            size += chunk.count
        }
        return (hasher.finalize(), size)
    }
}
