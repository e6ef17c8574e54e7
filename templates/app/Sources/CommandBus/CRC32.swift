/// CRC-32 (IEEE 802.3, the zlib and PNG one): the checksum of each journal record.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum<Bytes: Sequence>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
        var c = ~crc
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }
}
