import Foundation
import CSigstore

/// The digests a bundle names.
public enum HashAlgorithm: Sendable, Equatable {
    case sha256, sha384, sha512

    var code: Int32 {
        switch self {
        case .sha256: return Int32(TACK_MD_SHA256)
        case .sha384: return Int32(TACK_MD_SHA384)
        case .sha512: return Int32(TACK_MD_SHA512)
        }
    }

    /// `SHA2_256` and the like, as bundles and trusted roots write them.
    init?(protobufName: String) {
        switch protobufName {
        case "SHA2_256": self = .sha256
        case "SHA2_384": self = .sha384
        case "SHA2_512": self = .sha512
        default: return nil
        }
    }

    public func digest(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        let n = data.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { tack_digest(code, d.baseAddress, d.count, $0.baseAddress) } }
        return n > 0 ? Array(out[0..<Int(n)]) : []
    }
}

/// A public key as DER SubjectPublicKeyInfo, checked with libcrypto.
struct PublicKey: Equatable {
    let spki: [UInt8]

    enum Kind { case p256, p384, p521, ed25519, rsa, other }

    init?(spki: [UInt8]) {
        guard tack_sig_key_kind(spki, spki.count) >= 0 else { return nil }
        self.spki = spki
    }

    init?(pem: String) {
        var out = [UInt8](repeating: 0, count: 16384)
        let n = pem.withCString { p in out.withUnsafeMutableBufferPointer { tack_sig_pem_public_key(p, strlen(p), $0.baseAddress, $0.count) } }
        guard n > 0 else { return nil }
        self.init(spki: Array(out[0..<n]))
    }

    /// A raw PKCS #1 RSA key (what some trusted roots hold for a log).
    init?(pkcs1: [UInt8]) {
        var out = [UInt8](repeating: 0, count: 16384)
        let n = pkcs1.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { tack_sig_pkcs1_rsa_public_key(d.baseAddress, d.count, $0.baseAddress, $0.count) } }
        guard n > 0 else { return nil }
        self.init(spki: Array(out[0..<n]))
    }

    var kind: Kind {
        switch tack_sig_key_kind(spki, spki.count) {
        case Int32(TACK_KEY_EC_P256): return .p256
        case Int32(TACK_KEY_EC_P384): return .p384
        case Int32(TACK_KEY_EC_P521): return .p521
        case Int32(TACK_KEY_ED25519): return .ed25519
        case Int32(TACK_KEY_RSA): return .rsa
        default: return .other
        }
    }

    /// Whether `signature` signs `message` (hashed with the key's own digest, or `hash`).
    func verifies(_ signature: [UInt8], over message: [UInt8], hash: HashAlgorithm? = nil) -> Bool {
        spki.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                signature.withUnsafeBufferPointer { s in
                    tack_sig_verify_message(k.baseAddress, k.count, hash?.code ?? Int32(TACK_MD_DEFAULT), 0, m.baseAddress, m.count, s.baseAddress, s.count) == 1
                }
            }
        }
    }

    /// Whether `signature` signs an already computed `digest` (ECDSA and RSA keys).
    func verifies(_ signature: [UInt8], digest: [UInt8], hash: HashAlgorithm) -> Bool {
        spki.withUnsafeBufferPointer { k in
            digest.withUnsafeBufferPointer { d in
                signature.withUnsafeBufferPointer { s in
                    tack_sig_verify_digest(k.baseAddress, k.count, hash.code, d.baseAddress, d.count, s.baseAddress, s.count) == 1
                }
            }
        }
    }
}
