import CSigstore
import Foundation

/// Verifies a Sigstore bundle offline, as sigstore-go does (Sigstore's client specification):
/// its transparency log entries (a signed promise, an inclusion proof to a signed
/// checkpoint, a body that records this signing), its RFC 3161 timestamps, the signing
/// certificate's path to a certificate authority at every time so proven, the certificate's
/// transparency timestamps, the signature over the artifact or DSSE envelope, and the policy.
/// Nothing is fetched: everything comes from the bundle and the trusted root.
public struct BundleVerifier: Sendable {
    public let root: TrustedRoot

    public init(root: TrustedRoot) {
        self.root = root
    }

    public func verify(_ bundle: SigstoreBundle, artifact: SigstoreArtifact, policy: SigstorePolicy) throws(SigstoreError) -> SigstoreVerification {
        // The signer's material, as the policy expects it.
        var certificate: Certificate?
        var key: PublicKey?
        switch (bundle.material, policy) {
        case (.certificate(let der), .certificate):
            guard let c = Certificate(der: der) else { throw .malformed(what: "the bundle's certificate", why: "it is not an X.509 certificate") }
            certificate = c
        case (.publicKey, .key(let spki)):
            guard let k = PublicKey(spki: spki) else { throw .malformed(what: "the key", why: "it cannot be read") }
            key = k
        case (.certificate, .key):
            throw .wrongMaterial("the bundle is signed with a certificate, and a key was given to verify it with")
        case (.publicKey, .certificate):
            throw .wrongMaterial("the bundle is signed with a key, not a certificate that could name a signer; verify it with --key")
        }
        guard let signerKey = key ?? certificate?.publicKey else { throw .certificate("its public key cannot be read") }
        let expected = LogEntryBody.Expected(content: bundle.content, certificate: certificate, key: key)

        var times = try logTimes(bundle, expected: expected, certificate: certificate)
        times += try timestampTimes(bundle)
        guard !times.isEmpty else { throw .noVerifiedTime }

        if let certificate {
            let issuer = try checkPath(certificate, at: times)
            try checkTransparency(certificate, issuer: issuer)
        }
        try checkSignature(bundle.content, key: signerKey, artifact: artifact)

        var result = SigstoreVerification(times: times.sorted())
        if case .dsse(let type, let payload, _) = bundle.content {
            result.payloadType = type
            result.payload = payload
        }
        if let certificate, case .certificate(let identity, let issuer) = policy {
            let found = certificate.altName(.uri) ?? certificate.altName(.email) ?? certificate.altName(.username)
            guard let found else { throw .certificate("it names no signer (no URI, e-mail or username)") }
            // The newer extension when it is there (unreadable: no issuer), else the older one.
            let foundIssuer = certificate.extensionValue("1.3.6.1.4.1.57264.1.8") != nil ? certificate.fulcioExtension(8) : certificate.fulcioExtension(1)
            guard let foundIssuer else { throw .certificate("it names no OIDC issuer") }
            guard identity.matches(found) else { throw .identity(expected: identity.text, found: found) }
            guard foundIssuer == issuer else { throw .issuer(expected: issuer, found: foundIssuer) }
            result.identity = found
            result.issuer = foundIssuer
            result.sourceRepository = certificate.fulcioExtension(12)
            result.sourceRef = certificate.fulcioExtension(14)
        }
        return result
    }

    // MARK: Transparency log

    /// Checks every entry from a log of the trusted root (others are skipped; at least one
    /// must be there) and returns the times their signed promises prove.
    func logTimes(_ bundle: SigstoreBundle, expected: LogEntryBody.Expected, certificate: Certificate?) throws(SigstoreError) -> [Int64] {
        guard !root.logs.isEmpty else { return [] }
        var verified = 0
        var times: [Int64] = []
        var skipped: [String] = []
        var seen: Set<String> = []
        for (i, entry) in bundle.entries.enumerated() {
            guard seen.insert(Hex.encode(entry.logID) + ":\(entry.logIndex)").inserted else {
                throw .logEntry(index: i, why: "it is the same log entry as another in the bundle")
            }
            guard let log = root.logs.first(where: { $0.keyID == entry.logID }) else {
                skipped.append("entry \(i) is from a log the trusted root does not list")
                continue
            }
            let rekorV2 = entry.kind == "hashedrekord" && entry.version == "0.0.2"
            if rekorV2 && entry.proof == nil { throw .logEntry(index: i, why: "a Rekor v2 entry without an inclusion proof") }
            if entry.proof == nil && entry.signedEntryTimestamp == nil { throw .logEntry(index: i, why: "it has neither a signed promise nor an inclusion proof") }
            guard let logKey = log.publicKey else { throw .malformed(what: "the trusted root", why: "a log's key cannot be read") }
            var promised: Int64?
            if let set = entry.signedEntryTimestamp {
                guard let t = entry.integratedTime else { throw .logEntry(index: i, why: "it has a signed promise but no integrated time") }
                let payload = "{\"body\":\"\(Base64.encode(entry.body))\",\"integratedTime\":\(t),\"logID\":\"\(Hex.encode(entry.logID))\",\"logIndex\":\(entry.logIndex)}"
                guard logKey.verifies(set, over: Array(payload.utf8), hash: .sha256) else {
                    skipped.append("entry \(i)'s signed promise does not verify with the log's key")
                    continue
                }
                guard log.isValid(at: t) else { throw .logEntry(index: i, why: "it was integrated outside the time the log's key is valid for") }
                promised = t
            }
            if let proof = entry.proof {
                try checkInclusion(entry, proof, log: log, key: logKey, rekorV2: rekorV2, index: i)
            }
            try LogEntryBody.check(entry, index: i, against: expected)
            if let t = entry.integratedTime, t != 0, let certificate, !certificate.isValid(at: t) {
                throw .logEntry(index: i, why: "it was integrated at \(Self.format(t)), outside the signing certificate's validity")
            }
            verified += 1
            if let promised { times.append(promised) }
        }
        guard verified > 0 else { throw .noTrustedLogEntry(skipped.isEmpty ? "the bundle has no log entry" : skipped.joined(separator: "; ")) }
        return times
    }

    func checkInclusion(_ entry: SigstoreBundle.LogEntry, _ proof: SigstoreBundle.InclusionProof, log: TrustedRoot.Log, key: PublicKey, rekorV2: Bool, index i: Int) throws(SigstoreError) {
        guard let checkpoint = Checkpoint.parse(proof.checkpoint) else { throw .logEntry(index: i, why: "its checkpoint is not a signed note") }
        let hint = Array(log.keyID.prefix(4))
        if rekorV2 {
            guard checkpoint.origin == log.host else { throw .logEntry(index: i, why: "its checkpoint is from `\(checkpoint.origin)`, not \(log.host)") }
            var signed = false
            for s in checkpoint.signatures where s.name == log.host && s.hint == hint {
                guard key.verifies(s.signature, over: checkpoint.message) else { throw .logEntry(index: i, why: "its checkpoint's signature does not verify") }
                signed = true
            }
            guard signed else { throw .logEntry(index: i, why: "its checkpoint is not signed by the log") }
            // The proof's own root and size must be the checkpoint's: a bundle that says two
            // things about one tree says nothing.
            guard proof.rootHash == checkpoint.rootHash, proof.treeSize == checkpoint.size else {
                throw .logEntry(index: i, why: "its checkpoint is for another tree than its inclusion proof")
            }
            guard MerkleProof.root(leaf: MerkleProof.leafHash(entry.body), index: entry.logIndex, size: checkpoint.size, proof: proof.hashes) == checkpoint.rootHash else {
                throw .logEntry(index: i, why: "its inclusion proof does not lead to the checkpoint's root")
            }
        } else {
            guard !checkpoint.signatures.isEmpty, checkpoint.signatures.allSatisfy({ $0.hint == hint }) else {
                throw .logEntry(index: i, why: "its checkpoint is signed by another key than the log's")
            }
            guard checkpoint.signatures.allSatisfy({ key.verifies($0.signature, over: checkpoint.message, hash: .sha256) }) else {
                throw .logEntry(index: i, why: "its checkpoint's signature does not verify")
            }
            guard MerkleProof.root(leaf: MerkleProof.leafHash(entry.body), index: proof.logIndex, size: proof.treeSize, proof: proof.hashes) == proof.rootHash else {
                throw .logEntry(index: i, why: "its inclusion proof does not lead to the tree's root")
            }
            guard checkpoint.rootHash == proof.rootHash, checkpoint.size == proof.treeSize else {
                throw .logEntry(index: i, why: "its checkpoint is for another tree than its inclusion proof")
            }
        }
    }

    // MARK: Timestamps

    /// The times the bundle's RFC 3161 timestamps prove: each must verify with a timestamp
    /// authority of the trusted root, over the signature.
    func timestampTimes(_ bundle: SigstoreBundle) throws(SigstoreError) -> [Int64] {
        guard !bundle.timestamps.isEmpty else { return [] }
        guard !root.timestampAuthorities.isEmpty else { return [] }
        let signature: [UInt8]
        switch bundle.content {
        case .message(_, _, let s): signature = s
        case .dsse(_, _, let s):
            guard let first = s.first else { throw .signature("the DSSE envelope has no signature") }
            signature = first
        }
        var times: [Int64] = []
        var problems: [String] = []
        for (i, stamp) in bundle.timestamps.enumerated() {
            var genTime: Int64 = 0
            guard tack_ts_time(stamp, stamp.count, &genTime) == 0 else { throw .timestamp("timestamp \(i) cannot be read") }
            var holds = false
            for tsa in root.timestampAuthorities {
                let chain = tsa.chain
                guard let rootCert = chain.last else { continue }
                var error = [CChar](repeating: 0, count: 256)
                let result = withPointers(Array(chain.dropLast())) { pointers, lengths in
                    stamp.withUnsafeBufferPointer { s in
                        signature.withUnsafeBufferPointer { d in
                            rootCert.withUnsafeBufferPointer { r in
                                tack_ts_verify(s.baseAddress, s.count, d.baseAddress, d.count, pointers, lengths, chain.count - 1, r.baseAddress, r.count, &error, error.count)
                            }
                        }
                    }
                }
                guard result == 1 else {
                    problems.append("timestamp \(i): \(cText(error))")
                    continue
                }
                guard tsa.isValid(at: genTime) else {
                    problems.append("timestamp \(i) was made at \(Self.format(genTime)), outside the time its authority is trusted for")
                    continue
                }
                holds = true
                break
            }
            if holds && !times.contains(genTime) { times.append(genTime) }
        }
        guard !times.isEmpty else { throw .timestamp(problems.isEmpty ? "no timestamp verifies" : problems.joined(separator: "; ")) }
        return times
    }

    // MARK: Certificate

    /// The certificate leads to a certificate authority of the trusted root at every proven
    /// time, and may sign code; returns the certificate that issued it.
    func checkPath(_ leaf: Certificate, at times: [Int64]) throws(SigstoreError) -> Certificate {
        guard !leaf.isCA else { throw .certificate("it is a certificate authority's, not a signer's") }
        guard leaf.maySignCode else { throw .certificate("it may not sign code (key usage digitalSignature, extended key usage codeSigning)") }
        var issuer: Certificate?
        for t in times {
            var why = "no certificate authority of the trusted root was valid at \(Self.format(t))"
            var holds = false
            for ca in root.certificateAuthorities where ca.isValid(at: t) {
                let certs = ca.certificates
                guard let top = certs.last else { continue }
                if let problem = leaf.pathProblem(intermediates: Array(certs.dropLast()), root: top, at: t) {
                    why = "at \(Self.format(t)): \(problem)"
                    continue
                }
                holds = true
                issuer = certs.first
                break
            }
            guard holds else { throw .certificate(why) }
        }
        guard let issuer else { throw .certificate("no certificate authority issued it") }
        return issuer
    }

    /// At least one of the certificate's embedded SCTs verifies with a CT log of the root.
    func checkTransparency(_ leaf: Certificate, issuer: Certificate) throws(SigstoreError) {
        guard !root.ctLogs.isEmpty else { throw .certificateTransparency("the trusted root lists no certificate transparency log") }
        guard let scts = leaf.scts else { throw .certificateTransparency("its SCT list cannot be read") }
        guard !scts.isEmpty else { throw .certificateTransparency("the certificate embeds none") }
        guard let tbs = leaf.precertificateTBS, let issuerKey = issuer.publicKey, tbs.count < 1 << 24 else {
            throw .certificateTransparency("the certificate cannot be read as a precertificate")
        }
        let issuerKeyHash = HashAlgorithm.sha256.digest(issuerKey.spki)
        var problems: [String] = []
        for sct in scts {
            guard let log = root.ctLogs.first(where: { $0.keyID == sct.logID }) else {
                problems.append("an SCT from a log the trusted root does not list")
                continue
            }
            guard log.isValid(at: Int64(sct.timestamp / 1000)), let key = log.publicKey, sct.version == 0, sct.algorithm != 0 else {
                problems.append("an SCT its log's key does not cover")
                continue
            }
            var signed: [UInt8] = [0, 0]
            for shift in stride(from: 56, through: 0, by: -8) { signed.append(UInt8(truncatingIfNeeded: sct.timestamp >> UInt64(shift))) }
            signed += [0, 1]
            signed += issuerKeyHash
            signed += [UInt8(truncatingIfNeeded: tbs.count >> 16), UInt8(truncatingIfNeeded: tbs.count >> 8), UInt8(truncatingIfNeeded: tbs.count)]
            signed += tbs
            signed += [UInt8(truncatingIfNeeded: sct.extensions.count >> 8), UInt8(truncatingIfNeeded: sct.extensions.count)]
            signed += sct.extensions
            if key.verifies(sct.signature, over: signed, hash: .sha256) { return }
            problems.append("an SCT whose signature does not verify")
        }
        throw .certificateTransparency(problems.joined(separator: "; "))
    }

    // MARK: Signature

    func checkSignature(_ content: SigstoreBundle.Content, key: PublicKey, artifact: SigstoreArtifact) throws(SigstoreError) {
        switch content {
        case .message(let hash, let digest, let signature):
            let mine: [UInt8]
            switch artifact {
            case .bytes(let b): mine = hash.digest(b)
            case .sha256(let d):
                guard hash == .sha256 else { throw .artifactMismatch("the bundle signs a \(hash) digest, and only a SHA-256 was given") }
                mine = d
            }
            guard mine == digest else { throw .artifactMismatch("its digest is not the artifact's") }
            var holds = false
            if key.kind == .ed25519 {
                guard case .bytes(let b) = artifact else { throw .signature("an Ed25519 signature can only be checked against the artifact itself") }
                holds = key.verifies(signature, over: b)
            } else {
                holds = key.verifies(signature, digest: digest, hash: hash)
            }
            guard holds else { throw .signature("it does not verify with the signer's key") }
        case .dsse(let type, let payload, let signatures):
            guard signatures.count == 1, let signature = signatures.first else { throw .signature("a DSSE envelope needs exactly one signature") }
            guard key.verifies(signature, over: DSSE.pae(type: type, payload: payload)) else {
                throw .signature("the DSSE envelope's signature does not verify with the signer's key")
            }
            let subjects = try InTotoStatement.subjects(payload)
            guard subjects.contains(artifact.sha256) else { throw .artifactMismatch("its statement names no subject with the artifact's SHA-256") }
        }
    }

    static func format(_ t: Int64) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }
}

/// An in-toto statement (a DSSE payload): the SHA-256 digests of its subjects.
enum InTotoStatement {
    static func subjects(_ payload: [UInt8]) throws(SigstoreError) -> [[UInt8]] {
        let json = try JSONObject.parse(payload, what: "the DSSE payload")
        let subjects = try json.objects("subject")
        guard subjects.count <= 1024 else { throw .malformed(what: "the DSSE payload", why: "more than 1,024 subjects") }
        var out: [[UInt8]] = []
        for s in subjects {
            if let d = s.optionalObject("digest")?.optionalString("sha256"), let bytes = Hex.decode(d.lowercased()) { out.append(bytes) }
        }
        return out
    }
}
