/// A publisher's key that a url tool's downloads must be signed by: `minisign:` (Ed25519, in
/// minisign's format, trusted comment included) or `cosign:` (a keyed `cosign sign-blob`
/// signature: ECDSA P-256 over SHA-256). The signature is checked before anything is
/// extracted, and the key's id goes into tack.lock (`signed-by`), so a key that later changes
/// in tack.yml is refused, as a moved tag is, until `tack update` accepts it.
public struct SigningKey: Sendable, Hashable {
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        case minisign, cosign

        /// What follows the download's URL where the publisher puts its signature.
        public var suffix: String { self == .minisign ? ".minisig" : ".sig" }
    }

    public var scheme: Scheme
    /// The key as tack.yml gives it (minisign's `RW…`, cosign's PEM block).
    public var text: String
    /// Where the signature is: a URL template like the download's; nil for the download's URL
    /// with `.minisig` (minisign) or `.sig` (cosign) added.
    public var url: String?
    /// minisign: the key id (8 bytes) then the Ed25519 key (32); cosign: the DER
    /// SubjectPublicKeyInfo.
    public let material: [UInt8]

    /// The key read from `text`, or what is wrong with it.
    public init(_ scheme: Scheme, text: String, url: String? = nil) throws(TackError) {
        self.scheme = scheme
        self.text = text
        self.url = url
        switch scheme {
        case .minisign:
            // The key line alone (`RW…`), or a whole `.pub` file with its untrusted comment.
            let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { String($0).trimmingSpaces }
                .last { !$0.isEmpty && !$0.hasPrefix("untrusted comment:") } ?? ""
            guard let bytes = Base64.decode(line), bytes.count == 42, bytes[0] == UInt8(ascii: "E"), bytes[1] == UInt8(ascii: "d") else {
                throw TackError("a minisign public key is one base64 line starting with `RW` (42 bytes: `Ed`, the key id, the Ed25519 key), found \(quoted(line))")
            }
            material = Array(bytes[2...])
        case .cosign:
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { String($0).trimmingSpaces }
            guard let begin = lines.firstIndex(of: "-----BEGIN PUBLIC KEY-----"),
                  let end = lines.firstIndex(of: "-----END PUBLIC KEY-----"), begin < end,
                  let der = Base64.decode(lines[(begin + 1)..<end].joined()), der.count > 16, der[0] == 0x30 else {
                throw TackError("a cosign public key is a PEM block between `-----BEGIN PUBLIC KEY-----` and `-----END PUBLIC KEY-----` (as `cosign generate-key-pair` writes cosign.pub)")
            }
            material = der
        }
    }

    /// The key's id as tack.lock records it: `minisign:6A53F8C0C4A21A2B` (the id minisign
    /// prints), `cosign:sha256:…` (the SHA-256 of the key's DER form).
    public var id: String {
        switch scheme {
        case .minisign: return "minisign:" + Self.minisignID(material[0..<8])
        case .cosign: return "cosign:sha256:" + SHA256Digest.hex(material)
        }
    }

    /// A minisign key id as minisign prints it: the 8 bytes as one little-endian number, in
    /// hexadecimal capitals without leading zeros.
    public static func minisignID(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        let hex = bytes.reversed().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }
        let trimmed = hex.drop { $0 == UInt8(ascii: "0") }
        return String(decoding: trimmed.isEmpty ? [UInt8(ascii: "0")] : Array(trimmed), as: UTF8.self)
    }

    /// The Ed25519 key of a minisign key.
    public var ed25519: [UInt8] { scheme == .minisign ? Array(material[8...]) : [] }
    /// The 8-byte key id a minisign signature names.
    public var minisignKeyID: [UInt8] { scheme == .minisign ? Array(material[0..<8]) : [] }

    /// Whether an install made from `record` lacks the signature check this key asks for on
    /// `platform`: made before tack.yml named the key. It is installed again, verified.
    public func wasNotChecked(_ record: LockedTool, platform: Platform) -> Bool {
        record.signers[platform.description] != id
    }

    /// Whether `entry` records another signer for `platform` than this key: the key changed
    /// in tack.yml since the lock was written (or the lock was edited).
    public func contradicts(_ entry: LockedTool, platform: Platform) -> String? {
        guard let locked = entry.signers[platform.description], locked != id else { return nil }
        return locked
    }
}
