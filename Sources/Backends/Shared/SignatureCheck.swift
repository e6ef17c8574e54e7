import CCrypto
import Foundation
import BackendKinds
import Sigstore
import TackCore

/// A download checked against the publisher's signature with the key tack.yml names
/// (`SigningKey`), before anything is extracted: minisign's format (Ed25519 over the file, or
/// over its BLAKE2b-512 hash for prehashed `ED` signatures, and the trusted comment signed
/// with it), keyed cosign blobs (a base64 DER ECDSA P-256 signature over the file's
/// SHA-256) and keyless Sigstore bundles (`BundleVerifier`, offline, with the trusted root of
/// `SigstoreTrust`). Signatures are kept in the download cache beside the file they sign
/// (`downloads/<name>.minisig`, `DownloadCacheName`), so an offline install checks them again.
struct SignatureCheck {
    let http: any HTTPClient
    let downloader: Downloader
    let fs: any FileSystem
    /// Where keyless signatures are checked against (the environment's choice).
    let sigstore: SigstoreTrust
    /// Where GitHub's API is (attestations are asked of it).
    var mirrors: DownloadMirrors = .none

    /// Checks `file` (whose SHA-256 is `sum`) with `key`, its signature fetched from
    /// `signatureURL` (or the cache, unless `fresh`); who signed, as tack.lock records it.
    /// `label` tells apart two signatures of one scheme kept for one file (aqua's cosign bundle
    /// and SLSA provenance); `fetched`, a signature already fetched from `signatureURL`.
    func verify(_ file: String, sum: String, key: SigningKey, signatureURL: String, cache: String, fresh: Bool = false, tool: String, downloadName: String,
                label: String? = nil, fetched: [UInt8]? = nil, policy: String = "tack.yml", offline: Bool = false) async throws(TackError) -> String {
        let kept = file + (label.map { "." + $0 } ?? "") + key.scheme.suffix
        /// Who signed, or what is wrong.
        func check(_ signature: [UInt8]) throws(TackError) -> Result<String, Problem> {
            switch key.scheme {
            case .minisign: return Self.minisignProblem(file, signature: signature, key: key, name: downloadName).map { .failure(Problem($0)) } ?? .success(key.id)
            case .cosign: return Self.cosignProblem(sum: sum, signature: signature, key: key).map { .failure(Problem($0)) } ?? .success(key.id)
            case .sigstore, .attestation: return try sigstore.check(bundle: signature, sum: sum, key: key)
            }
        }
        // A kept signature this signer made is as good as a fresh one (offline too); one
        // another signer made (the key changed) is fetched again.
        if !fresh, let cached = try? fs.read(kept) {
            switch try check(cached) {
            case .success(let signer): return signer
            case .failure(let problem) where offline: throw TackError("\(tool): the signature kept in the download cache does not hold: \(problem.text)")
            case .failure: break
            }
        }
        if offline { throw TackError("\(tool): no signature of it is kept in the download cache — run `tack lock --verify` with the network") }
        if key.scheme == .attestation { return try await attested(file, kept: kept, sum: sum, key: key, check: check, fresh: fresh, tool: tool, policy: policy) }
        let signature: [UInt8]
        if let fetched {
            signature = fetched
        } else {
            do { signature = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(signatureURL, limit: .signature) } } catch {
                throw TackError("cannot download the \(key.scheme.rawValue) signature of \(tool) (\(Redact.url(signatureURL))): \(error.message) — nothing was installed; tack installs nothing \(policy) says is signed without checking its signature")
            }
        }
        switch try check(signature) {
        case .failure(let problem):
            let named = key.scheme == .sigstore ? "\(policy) names the signer \(key.text) (issuer \(key.issuer ?? ""))" : "\(policy) names the key \(key.id)"
            throw TackError("\(tool) failed its \(key.scheme.rawValue) signature check (\(Redact.url(signatureURL))): \(problem.text); \(named) — nothing was installed")
        case .success(let signer):
            // Kept (a fresh check's too), so an offline install and `tack lock --verify
            // --offline` check it again.
            try? fs.writeAtomically(kept, signature)
            return signer
        }
    }

    /// A download GitHub keeps an attestation of, by the repository (and workflow) the key
    /// names: the first of GitHub's attestations for its digest that verifies, kept beside it.
    func attested(_ file: String, kept: String, sum: String, key: SigningKey, check: (_ bundle: [UInt8]) throws(TackError) -> Result<String, Problem>,
                  fresh: Bool, tool: String, policy: String) async throws(TackError) -> String {
        guard let repository = key.repository else { throw TackError("an attestation names no repository") }
        let bundles = try await GitHubAttestations(http: http, downloader: downloader, mirrors: mirrors).bundles(of: repository, sha256: sum, tool: tool)
        guard !bundles.isEmpty else {
            throw TackError("GitHub keeps no attestation of \(tool) (sha256 \(sum)) for \(repository) — nothing was installed; tack installs nothing \(policy) says is attested without checking the attestation")
        }
        var problems: [String] = []
        for bundle in bundles {
            switch try check(bundle) {
            case .success(let signer):
                try? fs.writeAtomically(kept, bundle)
                return signer
            case .failure(let problem): problems.append(problem.text)
            }
        }
        throw TackError("\(tool) failed its attestation check: none of GitHub's \(bundles.count) attestation\(bundles.count == 1 ? "" : "s") for its digest holds (\(problems.joined(separator: "; "))); the attestation must be made by \(key.text) — nothing was installed")
    }

    /// Why a signature does not hold.
    struct Problem: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// What is wrong with a minisign signature of `file`, or nil when it is good.
    /// `name` is the download's file name, which the trusted comment must name (minisign's
    /// `file:`): a signature binds the file it was made for, so another release's file and
    /// signature served at this one's URLs are refused.
    static func minisignProblem(_ file: String, signature: [UInt8], key: SigningKey, name: String) -> String? {
        let lines = String(decoding: signature, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        guard lines.count >= 4, lines[0].hasPrefix("untrusted comment:"), lines[2].hasPrefix("trusted comment: "),
              let sig = Base64.decode(lines[1]), sig.count == 74,
              let global = Base64.decode(lines[3]), global.count == 64 else {
            return "it is not a minisign signature (four lines: an untrusted comment, the signature, a trusted comment, its signature)"
        }
        let algorithm = String(decoding: sig[0..<2], as: UTF8.self)
        guard algorithm == "Ed" || algorithm == "ED" else { return "it uses the signature algorithm \(quoted(algorithm)), which minisign does not define" }
        guard Array(sig[2..<10]) == key.minisignKeyID else {
            return "it was made with the key minisign:\(SigningKey.minisignID(sig[2..<10])), not the one tack.yml names"
        }
        let signed: [UInt8]
        if algorithm == "ED" {
            guard let hash = Hashing.digest(.blake2b512, file: file)?.digest else { return "the download cannot be read" }
            signed = hash
        } else {
            guard let whole = try? Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped) else { return "the download cannot be read" }
            signed = [UInt8](whole)
        }
        let publicKey = key.ed25519
        let body = Array(sig[10...])
        guard ed25519(publicKey, signed, body) else { return "the signature does not match the download" }
        let trusted = Array(lines[2].dropFirst("trusted comment: ".count).utf8)
        guard ed25519(publicKey, body + trusted, global) else { return "its trusted comment was changed after it was signed" }
        // minisign writes `timestamp:…<TAB>file:NAME<TAB>hashed`: the file it signed.
        let fields = String(decoding: trusted, as: UTF8.self).split(whereSeparator: { $0 == "\t" || $0 == " " })
        guard let signedName = fields.first(where: { $0.hasPrefix("file:") }).map({ String($0.dropFirst(5)) }) else {
            return "its trusted comment names no file (minisign's `file:`), so it could be the signature of another release's file"
        }
        guard signedName == name else {
            return "it was made for \(quoted(signedName)), not \(quoted(name)): another file's signature (an older release served as this one?)"
        }
        return nil
    }

    static func ed25519(_ key: [UInt8], _ message: [UInt8], _ signature: [UInt8]) -> Bool {
        guard key.count == 32, signature.count == 64 else { return false }
        return key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                signature.withUnsafeBufferPointer { s in
                    tack_ed25519_verify(k.baseAddress, m.baseAddress, m.count, s.baseAddress) == 1
                }
            }
        }
    }

    /// What is wrong with a keyed cosign signature of the file whose SHA-256 is `sum`, or nil.
    static func cosignProblem(sum: String, signature: [UInt8], key: SigningKey) -> String? {
        guard let der = Base64.decode(signature), der.count > 8, der[0] == 0x30 else {
            return "it is not a cosign signature (a base64 DER ECDSA signature, as `cosign sign-blob` writes it)"
        }
        let digest = Checksum.bytes(sum)
        guard digest.count == 32 else { return "the download's SHA-256 is not known" }
        let result = key.material.withUnsafeBufferPointer { k in
            digest.withUnsafeBufferPointer { d in
                der.withUnsafeBufferPointer { s in
                    tack_ecdsa_p256_verify(k.baseAddress, k.count, d.baseAddress, d.count, s.baseAddress, s.count)
                }
            }
        }
        switch result {
        case 1: return nil
        case 0: return "the signature does not match the download"
        default: return "tack.yml's cosign key is not an ECDSA P-256 public key"
        }
    }
}
