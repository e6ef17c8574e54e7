/// SHA-256 checksums as tack writes and compares them: 64 hex digits, compared without regard
/// to case (a lock or manifest written in capitals means the same bytes).
public enum Checksum {
    public static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
    }

    public static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
