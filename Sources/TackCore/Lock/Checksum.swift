/// SHA-256 checksums as tack writes and compares them: 64 hex digits, compared without regard
/// to case (a lock or manifest written in capitals means the same bytes).
public enum Checksum {
    public static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
    }

    public static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    /// Lowercase hexadecimal of `bytes` (a digest, a key id).
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes a hexadecimal checksum spells; empty when it is not hexadecimal.
    public static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            case 0x41...0x46: return c - 0x41 + 10
            default: return nil
            }
        }
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return [] }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}
