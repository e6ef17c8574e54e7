/// Who a url tool's downloads must be signed by: a publisher's key, `minisign:` (Ed25519, in
/// minisign's format, trusted comment included) or `cosign:` (a keyed `cosign sign-blob`
/// signature: ECDSA P-256 over SHA-256), or `signer:`, a keyless Sigstore signature (a bundle
/// whose certificate names this identity, issued on the word of this OIDC issuer). The
/// signature is checked before anything is extracted, and who signed goes into tack.lock
/// (`signed-by`), so a signer that later changes is refused, as a moved tag is, until
/// `tack update` accepts it.
public struct SigningKey: Sendable, Hashable {
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        case minisign, cosign
        /// Keyless: a Sigstore bundle (tack.yml's `signer:`, aqua's `cosign.bundle`).
        case sigstore
        /// Keyless, found by the download's digest: a GitHub artifact attestation (`attested:
        /// github`, aqua's `github_artifact_attestations`).
        case attestation

        /// What follows the download's URL where the publisher puts its signature (and the
        /// download cache keeps it).
        public var suffix: String {
            switch self {
            case .minisign: return ".minisig"
            case .cosign: return ".sig"
            case .sigstore: return ".sigstore.json"
            case .attestation: return ".attestation.json"
            }
        }
    }

    public let scheme: Scheme
    /// The key as tack.yml gives it (minisign's `RW…`, cosign's PEM block).
    public var text: String
    /// Where the signature is: a URL template like the download's; nil for the download's URL
    /// with `.minisig` (minisign) or `.sig` (cosign) added.
    public var url: String?
    /// minisign: the key id (8 bytes) then the Ed25519 key (32); cosign: the DER
    /// SubjectPublicKeyInfo; keyless: nothing.
    public let material: [UInt8]
    /// Keyless: the OIDC issuer that must vouch for the signer (`text` is the identity, a glob,
    /// or with `identityIsPattern` a regular expression matched anywhere, as cosign's
    /// `--certificate-identity-regexp`).
    public var issuer: String?
    public var identityIsPattern = false
    /// An attestation: the GitHub repository (`owner/repo`) whose attestations are asked for,
    /// and the statement's predicate type they must have.
    public var repository: String?
    public var workflow: String?
    public var predicateType: String?
    /// SLSA provenance (`provenance:`): the identity is the builder's, `repository` the source's.
    public var isProvenance = false

    /// An attestation GitHub keeps for a download of `repository` (`owner/repo`; nil: the
    /// repository a github.com download URL names, filled in by `attesting(_:)`), made by a
    /// workflow of that repository (or `workflow`, `owner/repo/.github/workflows/x.yml`), with
    /// a statement of `predicateType`, as `gh attestation verify` checks it.
    public init(attestationOf repository: String?, workflow: String? = nil, workflowIsPattern: Bool = false,
                predicateType: String = "https://slsa.dev/provenance/v1") throws(TackError) {
        if let repository, !GitHub.isValidRepository(repository) {
            throw TackError("an attestation's repository is `owner/repo`, found \(quoted(repository))")
        }
        if let workflow, workflow.isEmpty || workflow.unicodeScalars.contains(where: { $0.value < 0x21 }) {
            throw TackError("an attestation's workflow is `owner/repo/.github/workflows/NAME.yml`, found \(quoted(workflow))")
        }
        scheme = .attestation
        // Until the repository is known (`attested: github`: the download URL's), any of
        // GitHub's workflows; the check of a download always knows it.
        text = "(?i)^https://github\\.com/"
        identityIsPattern = true
        issuer = "https://token.actions.githubusercontent.com"
        self.workflow = workflow.map { workflowIsPattern ? $0 : Pattern.literal($0) }
        self.predicateType = predicateType
        material = []
        if let repository {
            self.repository = repository
            text = Self.attestationIdentity(repository: repository, workflow: self.workflow)
        }
        if !Pattern.isValid(text) { throw TackError("an attestation's workflow \(quoted(workflow ?? "")) is not a regular expression") }
    }

    /// SLSA provenance at `url` (a template like a download's), made by one of
    /// slsa-github-generator's trusted reusable workflows at a release tag, for the builds of
    /// `source` (`owner/repo`; nil: the repository a github.com release download names,
    /// filled in by `attesting(_:)`), naming the download as a subject.
    public init(provenanceAt url: String, source: String?) throws(TackError) {
        if let source, !GitHub.isValidRepository(source) { throw TackError("`provenance.source` is `owner/repo`, found \(quoted(source))") }
        try self.init(issuer: "https://token.actions.githubusercontent.com", identity: Self.slsaBuilders, url: url, pattern: true)
        repository = source
        isProvenance = true
    }

    /// slsa-github-generator's trusted reusable workflows, at a release tag (what slsa-verifier
    /// accepts as the builder).
    public static let slsaBuilders = #"^https://github\.com/slsa-framework/slsa-github-generator/\.github/workflows/[A-Za-z0-9_.-]+\.ya?ml@refs/tags/v[0-9]+\.[0-9]+\.[0-9]+$"#

    /// Who may make an attestation of `repository`: one of its workflows, or `workflow` (a
    /// pattern). GitHub's names are case-insensitive.
    static func attestationIdentity(repository: String, workflow: String?) -> String {
        "(?i)^https://github\\.com/" + (workflow ?? Pattern.literal(repository + "/"))
    }

    /// The attestation of `repository`'s downloads: the signer is one of its workflows (or
    /// the workflow named), as `gh attestation verify -R` requires.
    public func attesting(_ repository: String) -> SigningKey {
        var key = self
        key.repository = repository
        if !isProvenance { key.text = Self.attestationIdentity(repository: repository, workflow: workflow) }
        return key
    }

    /// Keyless: a bundle whose certificate names an identity `identity` (a glob: `*` is any run
    /// of characters) matches, issued by `issuer`.
    public init(issuer: String, identity: String, url: String? = nil, pattern: Bool = false) throws(TackError) {
        func plain(_ s: String) -> Bool { !s.isEmpty && !s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == " " } }
        guard plain(issuer) else { throw TackError("`signer.issuer` is the OIDC issuer's URL (like https://token.actions.githubusercontent.com), one word") }
        guard plain(identity) else { throw TackError("`signer.identity` is the signer's identity (a workflow's URL or an e-mail; `*` matches any run of characters), one word") }
        if pattern && !Pattern.isValid(identity) { throw TackError("the signer's identity pattern \(quoted(identity)) is not a regular expression") }
        scheme = .sigstore
        text = identity
        identityIsPattern = pattern
        self.url = url
        self.issuer = issuer
        material = []
    }

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
        case .sigstore, .attestation:
            throw TackError("a keyless signer is `signer: { issuer:, identity: }`, not a key")
        }
    }

    /// The key's id as tack.lock records it: `minisign:6A53F8C0C4A21A2B` (the id minisign
    /// prints), `cosign:sha256:…` (the SHA-256 of the key's DER form).
    public var id: String {
        switch scheme {
        case .minisign: return "minisign:" + Self.minisignID(material[0..<8])
        case .cosign: return "cosign:sha256:" + SHA256Digest.hex(material)
        case .sigstore, .attestation: return Self.sigstoreID(issuer: issuer ?? "", identity: text)
        }
    }

    /// Whether `identity` (a certificate's) is one this keyless signer allows.
    public func allows(identity: String) -> Bool {
        identityIsPattern ? Pattern.matchesAnywhere(text, identity) : Glob.matches(text, identity)
    }

    /// What tack.lock records of a keyless signer: `sigstore:ISSUER IDENTITY` (the identity
    /// the certificate names; the key's `id` holds the pattern).
    public static func sigstoreID(issuer: String, identity: String) -> String { "sigstore:\(issuer) \(identity)" }

    /// Whether a signer tack.lock records is one this key accepts: the key itself, or a
    /// keyless signer with this issuer whose identity matches.
    public func accepts(_ signer: String) -> Bool {
        guard scheme == .sigstore || scheme == .attestation, let issuer else { return signer == id }
        if isProvenance {
            // `slsa:BUILDER SOURCE@REF`: the builder must be one this key allows.
            guard signer.hasPrefix("slsa:"), let space = signer.firstIndex(of: " ") else { return false }
            return allows(identity: String(signer[signer.index(signer.startIndex, offsetBy: 5)..<space]))
        }
        let prefix = "sigstore:\(issuer) "
        return signer.hasPrefix(prefix) && allows(identity: String(signer.dropFirst(prefix.count)))
    }

    /// A locked keyless signer in words: `IDENTITY (issuer ISSUER)` for `sigstore:ISSUER
    /// IDENTITY`, `BUILDER (SLSA provenance of SOURCE@REF)` for `slsa:BUILDER SOURCE@REF`.
    public static func words(_ locked: String) -> String {
        if locked.hasPrefix("slsa:"), let space = locked.firstIndex(of: " ") {
            return "\(locked[locked.index(locked.startIndex, offsetBy: 5)..<space]) (SLSA provenance of \(locked[locked.index(after: space)...]))"
        }
        guard locked.hasPrefix("sigstore:"), let space = locked.firstIndex(of: " ") else { return locked }
        return "\(locked[locked.index(after: space)...]) (issuer \(locked[locked.index(locked.startIndex, offsetBy: 9)..<space]))"
    }

    /// What tack.lock records of SLSA provenance: `slsa:BUILDER SOURCE@REF` (the builder's
    /// workflow, and the repository and ref it built).
    public static func provenanceID(builder: String, source: String, ref: String?) -> String {
        "slsa:\(builder) \(source)" + (ref.map { "@" + $0 } ?? "")
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
        record.signers[platform.description].map { !accepts($0) } ?? true
    }

    /// Whether `entry` records another signer for `platform` than this key: the key changed
    /// in tack.yml since the lock was written (or the lock was edited).
    public func contradicts(_ entry: LockedTool, platform: Platform) -> String? {
        guard let locked = entry.signers[platform.description], !accepts(locked) else { return nil }
        return locked
    }
}
