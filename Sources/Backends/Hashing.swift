import Crypto
import Foundation

public enum Hashing {
    /// The SHA-256 of a file's bytes, lowercase hex.
    public static func sha256(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// Lowercase hex of a digest.
    public static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 (hex) and size of a file, read in pieces; nil when it cannot be read.
    public static func sha256(file path: String) -> (hex: String, size: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size = 0
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch { return nil }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            size += chunk.count
        }
        return (hex(hasher.finalize()), size)
    }
}
