import CCrypto

/// A cryptographic hash fed in pieces, computed by the system's libcrypto: SHA-256 for
/// downloads and the team cache, SHA-384 and SHA-512 for signatures, BLAKE2b-512 for
/// minisign's prehashed signatures, SHA-1 only where OpenPGP names a key by it.
public final class Digest {
    public enum Algorithm: Sendable {
        case sha1, sha256, sha384, sha512, blake2b512

        /// OpenSSL's name for it, as signature checks ask for it.
        var name: String {
            switch self {
            case .sha1: return "SHA1"
            case .sha256: return "SHA256"
            case .sha384: return "SHA384"
            case .sha512: return "SHA512"
            case .blake2b512: return "BLAKE2B-512"
            }
        }

        var method: OpaquePointer? {
            switch self {
            case .sha1: return EVP_sha1()
            case .sha256: return EVP_sha256()
            case .sha384: return EVP_sha384()
            case .sha512: return EVP_sha512()
            case .blake2b512: return EVP_blake2b512()
            }
        }
    }

    public let algorithm: Algorithm
    /// nil when libcrypto could not start the hash (out of memory): the digest is then empty,
    /// which matches no checksum, so a check fails rather than passes.
    private let context: OpaquePointer?

    public init(_ algorithm: Algorithm) {
        self.algorithm = algorithm
        let context = EVP_MD_CTX_new()
        if let context, EVP_DigestInit_ex(context, algorithm.method, nil) == 1 {
            self.context = context
        } else {
            EVP_MD_CTX_free(context)
            self.context = nil
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far; the hash cannot be fed after.
    public func finalize() -> [UInt8] {
        guard let context else { return [] }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1 else { return [] }
        return Array(out.prefix(Int(length)))
    }

    public static func hash(_ algorithm: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        let digest = Digest(algorithm)
        digest.update(bytes)
        return digest.finalize()
    }
}
