import Crypto
import Foundation

public enum Hashing {
    /// The SHA-256 of a file's bytes, lowercase hex.
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
