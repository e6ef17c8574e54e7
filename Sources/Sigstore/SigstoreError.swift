/// Why a Sigstore bundle does not verify: one case per check, with what it found, so callers
/// and tests match the check rather than the wording. `message` is what a person reads.
public enum SigstoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bundle, the trusted root or a key is not what it should be (JSON, base64, fields).
    case malformed(what: String, why: String)
    /// A bundle media type tack does not know.
    case unsupportedVersion(String)
    /// The bundle carries no log entry from a log the trusted root lists.
    case noTrustedLogEntry(String)
    /// A log entry's own proof does not hold: its promise (SET), inclusion proof or checkpoint.
    case logEntry(index: Int, why: String)
    /// A log entry describes another artifact, signature or signer than the bundle.
    case logEntryMismatch(index: Int, what: String)
    /// A signed timestamp does not hold, or none does.
    case timestamp(String)
    /// No time the bundle proves (a log's promise, a timestamp) is left to check the certificate at.
    case noVerifiedTime
    /// The signing certificate does not lead to a certificate authority of the trusted root at
    /// that time, or may not sign code.
    case certificate(String)
    /// No certificate transparency timestamp of the certificate verifies.
    case certificateTransparency(String)
    /// The signature over the artifact (or its DSSE envelope) does not verify.
    case signature(String)
    /// The bundle is for another artifact.
    case artifactMismatch(String)
    /// The signer is not the one the policy names.
    case identity(expected: String, found: String)
    case issuer(expected: String, found: String)
    /// A key was expected and the bundle carries a certificate, or the other way round.
    case wrongMaterial(String)

    public var message: String {
        switch self {
        case .malformed(let what, let why): return "\(what) is malformed: \(why)"
        case .unsupportedVersion(let media): return "the bundle's media type `\(media)` is not one tack reads (Sigstore bundles v0.1 to v0.3)"
        case .noTrustedLogEntry(let why): return "no transparency log entry from a log of the trusted root verifies (\(why))"
        case .logEntry(let i, let why): return "transparency log entry \(i): \(why)"
        case .logEntryMismatch(let i, let what): return "transparency log entry \(i) records another \(what) than the bundle"
        case .timestamp(let why): return "signed timestamp: \(why)"
        case .noVerifiedTime: return "the bundle proves no signing time (neither a log's signed promise nor a timestamp authority's timestamp verifies)"
        case .certificate(let why): return "signing certificate: \(why)"
        case .certificateTransparency(let why): return "no certificate transparency timestamp verifies (\(why))"
        case .signature(let why): return "signature: \(why)"
        case .artifactMismatch(let why): return "the bundle is for another artifact: \(why)"
        case .identity(let expected, let found): return "signed by \(found), not \(expected)"
        case .issuer(let expected, let found): return "the signer's identity was issued by \(found), not \(expected)"
        case .wrongMaterial(let why): return why
        }
    }

    public var description: String { message }
}
