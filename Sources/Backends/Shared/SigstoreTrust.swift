import Foundation
import Sigstore
import TackCore

/// What keyless signatures are checked against: Sigstore's public-good trusted root as tack
/// ships it, or the file `TACK_SIGSTORE_TRUSTED_ROOT` names (a private Sigstore instance, the
/// tests). One rule for `tack verify` and every install.
public struct SigstoreTrust: Sendable {
    /// The trusted root file, nil for tack's copy of the public-good instance's.
    public let rootFile: String?
    let fs: any FileSystem

    public init(environment: [String: String], fs: any FileSystem) {
        rootFile = environment["TACK_SIGSTORE_TRUSTED_ROOT"].flatMap { $0.isEmpty ? nil : $0 }
        self.fs = fs
    }

    public init(rootFile: String?, fs: any FileSystem) {
        self.rootFile = rootFile
        self.fs = fs
    }

    /// The trusted root, or why it cannot be read.
    public func root() throws(TackError) -> TrustedRoot {
        guard let rootFile else {
            do { return try TrustedRoot.publicGood() } catch { throw TackError("tack's copy of Sigstore's trusted root cannot be read: \(error.message) — reinstall tack") }
        }
        let bytes: [UInt8]
        do { bytes = try fs.read(rootFile, limit: 16 << 20) } catch {
            throw TackError("cannot read the Sigstore trusted root \(rootFile) (TACK_SIGSTORE_TRUSTED_ROOT): \(error.reason)")
        }
        do { return try TrustedRoot.parse(bytes, what: "the Sigstore trusted root \(rootFile)") } catch { throw TackError(error.message) }
    }

    /// Whether `bytes` is a Sigstore bundle (JSON with a bundle media type), not a bare envelope.
    static func isSigstoreBundle(_ bytes: [UInt8]) -> Bool {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any], let media = object["mediaType"] as? String else { return false }
        return media.hasPrefix("application/vnd.dev.sigstore.bundle")
    }

    /// A keyless signature (a bundle, or a GitHub attestation) of the download whose SHA-256
    /// is `sum`: who signed, as tack.lock records it (`sigstore:ISSUER IDENTITY`), or what is
    /// wrong with it.
    func check(bundle: [UInt8], sum: String, key: SigningKey) throws(TackError) -> Result<String, SignatureCheck.Problem> {
        guard let issuer = key.issuer else { return .failure(.init("tack.yml names no issuer")) }
        let digest = Checksum.bytes(sum)
        guard digest.count == 32 else { return .failure(.init("the download's SHA-256 is not known")) }
        if key.isProvenance, !Self.isSigstoreBundle(bundle) {
            return .failure(.init("the provenance is in slsa-github-generator's old format (a bare DSSE envelope with no transparency log proof), which tack cannot verify offline; generator 2.1 and later write a Sigstore bundle"))
        }
        let root = try root()
        let identity: SigstorePolicy.Identity = key.identityIsPattern ? .regexp(key.text) : .glob(key.text)
        let result: SigstoreVerification
        do {
            let parsed = try SigstoreBundle.parse(bundle)
            result = try BundleVerifier(root: root).verify(parsed, artifact: .sha256(digest), policy: .certificate(identity: identity, issuer: issuer))
        } catch {
            return .failure(.init(error.message))
        }
        // What `gh attestation verify -R OWNER/REPO` and slsa-verifier's `--source-uri` hold
        // it to, beyond the signer: the repository the signing workflow ran for.
        let what = key.scheme == .attestation ? "attestation" : "signature"
        if let repository = key.repository {
            let expected = "https://github.com/" + repository
            guard let source = result.sourceRepository, source.lowercased() == expected.lowercased() else {
                return .failure(.init("the \(what) was made for \(result.sourceRepository ?? "no repository"), not \(expected)"))
            }
        }
        if let wanted = key.predicateType, result.predicateType != wanted {
            return .failure(.init("the \(what)'s statement is a \(result.predicateType ?? "payload of no type"), not a \(wanted)"))
        }
        if key.isProvenance {
            return .success(SigningKey.provenanceID(builder: result.identity ?? "", source: result.sourceRepository ?? "", ref: result.sourceRef))
        }
        return .success(SigningKey.sigstoreID(issuer: result.issuer ?? issuer, identity: result.identity ?? ""))
    }
}
