#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Tools downloaded from a URL template (`url:`), or a Swift artifact bundle
/// (`artifactbundle:`, SE-0305), verified by checksum or the publisher's signature.
public final class URLKind: BackendKind {
    public init() {}
    public var name: String { "url" }
    public var sourceKeys: [String] { ["url", "artifactbundle"] }

    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        guard key.value == "artifactbundle" else { return try reader.downloadURL(value, "`url`") }
        // A Swift artifact bundle on a URL: the url backend installs the variant for this machine.
        let url = try reader.downloadURL(value, "`artifactbundle`")
        guard url.lowercased().hasSuffix(".artifactbundle.zip") else {
            throw reader.fail(value.mark, "`artifactbundle` is the URL of a `*.artifactbundle.zip` (SE-0305), found \(quoted(url)); any other archive is a `url:`")
        }
        return url
    }

    public let options = OptionSetReader(URLOptions.self)
    public var registryMayName: Bool { true }
    public var checksumsPerPlatform: Bool { true }
    public var lockFields: [String] { ["build"] }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        if let key = request?.options.url.signingKey {
            switch key.scheme {
            case .sigstore, .attestation:
                // Who signed, as tack.lock records it for each platform.
                let signers = Set(entry.signers.values).sorted()
                let what = key.scheme == .attestation ? "GitHub artifact attestation" : key.isProvenance ? "SLSA provenance" : "keyless Sigstore signature"
                return Verification(.signature, signers.isEmpty ? "\(what) (not yet checked)" : "\(what) by " + signers.map(SigningKey.words).joined(separator: "; "))
            default:
                return Verification(.signature, "\(key.scheme.rawValue) signature by \(key.id)")
            }
        }
        if let file = entry.options["checksums"] { return Verification(.checksumFile, "the publisher's checksums at \(file)") }
        if entry.options["checksum"] != nil || entry.options.keys.contains(where: { $0.hasSuffix(".checksum") }) {
            return Verification(.manifestChecksum, "the checksum in tack.yml")
        }
        return Verification(.trustOnFirstUse, "the SHA-256 of the first download, locked")
    }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        let v = entry.version.text
        let record = URLLockRecord(entry.fields)
        let sums = record.sha256.sorted { $0.key < $1.key }
        c.hashes = sums.map { BillOfMaterials.Hash(of: $0.key, sha256: $0.value) }
        // One platform's URL (this machine's, else the first the lock covers), rendered.
        let platform = sums.first { $0.key == Platform.current.description }.map({ $0.key }) ?? sums.first?.key
        var extra: [String: String] = [:]
        if let build = record.build { extra["build"] = build }
        let url = platform.flatMap(Platform.init(key:)).map { $0.render(entry.source, version: v, extra: extra) } ?? entry.source
        c.location = url
        c.purl = PackageURL.generic(entry.name, v, qualifiers: [("download_url", URLRedaction.text(url))])
    }
}

extension ToolSource {
    /// A download's URL template.
    public static func url(_ url: String) -> ToolSource { ToolSource(URLKind(), url) }
}
