import Foundation

/// Base64 as protobuf's JSON writes bytes: the standard or URL alphabet, padded or not, and
/// line breaks ignored (as Go's decoder, which wrote most bundles, ignores them). Anything else
/// (a stray character, a bad length) is refused, never skipped.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var s = String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
        s = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if s.count % 4 == 1 { return nil }
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map { [UInt8]($0) }
    }

    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x37
            case 0x61...0x66: return c - 0x57
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            guard let hi = value(chars[i]), let lo = value(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
