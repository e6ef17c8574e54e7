/// Base64 (RFC 4648's standard alphabet) read without Foundation: whitespace is ignored, the
/// text ends at the first `=`, and any other character makes it unreadable (nil). Callers
/// check the decoded length they expect (a key's 42 bytes, a signature's 74).
public enum Base64 {
    public static func decode<Text: Sequence>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for c in text {
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case 0x2B: v = 62
            case 0x2F: v = 63
            case 0x3D: return out
            case 0x20, 0x0A, 0x0D, 0x09: continue
            default: return nil
            }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }

    public static func decode(_ text: String) -> [UInt8]? { decode(text.utf8) }
}
