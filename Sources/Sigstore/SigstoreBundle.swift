/// A Sigstore bundle (`*.sigstore.json`, cosign's `--bundle`, GitHub's attestations): a
/// signature or DSSE envelope, the certificate or key hint that made it, transparency log
/// entries and signed timestamps. Read strictly: an unknown media type, a field that is not
/// base64, a negative log index or an empty certificate chain is refused here.
public struct SigstoreBundle: Sendable {
    public enum Material: Sendable, Equatable {
        /// The signing certificate (DER); a v0.1/v0.2 chain's other certificates are ignored:
        /// what the signer is trusted through comes from the trusted root only.
        case certificate([UInt8])
        /// A key the verifier is given (`--key`); the hint is opaque.
        case publicKey(hint: String)
    }

    public enum Content: Sendable, Equatable {
        case message(hash: HashAlgorithm, digest: [UInt8], signature: [UInt8])
        case dsse(payloadType: String, payload: [UInt8], signatures: [[UInt8]])
    }

    public struct LogEntry: Sendable {
        public var logIndex: Int64
        public var logID: [UInt8]
        public var kind: String
        public var version: String
        public var integratedTime: Int64?
        public var signedEntryTimestamp: [UInt8]?
        public var proof: InclusionProof?
        public var body: [UInt8]
    }

    public struct InclusionProof: Sendable {
        public var logIndex: Int64
        public var treeSize: Int64
        public var rootHash: [UInt8]
        public var hashes: [[UInt8]]
        public var checkpoint: String
    }

    /// 1, 2 or 3 (v0.1 to v0.3).
    public var version: Int
    public var material: Material
    public var entries: [LogEntry]
    public var timestamps: [[UInt8]]
    public var content: Content

    public static func parse(_ bytes: [UInt8]) throws(SigstoreError) -> SigstoreBundle {
        let json = try JSONObject.parse(bytes, what: "the bundle")
        let media = try json.string("mediaType")
        let version: Int
        switch media {
        case "application/vnd.dev.sigstore.bundle+json;version=0.1": version = 1
        case "application/vnd.dev.sigstore.bundle+json;version=0.2": version = 2
        case "application/vnd.dev.sigstore.bundle+json;version=0.3", "application/vnd.dev.sigstore.bundle.v0.3+json": version = 3
        default: throw .unsupportedVersion(media)
        }
        let vm = try json.object("verificationMaterial")
        let material: Material
        if let chain = vm.optionalObject("x509CertificateChain") {
            guard version < 3 else { throw .malformed(what: vm.path, why: "a v0.3 bundle carries one certificate, not a chain") }
            let certs = try chain.objects("certificates")
            guard let leaf = certs.first else { throw .malformed(what: chain.path, why: "the certificate chain is empty") }
            material = .certificate(try leaf.bytes("rawBytes"))
        } else if let cert = vm.optionalObject("certificate") {
            material = .certificate(try cert.bytes("rawBytes"))
        } else if let key = vm.optionalObject("publicKey") {
            material = .publicKey(hint: key.optionalString("hint") ?? "")
        } else {
            throw .malformed(what: vm.path, why: "it has neither a certificate nor a public key")
        }
        let entries = try vm.objects("tlogEntries").map { (o) throws(SigstoreError) in try entry(o) }
        guard entries.count <= 32 else { throw .malformed(what: vm.path, why: "more than 32 log entries") }
        let timestamps = try (vm.optionalObject("timestampVerificationData")?.objects("rfc3161Timestamps") ?? [])
            .map { (o) throws(SigstoreError) in try o.bytes("signedTimestamp") }
        guard timestamps.count <= 32 else { throw .malformed(what: vm.path, why: "more than 32 timestamps") }
        for e in entries {
            if version == 1 && e.signedEntryTimestamp == nil && e.proof == nil { throw .malformed(what: vm.path, why: "a log entry has neither a promise nor a proof") }
            if version >= 2 && e.proof == nil {
                throw .malformed(what: vm.path, why: "a v0.\(version) bundle's log entries need an inclusion proof")
            }
        }

        let content: Content
        if let m = json.optionalObject("messageSignature") {
            let digest = try m.object("messageDigest")
            guard let hash = HashAlgorithm(protobufName: try digest.string("algorithm")) else {
                throw .malformed(what: digest.path, why: "its algorithm is not SHA2_256, SHA2_384 or SHA2_512")
            }
            content = .message(hash: hash, digest: try digest.bytes("digest"), signature: try m.bytes("signature"))
        } else if let d = json.optionalObject("dsseEnvelope") {
            let signatures = try d.objects("signatures").map { (s) throws(SigstoreError) in try s.bytes("sig") }
            content = .dsse(payloadType: try d.string("payloadType"), payload: try d.bytes("payload"), signatures: signatures)
        } else {
            throw .malformed(what: "the bundle", why: "it has neither a message signature nor a DSSE envelope")
        }
        return SigstoreBundle(version: version, material: material, entries: entries, timestamps: timestamps, content: content)
    }

    static func entry(_ o: JSONObject) throws(SigstoreError) -> LogEntry {
        let index = try o.int64("logIndex")
        guard index >= 0 else { throw .malformed(what: o.path, why: "its log index is negative") }
        let kv = try o.object("kindVersion")
        var proof: InclusionProof?
        if let p = o.optionalObject("inclusionProof") {
            let checkpoint = try p.object("checkpoint").string("envelope")
            guard !checkpoint.isEmpty else { throw .malformed(what: p.path, why: "its checkpoint is empty") }
            let proofIndex = try p.int64("logIndex"), size = try p.int64("treeSize")
            guard proofIndex >= 0, size > 0 else { throw .malformed(what: p.path, why: "its index or tree size is out of range") }
            let hashes = try p.strings("hashes").map { (h) throws(SigstoreError) -> [UInt8] in
                guard let b = Base64.decode(h) else { throw .malformed(what: p.path, why: "a hash is not base64") }
                return b
            }
            proof = InclusionProof(logIndex: proofIndex, treeSize: size, rootHash: try p.bytes("rootHash"), hashes: hashes, checkpoint: checkpoint)
        }
        let set = try o.optionalObject("inclusionPromise").map { (p) throws(SigstoreError) in try p.bytes("signedEntryTimestamp") }
        let time = o.optionalInt64("integratedTime")
        if o.has("integratedTime") && time == nil { throw .malformed(what: o.path, why: "`integratedTime` is not an integer") }
        return LogEntry(
            logIndex: index, logID: try o.object("logId").bytes("keyId"), kind: try kv.string("kind"), version: try kv.string("version"),
            integratedTime: time, signedEntryTimestamp: set, proof: proof, body: try o.bytes("canonicalizedBody"))
    }
}
