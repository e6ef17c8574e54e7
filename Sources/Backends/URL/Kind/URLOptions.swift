#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// A url tool's options: its checksum, what other platforms download instead, and where its
/// versions are listed.
public struct URLOptions: BackendOptionSet {
    public var checksum: String?
    /// Per platform (`linux-arm64`), its own `url`, `bin` or `checksum`.
    public var platforms: [String: [String: String]] = [:]
    /// `versions: { url:, regex: }`: where the tool's versions are listed.
    public var versionIndex: [String: String]?
    /// `checksums: { url: }`: the publisher's checksum file (`SHA256SUMS`, `checksums.txt`,
    /// or one `.sha256` per download), which a download's first checksum must agree with.
    public var checksumsURL: String?
    /// `minisign: { key:, url: }` or `cosign: { key:, url: }`: the publisher's key every
    /// download must be signed by; or `signer: { issuer:, identity:, bundle: }`, the keyless
    /// signer (a Sigstore bundle beside each download, `URL.sigstore.json` unless `bundle:`). Not in the lock's `options`: the lock records the key's id
    /// (`signed-by`), and a key that changes later is refused until `tack update`.
    public var signingKey: SigningKey?
    public init() {}

    public static let keys = ["checksum", "platforms", "versions", "checksums", "minisign", "cosign", "signer", "attested", "provenance"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "checksum": checksum = try reader.checksum(value, "`checksum`")
        case "platforms": platforms = try reader.platformOverrides(value)
        case "checksums": checksumsURL = try reader.checksumsFile(value)
        case "minisign", "cosign", "signer", "attested", "provenance":
            guard signingKey == nil else { throw reader.fail(key.mark, "give one signer, `minisign`, `cosign`, `signer`, `attested` or `provenance`, not two") }
            switch key.value {
            case "signer": signingKey = try reader.keylessSigner(value)
            case "attested": signingKey = try reader.attestation(value)
            case "provenance": signingKey = try reader.provenance(value)
            default: signingKey = try reader.signingKey(value, SigningKey.Scheme(rawValue: key.value) ?? .minisign)
            }
        default: versionIndex = try reader.versionIndex(value)
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if let checksum { out["checksum"] = checksum.lowercased() }
        if let checksumsURL { out["checksums"] = checksumsURL }
        for (platform, fields) in platforms {
            for (key, value) in fields { out["platforms.\(platform).\(key)"] = key == "checksum" ? value.lowercased() : value }
        }
        return out
    }

    public func manifestChecksum(platform: String) -> String? { platforms[platform]?["checksum"] ?? checksum }

    /// The names `bin:` of each platform installs as.
    public var commands: [String] {
        platforms.values.compactMap { $0["bin"] }.flatMap { $0.split(separator: " ").map { BinSpec.split(String($0)).name } }
    }

    public func overlaid(by other: URLOptions) -> URLOptions {
        var o = self
        if other.checksum != nil { o.checksum = other.checksum }
        for (platform, fields) in other.platforms {
            for (name, value) in fields { o.platforms[platform, default: [:]][name] = value }
        }
        if other.versionIndex != nil { o.versionIndex = other.versionIndex }
        if other.checksumsURL != nil { o.checksumsURL = other.checksumsURL }
        if other.signingKey != nil { o.signingKey = other.signingKey }
        return o
    }
}

extension ToolOptions {
    /// A url tool's options.
    public var url: URLOptions {
        get { self[URLOptions.self] }
        set { self[URLOptions.self] = newValue }
    }
}

extension ManifestDecoder {
    /// A url tool's `platforms:`: per platform, its own `url`, `bin` or `checksum`.
    public func platformOverrides(_ v: Node) throws(TackError) -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        for (platform, entry) in try mapping(v, "`platforms`") {
            var fields: [String: String] = [:]
            for (fk, fv) in try mapping(entry, "`platforms.\(platform.value)`") {
                guard ["url", "bin", "checksum"].contains(fk.value) else {
                    throw unknownKey(fk, in: ["url", "bin", "checksum"], context: " in `platforms.\(platform.value)`")
                }
                let what = "`platforms.\(platform.value).\(fk.value)`"
                switch fk.value {
                case "url":
                    if case .scalar(let sv) = fv, sv.value == "unsupported" { fields["url"] = "unsupported" }
                    else { fields["url"] = try downloadURL(fv, what) }
                case "checksum": fields["checksum"] = try checksum(fv, what)
                default:
                    // One string: paths separated by spaces.
                    let text = try string(fv, what)
                    for spec in text.split(separator: " ") { try checkBin(String(spec), at: fv.mark) }
                    fields["bin"] = text
                }
            }
            guard Platform.isValidKey(platform.value) else {
                throw fail(platform.mark, "\(quoted(platform.value)) is not a platform; write `os-arch`, like `linux-x86_64` or `darwin-arm64`")
            }
            out[platform.value] = fields
        }
        return out
    }

    /// A url tool's `versions:` index: a page's `url` and the `regex` whose first group is a version.
    public func versionIndex(_ v: Node) throws(TackError) -> [String: String] {
        var index: [String: String] = [:]
        for (fk, fv) in try mapping(v, "`versions`") {
            guard ["url", "regex"].contains(fk.value) else {
                throw unknownKey(fk, in: ["url", "regex"], context: " in `versions`")
            }
            index[fk.value] = try string(fv, "`versions.\(fk.value)`")
        }
        guard index["url"] != nil, index["regex"] != nil else {
            throw fail(v.mark, "`versions` needs `url` (a page listing versions) and `regex` (whose first group is a version)")
        }
        return index
    }

    /// `checksums: { url: … }` (or the URL alone): the publisher's checksum file.
    public func checksumsFile(_ v: Node) throws(TackError) -> String {
        if case .scalar = v { return try downloadURL(v, "`checksums`") }
        var url: String?
        for (fk, fv) in try mapping(v, "`checksums`") {
            guard fk.value == "url" else { throw unknownKey(fk, in: ["url"], context: " in `checksums`") }
            url = try downloadURL(fv, "`checksums.url`")
        }
        guard let url else { throw fail(v.mark, "`checksums` needs `url`, the publisher's checksum file (like SHA256SUMS)") }
        return url
    }

    /// `signer: { issuer:, identity:, bundle: }`: a keyless Sigstore signer.
    public func keylessSigner(_ v: Node) throws(TackError) -> SigningKey {
        var issuer: String?, identity: String?, bundle: String?
        for (fk, fv) in try mapping(v, "`signer`") {
            switch fk.value {
            case "issuer": issuer = try string(fv, "`signer.issuer`")
            case "identity": identity = try string(fv, "`signer.identity`")
            case "bundle": bundle = try downloadURL(fv, "`signer.bundle`")
            default: throw unknownKey(fk, in: ["issuer", "identity", "bundle"], context: " in `signer`")
            }
        }
        guard let issuer, let identity else {
            throw fail(v.mark, "`signer` needs `issuer` (the OIDC issuer, like https://token.actions.githubusercontent.com) and `identity` (who signs: a workflow's URL or an e-mail; `*` matches any run of characters)")
        }
        do { return try SigningKey(issuer: issuer, identity: identity, url: bundle) } catch { throw fail(v.mark, error.message) }
    }

    /// `attested: github` (the repository the download URL names), or `attested: { github:
    /// owner/repo, workflow: owner/repo/.github/workflows/release.yml, predicate: TYPE }`.
    public func attestation(_ v: Node) throws(TackError) -> SigningKey {
        if case .scalar(let s) = v, !s.isNull {
            guard s.value == "github" else { throw fail(s.mark, "`attested` is `github` (GitHub's artifact attestations of the download), or `{ github: owner/repo, workflow: …, predicate: … }`") }
            do { return try SigningKey(attestationOf: nil) } catch { throw fail(s.mark, error.message) }
        }
        var repository: String?, workflow: String?, predicate: String?
        for (fk, fv) in try mapping(v, "`attested`") {
            switch fk.value {
            case "github": repository = try string(fv, "`attested.github`")
            case "workflow": workflow = try string(fv, "`attested.workflow`")
            case "predicate": predicate = try string(fv, "`attested.predicate`")
            default: throw unknownKey(fk, in: ["github", "workflow", "predicate"], context: " in `attested`")
            }
        }
        do { return try SigningKey(attestationOf: repository, workflow: workflow, predicateType: predicate ?? "https://slsa.dev/provenance/v1") } catch {
            throw fail(v.mark, error.message)
        }
    }

    /// `provenance: { url: …, source: owner/repo }`: SLSA provenance that slsa-github-generator
    /// made for the downloads (its bundle form), built from `source` (default: the repository
    /// a github.com release URL names).
    public func provenance(_ v: Node) throws(TackError) -> SigningKey {
        var url: String?, source: String?
        for (fk, fv) in try mapping(v, "`provenance`") {
            switch fk.value {
            case "url": url = try downloadURL(fv, "`provenance.url`")
            case "source": source = try string(fv, "`provenance.source`")
            default: throw unknownKey(fk, in: ["url", "source"], context: " in `provenance`")
            }
        }
        guard let url else { throw fail(v.mark, "`provenance` needs `url`, where the release's provenance (`*.intoto.jsonl`) is") }
        do { return try SigningKey(provenanceAt: url, source: source) } catch { throw fail(v.mark, error.message) }
    }

    /// `minisign:`/`cosign:`: the key alone, or `{ key: …, url: … }` with where the signature is.
    public func signingKey(_ v: Node, _ scheme: SigningKey.Scheme) throws(TackError) -> SigningKey {
        var key: (String, Mark)?
        var url: String?
        if case .scalar(let s) = v, !s.isNull {
            key = (s.value, s.mark)
        } else {
            for (fk, fv) in try mapping(v, "`\(scheme.rawValue)`") {
                switch fk.value {
                case "key": key = (try string(fv, "`\(scheme.rawValue).key`"), fv.mark)
                case "url": url = try downloadURL(fv, "`\(scheme.rawValue).url`")
                default: throw unknownKey(fk, in: ["key", "url"], context: " in `\(scheme.rawValue)`")
                }
            }
        }
        guard let key else { throw fail(v.mark, "`\(scheme.rawValue)` needs `key`, the publisher's public key") }
        do { return try SigningKey(scheme, text: key.0, url: url) } catch { throw fail(key.1, error.message) }
    }
}
