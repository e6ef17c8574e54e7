import Foundation
import TackCore

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

/// Hexadecimal, as TackCore spells checksums (`Checksum.hex`, `Checksum.bytes`).
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String { Checksum.hex(bytes) }

    static func decode(_ text: String) -> [UInt8]? {
        let bytes = Checksum.bytes(text)
        return bytes.isEmpty && !text.isEmpty ? nil : bytes
    }
}
