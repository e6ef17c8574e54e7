import TackCore
import YAML

/// What an aqua package downloads for one version and platform: the URL (github.com's, before
/// any mirror), the file's name and format, the files in it that become commands, the
/// publisher's checksum file where the registry names one, and the signatures it lists.
public struct AquaDownload: Equatable, Sendable {
    public var url: String
    public var asset: String
    /// `raw` (the download is the program), or an archive's format (`tar.gz`, `zip`).
    public var format: String
    /// Each command (`name`) and its path in the archive (`src`).
    public var files: [File]
    public var checksum: Checksum?
    /// The signatures the registry lists for it that tack cannot verify (a `cosign` signature
    /// with no bundle needs the log looked up online), said on install.
    public var signatures: [String] = []
    /// The keyless signatures of the download itself the registry names, which tack verifies:
    /// a `cosign` bundle, GitHub's attestations (`github_artifact_attestations`), SLSA
    /// provenance (`slsa_provenance`).
    public var keyless: [Keyless] = []
    /// The publisher's minisign signature of the download itself, and the key the registry
    /// names (its top-level `minisign`): checked before anything is unpacked.
    public var minisign: Minisign?

    public struct File: Equatable, Sendable {
        public var name: String
        public var src: String
    }

    public struct Checksum: Equatable, Sendable {
        /// Where the checksum file is.
        public var url: String
        /// `sha256`, `sha512`, `sha1` or `md5`.
        public var algorithm: String
        /// `""` (lines of `HASH  FILE`, or one hash), `raw` (the file is the hash) or `regexp`.
        public var fileFormat: String
        /// For `regexp`: the hash's pattern and the file name's.
        public var checksumPattern: String?
        public var filePattern: String?
        /// The publisher's minisign signature of the checksum file, and the key the registry
        /// names: the file is used only when the signature holds.
        public var minisign: Minisign?
        /// A keyed cosign signature of the checksum file (`cosign: { opts: [--key URL,
        /// --signature URL] }`): where the public key and the signature are.
        public var cosign: Cosign?
        /// A keyless one (`cosign: { bundle: …, opts: [--certificate-identity …] }`).
        public var keyless: Keyless?
    }

    /// A keyless signature: who may sign (the registry's policy, a `SigningKey`) and where the
    /// bundle is (nil: GitHub's attestations of the file's digest).
    public struct Keyless: Equatable, Sendable {
        /// `cosign`, `github_artifact_attestations` or `slsa_provenance`.
        public var kind: String
        public var key: SigningKey
        public var url: String?
    }

    public struct Cosign: Equatable, Sendable {
        public var keyURL: String
        public var signatureURL: String
    }

    public struct Minisign: Equatable, Sendable {
        public var url: String
        public var publicKey: String
    }
}

/// Renders a package (already chosen for a version and platform) into its download.
struct AquaDownloadRenderer {
    let package: AquaPackage
    let version: String
    let platform: AquaPlatform
    let vars: [String: String]

    /// Extensions aqua removes to make `AssetWithoutExt`, in the order it tries them.
    static let extensions = ["tar.br", "tar.bz2", "tar.gz", "tar.lz4", "tar.sz", "tar.xz", "tbr", "tbz", "tbz2", "tgz", "tlz4", "tsz", "txz",
                             "tar.zst", "zip", "gz", "bz2", "lz4", "sz", "xz", "zst", "dmg", "pkg", "rar", "tar"]

    func field(_ key: String) -> String? { package.string(key) }

    func fail(_ why: String) -> TackError { TackError("aqua's registry entry for \(package.name) \(version): \(why)") }

    func render() throws(TackError) -> AquaDownload {
        if AquaPackage.flag(package.fields["no_asset"]) == true {
            throw fail(field("error_message") ?? "the registry says no asset is released for this version")
        }
        if let message = field("error_message") { throw fail(message) }
        let rosetta = AquaPackage.flag(package.fields["rosetta2"]) == true
        guard package.publishes(for: platform) else { throw fail("it is not published for \(platform.goos)/\(platform.goarch) (its supported_envs)") }
        let type = package.type
        var values = baseValues(rosetta: rosetta, replacements: replacements(package.fields["replacements"]))
        let url: String, asset: String
        var format = field("format") ?? ""
        let repository = package.repository
        switch type {
        case "github_release":
            guard let repository, let template = field("asset") else { throw fail("a github_release package needs repo_owner, repo_name and asset") }
            asset = appendingExtension(try render(template, values), format: format)
            url = "https://github.com/\(repository)/releases/download/\(version)/\(asset)"
        case "http":
            guard let template = field("url") else { throw fail("an http package needs url") }
            url = appendingExtension(try render(template, values), format: format)
            asset = String(url.split(separator: "?").first?.split(separator: "/").last ?? "")
        case "github_content":
            guard let repository, let template = field("path") else { throw fail("a github_content package needs repo_owner, repo_name and path") }
            let path = try render(template, values)
            asset = String(path.split(separator: "/").last ?? "")
            // github.com's own raw address (it redirects), so TACK_GITHUB_DOWNLOADS mirrors it too.
            url = "https://github.com/\(repository)/raw/\(version)/\(path)"
            if format.isEmpty { format = "raw" }
        case "github_archive":
            guard let repository else { throw fail("a github_archive package needs repo_owner and repo_name") }
            format = "tar.gz"
            asset = "\(repository.split(separator: "/").last ?? "")-\(version).tar.gz"
            url = "https://github.com/\(repository)/archive/refs/tags/\(version).tar.gz"
        case "go_install", "go_build", "cargo":
            throw fail("it is built from source with \(type == "cargo" ? "cargo" : "go"), which tack does not do — pin it with `git:` and a `build:` command, or with a url or release")
        default:
            throw fail("its type \(quoted(type)) is not one tack installs")
        }
        if format.isEmpty { format = Self.extensions.first { asset.hasSuffix("." + $0) } ?? "raw" }
        if ["dmg", "pkg", "7z", "rar", "msi"].contains(format) || format.hasPrefix("tar.br") || format == "tar.lz4" || format == "tar.sz" {
            throw fail("its download is a \(format), which tack does not unpack")
        }
        values["Format"] = .string(format)
        values["Asset"] = .string(asset)
        values["AssetWithoutExt"] = .string(Self.withoutExtension(asset))
        var download = AquaDownload(url: url, asset: asset, format: format, files: try files(values, asset: asset, format: format))
        download.checksum = try checksum(base: values)
        download.minisign = try minisign(package.fields["minisign"], values: values, signed: asset)
        if let k = try keyless(cosign: package.fields["cosign"], values: values, signed: asset) { download.keyless.append(k) }
        if let k = try attestations(package.fields["github_artifact_attestations"]) { download.keyless.append(k) }
        if let k = try provenance(package.fields["slsa_provenance"], values: values) { download.keyless.append(k) }
        download.signatures = ["cosign", "minisign", "slsa_provenance", "github_artifact_attestations"].filter { key in
            if key == "minisign", download.minisign != nil { return false }
            if download.keyless.contains(where: { $0.kind == key }) { return false }
            guard let node = package.fields[key] else { return false }
            if case .mapping(let pairs, _) = node, let enabled = pairs.first(where: { $0.key.value == "enabled" }) { return AquaPackage.string(enabled.value) != "false" }
            return true
        }
        if case .mapping(let pairs, _)? = package.fields["checksum"], pairs.contains(where: { $0.key.value == "cosign" }),
           download.checksum?.cosign == nil, download.checksum?.keyless == nil, !download.signatures.contains("cosign") {
            download.signatures.append("cosign")
        }
        return download
    }

    /// A `cosign:` block with a `bundle` (keyless, as `cosign verify-blob --bundle` checks it),
    /// for the file `signed`: the signer its `opts` name and where the bundle is; nil when it
    /// names no bundle or no signer (a signature and certificate alone need the log looked up
    /// online, which tack does not do), or is turned off.
    func keyless(cosign node: Node?, values: [String: AquaTemplate.Value], signed: String) throws(TackError) -> AquaDownload.Keyless? {
        guard case .mapping(let m, _)? = node else { return nil }
        var fields: [String: Node] = [:]
        for (key, value) in m { fields[key.value] = value }
        if AquaPackage.flag(fields["enabled"]) == false { return nil }
        guard let bundle = fields["bundle"], case .sequence(let items, _)? = fields["opts"] else { return nil }
        let opts = items.compactMap { AquaPackage.string($0) }
        func option(_ name: String) -> String? {
            guard let i = opts.firstIndex(of: name), i + 1 < opts.count else { return nil }
            return opts[i + 1]
        }
        guard let issuer = option("--certificate-oidc-issuer") else { return nil }
        var fileValues = values
        fileValues["Asset"] = .string(signed)
        guard let url = try file(bundle, values: fileValues, what: "cosign bundle") else { return nil }
        let key: SigningKey
        do {
            if let exact = option("--certificate-identity") {
                key = try SigningKey(issuer: try render(issuer, fileValues), identity: "^" + Pattern.literal(try render(exact, fileValues)) + "$", url: url, pattern: true)
            } else if let pattern = option("--certificate-identity-regexp") {
                key = try SigningKey(issuer: try render(issuer, fileValues), identity: try render(pattern, fileValues), url: url, pattern: true)
            } else {
                return nil
            }
        } catch { throw fail("its cosign signer: \(error.message)") }
        return .init(kind: "cosign", key: key, url: url)
    }

    /// `github_artifact_attestations: { signer_workflow:, predicate_type: }`: GitHub's
    /// attestations of the download, made by a workflow of the package's repository (or the
    /// one named, a pattern).
    func attestations(_ node: Node?) throws(TackError) -> AquaDownload.Keyless? {
        guard let node, let repository = package.repository else { return nil }
        var fields: [String: String] = [:]
        if case .mapping(let m, _) = node { for (key, value) in m { if let v = AquaPackage.string(value) { fields[key.value] = v } } }
        if fields["enabled"] == "false" { return nil }
        do {
            let key = try SigningKey(attestationOf: repository, workflow: fields["signer_workflow"] ?? fields["signer-workflow"], workflowIsPattern: true,
                                     predicateType: fields["predicate_type"] ?? "https://slsa.dev/provenance/v1")
            return .init(kind: "github_artifact_attestations", key: key, url: nil)
        } catch { throw fail("its github_artifact_attestations: \(error.message)") }
    }

    /// `slsa_provenance: { type:, asset:|url:, source_uri: }`: a provenance file made by
    /// slsa-github-generator's trusted builders for the package's repository (or `source_uri`).
    func provenance(_ node: Node?, values: [String: AquaTemplate.Value]) throws(TackError) -> AquaDownload.Keyless? {
        guard let node, case .mapping(let m, _) = node else { return nil }
        var fields: [String: Node] = [:]
        for (key, value) in m { fields[key.value] = value }
        if AquaPackage.flag(fields["enabled"]) == false { return nil }
        guard let url = try file(node, values: values, what: "SLSA provenance") else { return nil }
        var source = AquaPackage.string(fields["source_uri"]) ?? package.repository.map { "github.com/" + $0 } ?? ""
        for prefix in ["https://", "github.com/"] where source.hasPrefix(prefix) { source.removeFirst(prefix.count) }
        guard GitHub.isValidRepository(source) else { return nil }
        do throws(TackError) {
            return .init(kind: "slsa_provenance", key: try SigningKey(provenanceAt: url, source: source), url: url)
        } catch { throw fail("its slsa_provenance: \(error.message)") }
    }

    /// A `{ type: github_release, asset: … }` or `{ type: http, url: … }` file, rendered.
    func file(_ node: Node, values: [String: AquaTemplate.Value], what: String) throws(TackError) -> String? {
        guard case .mapping(let m, _) = node else { return nil }
        var fields: [String: String] = [:]
        for (key, value) in m { if let v = AquaPackage.string(value) { fields[key.value] = v } }
        switch fields["type"] ?? "github_release" {
        case "github_release":
            let owner = fields["repo_owner"], name = fields["repo_name"]
            guard let repository = owner.flatMap({ o in name.map { o + "/" + $0 } }) ?? package.repository, let template = fields["asset"] else {
                throw fail("its \(what) needs the repository and `asset`")
            }
            return "https://github.com/\(repository)/releases/download/\(version)/\(try render(template, values))"
        case "http":
            guard let template = fields["url"] else { throw fail("its \(what) needs `url`") }
            return try render(template, values)
        default:
            throw fail("its \(what) type \(quoted(fields["type"] ?? "")) is not one tack reads")
        }
    }

    /// A `minisign:` block (`{ type: github_release, asset: …, public_key: … }` or `type: http`
    /// with `url:`) rendered for the file it signs, `signed`; nil when there is none or it is
    /// turned off.
    func minisign(_ node: Node?, values: [String: AquaTemplate.Value], signed: String) throws(TackError) -> AquaDownload.Minisign? {
        guard case .mapping(let m, _)? = node else { return nil }
        var ms: [String: String] = [:]
        for (key, value) in m { if let v = AquaPackage.string(value) { ms[key.value] = v } }
        guard ms["enabled"] != "false" else { return nil }
        guard let key = ms["public_key"] else { throw fail("its minisign signature names no `public_key`") }
        var signatureValues = values
        signatureValues["Asset"] = .string(signed)
        switch ms["type"] ?? "github_release" {
        case "github_release":
            guard let repository = package.repository, let template = ms["asset"] else { throw fail("its minisign signature needs `asset`") }
            return .init(url: "https://github.com/\(repository)/releases/download/\(version)/\(try render(template, signatureValues))", publicKey: key)
        case "http":
            guard let template = ms["url"] else { throw fail("its minisign signature needs `url`") }
            return .init(url: try render(template, signatureValues), publicKey: key)
        default:
            throw fail("its minisign type \(quoted(ms["type"] ?? "")) is not one tack reads")
        }
    }

    func replacements(_ node: Node?) -> [String: String] {
        guard case .mapping(let pairs, _)? = node else { return [:] }
        var out: [String: String] = [:]
        for (key, value) in pairs { if let v = AquaPackage.string(value) { out[key.value] = v } }
        return out
    }

    func baseValues(rosetta: Bool, replacements: [String: String]) -> [String: AquaTemplate.Value] {
        let emulated = rosetta && platform.goos == "darwin" && platform.goarch == "arm64"
        let os = replacements[platform.goos].flatMap { $0.isEmpty ? nil : $0 } ?? platform.goos
        let arch = emulated ? (replacements["amd64"] ?? "amd64") : (replacements[platform.goarch].flatMap { $0.isEmpty ? nil : $0 } ?? platform.goarch)
        let prefix = field("version_prefix") ?? ""
        let semVer = !prefix.isEmpty && version.hasPrefix(prefix) ? String(version.dropFirst(prefix.count)) : version
        return [
            "Version": .string(version), "SemVer": .string(semVer), "GOOS": .string(platform.goos), "GOARCH": .string(platform.goarch),
            "OS": .string(os), "Arch": .string(arch), "Format": .string(field("format") ?? ""), "Vars": .map(varValues()),
        ]
    }

    /// The registry's `vars`, each the pin's value or its default.
    func varValues() -> [String: AquaTemplate.Value] {
        var out: [String: AquaTemplate.Value] = [:]
        guard case .sequence(let items, _)? = package.fields["vars"] else { return out }
        for case .mapping(let pairs, _) in items {
            guard let name = AquaPackage.string(pairs.first { $0.key.value == "name" }?.value) else { continue }
            if let value = vars[name] ?? AquaPackage.string(pairs.first { $0.key.value == "default" }?.value) { out[name] = .string(value) }
        }
        return out
    }

    func render(_ template: String, _ values: [String: AquaTemplate.Value]) throws(TackError) -> String {
        do { return try AquaTemplate.render(template, values) } catch { throw fail("\(quoted(template)): \(error.message)") }
    }

    /// aqua adds `.FORMAT` to an asset or URL with no known extension.
    func appendingExtension(_ name: String, format: String) -> String {
        guard !format.isEmpty, format != "raw", !Self.extensions.contains(where: { name.hasSuffix("." + $0) }), !name.hasSuffix("." + format) else { return name }
        return name + "." + format
    }

    static func withoutExtension(_ asset: String) -> String {
        for ext in extensions where asset.hasSuffix("." + ext) { return String(asset.dropLast(ext.count + 1)) }
        return asset
    }

    /// The commands: `files` (each `name` and `src`, rendered), or one named after the
    /// repository (or the last part of `name`); a raw download is its own one file.
    func files(_ values: [String: AquaTemplate.Value], asset: String, format: String) throws(TackError) -> [AquaDownload.File] {
        var out: [AquaDownload.File] = []
        if case .sequence(let items, _)? = package.fields["files"] {
            for case .mapping(let pairs, _) in items {
                var entry: [String: String] = [:]
                for (key, value) in pairs { if let v = AquaPackage.string(value) { entry[key.value] = v } }
                guard let name = entry["name"] else { continue }
                var fileValues = values
                fileValues["FileName"] = .string(name)
                var src = try entry["src"].map { template throws(TackError) in try render(template, fileValues) } ?? name
                if let dir = entry["dir"] { src = try render(dir, fileValues) + "/" + src }
                out.append(AquaDownload.File(name: name, src: src))
            }
        }
        if out.isEmpty {
            let name = package.string("repo_name") ?? String(package.name.split(separator: "/").last ?? "")
            out = [AquaDownload.File(name: name, src: name)]
        }
        if format == "raw" { out = out.prefix(1).map { AquaDownload.File(name: $0.name, src: asset) } }
        return out
    }

    func checksum(base: [String: AquaTemplate.Value]) throws(TackError) -> AquaDownload.Checksum? {
        guard case .mapping(let pairs, _)? = package.fields["checksum"] else { return nil }
        var c: [String: Node] = [:]
        for (key, value) in pairs { c[key.value] = value }
        if AquaPackage.flag(c["enabled"]) == false { return nil }
        // The checksum's own replacements over the package's (an empty mapping: none at all).
        var values = base
        if case .mapping(let extra, _)? = c["replacements"] {
            var merged = extra.isEmpty ? [:] : replacements(package.fields["replacements"])
            for (key, value) in extra { merged[key.value] = AquaPackage.string(value) }
            let rosetta = AquaPackage.flag(package.fields["rosetta2"]) == true
            for (key, value) in baseValues(rosetta: rosetta, replacements: merged) where key == "OS" || key == "Arch" { values[key] = value }
        }
        let url: String
        switch AquaPackage.string(c["type"]) ?? "" {
        case "github_release":
            guard let repository = package.repository, let template = AquaPackage.string(c["asset"]) else {
                throw fail("its github_release checksum needs the repository and `asset`")
            }
            url = "https://github.com/\(repository)/releases/download/\(version)/\(try render(template, values))"
        case "http":
            guard let template = AquaPackage.string(c["url"]) else { throw fail("its http checksum needs `url`") }
            url = try render(template, values)
        default:
            throw fail("its checksum type \(quoted(AquaPackage.string(c["type"]) ?? "")) is not one tack reads")
        }
        var patterns: [String: String] = [:]
        if case .mapping(let p, _)? = c["pattern"] { for (key, value) in p { patterns[key.value] = AquaPackage.string(value) } }
        let algorithm = AquaPackage.string(c["algorithm"]) ?? "sha256"
        guard ["sha256", "sha512", "sha1", "md5"].contains(algorithm) else { throw fail("its checksum algorithm \(quoted(algorithm)) is not one tack reads") }
        var checksum = AquaDownload.Checksum(url: url, algorithm: algorithm, fileFormat: AquaPackage.string(c["file_format"]) ?? "",
                                             checksumPattern: patterns["checksum"], filePattern: patterns["file"])
        checksum.minisign = try minisign(c["minisign"], values: values, signed: String(url.split(separator: "/").last ?? ""))
        if case .mapping(let m, _)? = c["cosign"], case .sequence(let items, _)? = m.first(where: { $0.key.value == "opts" })?.value {
            let opts = items.compactMap { AquaPackage.string($0) }
            func option(_ name: String) -> String? {
                guard let i = opts.firstIndex(of: name), i + 1 < opts.count else { return nil }
                return opts[i + 1]
            }
            var signatureValues = values
            signatureValues["Asset"] = .string(String(url.split(separator: "/").last ?? ""))
            checksum.keyless = try keyless(cosign: c["cosign"], values: values, signed: String(url.split(separator: "/").last ?? ""))
            if let key = option("--key"), let signature = option("--signature"),
               key.hasPrefix("https://") || key.hasPrefix("http://"), signature.hasPrefix("https://") || signature.hasPrefix("http://") {
                checksum.cosign = .init(keyURL: try render(key, signatureValues), signatureURL: try render(signature, signatureValues))
            }
        }
        return checksum
    }
}
