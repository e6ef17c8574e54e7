import Foundation
import TackCore

/// Who may have signed: a certificate naming this identity, issued on the word of this OIDC
/// issuer (Fulcio's keyless signatures), or a key the verifier holds.
public enum SigstorePolicy: Sendable {
    public enum Identity: Sendable, Equatable {
        /// The certificate's subject alternative name, exactly.
        case exact(String)
        /// A regular expression that matches somewhere in it (unanchored, as cosign's
        /// `--certificate-identity-regexp`; anchor it with `^…$` to match it whole).
        case regexp(String)
        /// A glob over the whole name, `*` any run of characters (`tack.yml`'s `signer:`).
        case glob(String)

        func matches(_ name: String) -> Bool {
            switch self {
            case .exact(let s): return s == name
            case .regexp(let pattern): return Pattern.matchesAnywhere(pattern, name)
            case .glob(let pattern): return Glob.matches(pattern, name)
            }
        }

        var text: String {
            switch self {
            case .exact(let s): return s
            case .regexp(let s): return "an identity matching /\(s)/"
            case .glob(let s): return s
            }
        }
    }

    case certificate(identity: Identity, issuer: String)
    case key(spki: [UInt8])

    /// `--key FILE`: a PEM public key.
    public static func key(pem: String) throws(SigstoreError) -> SigstorePolicy {
        guard let key = PublicKey(pem: pem) else { throw .malformed(what: "the key", why: "it is not a PEM public key") }
        return .key(spki: key.spki)
    }
}

/// What was signed: the artifact's bytes, or only its SHA-256.
public enum SigstoreArtifact: Sendable {
    case bytes([UInt8])
    case sha256([UInt8])

    var sha256: [UInt8] {
        switch self {
        case .bytes(let b): return HashAlgorithm.sha256.digest(b)
        case .sha256(let d): return d
        }
    }
}

/// What a verified bundle proves.
public struct SigstoreVerification: Sendable, Equatable {
    /// The certificate's identity and issuer (nil for a key).
    public var identity: String?
    public var issuer: String?
    /// The signing times the bundle proves (seconds since the epoch).
    public var times: [Int64]
    /// The DSSE payload type, for an envelope (an in-toto statement).
    public var payloadType: String?
    public var payload: [UInt8]?
    /// The repository the certificate says the signing workflow ran for (Fulcio's
    /// SourceRepositoryURI, `https://github.com/OWNER/REPO`).
    public var sourceRepository: String?
    /// The ref it ran at (Fulcio's SourceRepositoryRef, `refs/tags/v1.2.0`).
    public var sourceRef: String?

    /// The in-toto statement's predicate type, for a DSSE envelope that holds one.
    public var predicateType: String? {
        guard let payload, let object = try? JSONObject.parse(payload, what: "the statement") else { return nil }
        return object.optionalString("predicateType")
    }
}
