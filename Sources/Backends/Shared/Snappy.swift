/// Snappy's block format, decompressed: what GitHub's attestation API serves at a
/// `bundle_url`. Bounded: a block that claims more than `limit` bytes, or whose copies reach
/// before its start or past its claimed length, is refused.
enum Snappy {
    static func decode(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var i = 0
        func byte() -> UInt8? {
            guard i < input.count else { return nil }
            defer { i += 1 }
            return input[i]
        }
        // The uncompressed length, a little-endian base-128 varint.
        var length = 0, shift = 0
        while true {
            guard let b = byte(), shift <= 28 else { return nil }
            length |= Int(b & 0x7F) << shift
            if b & 0x80 == 0 { break }
            shift += 7
        }
        guard length <= limit else { return nil }
        var out: [UInt8] = []
        // A hint only: what a small input claims is not reserved whole.
        out.reserveCapacity(min(length, 1 << 20))
        func littleEndian(_ count: Int) -> Int? {
            var v = 0
            for k in 0..<count {
                guard let b = byte() else { return nil }
                v |= Int(b) << (8 * k)
            }
            return v
        }
        while i < input.count {
            guard let tag = byte() else { return nil }
            var copyLength = 0, offset = 0
            switch tag & 0x03 {
            case 0:
                var n = Int(tag >> 2)
                if n >= 60 {
                    guard let extra = littleEndian(n - 59) else { return nil }
                    n = extra
                }
                n += 1
                guard n <= input.count - i, out.count + n <= length else { return nil }
                out += input[i..<(i + n)]
                i += n
                continue
            case 1:
                guard let b = byte() else { return nil }
                copyLength = 4 + Int((tag >> 2) & 0x07)
                offset = Int(tag >> 5) << 8 | Int(b)
            case 2:
                guard let o = littleEndian(2) else { return nil }
                copyLength = 1 + Int(tag >> 2)
                offset = o
            default:
                guard let o = littleEndian(4) else { return nil }
                copyLength = 1 + Int(tag >> 2)
                offset = o
            }
            guard offset > 0, offset <= out.count, out.count + copyLength <= length else { return nil }
            let start = out.count - offset
            for k in 0..<copyLength { out.append(out[start + k]) }
        }
        return out.count == length ? out : nil
    }
}
