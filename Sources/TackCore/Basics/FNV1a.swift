/// FNV-1a, 64 bits: short fingerprints for file names and "did anything change" checks, never
/// a security boundary (checksums are SHA-256). The lean `tack` has its own copy, which must
/// give the same snapshot names.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    public init() {}

    public mutating func add(_ s: String) { add(bytes: s.utf8) }

    public mutating func add<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        for b in bytes { value = (value ^ UInt64(b)) &* 0x100_0000_01b3 }
    }

    /// The hash in hexadecimal.
    public var hex: String { String(value, radix: 16) }

    public static func hex(_ s: String) -> String {
        var h = FNV1a()
        h.add(s)
        return h.hex
    }
}
