#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Tools as aqua's registry describes them (`aqua: cli/cli`): the package's entry in the
/// standard registry (or `TACK_AQUA_REGISTRY`), chosen for the version and each platform,
/// says what to download and how to check it. The lock records the release tag, the registry
/// it was read from (tag and SHA-256), and each platform's URL and SHA-256.
public final class AquaKind: BackendKind {
    public init() {}
    public var name: String { "aqua" }
    public var sourceKeys: [String] { ["aqua"] }

    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        let name = try reader.string(value, "`aqua`")
        guard AquaLockRecord.isPackageName(name) else {
            throw reader.fail(value.mark, "`aqua` is a package of aqua's registry, like `cli/cli` or `hashicorp/terraform`, found \(quoted(name))")
        }
        return name
    }

    public let options = OptionSetReader(AquaOptions.self)

    /// A registry file of the project's own chooses what is downloaded and run.
    public func runsChosenCode(_ request: ToolRequest) -> String? {
        guard let registry = request.options.aqua.registry else { return nil }
        return "\(request.name) is read from the aqua registry file \(registry), which chooses what is downloaded and run"
    }
    public var checksumsPerPlatform: Bool { true }
    public var lockFields: [String] { AquaLockRecord.fieldNames }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        let record = AquaLockRecord(entry.fields)
        let unverified = record.signatures.isEmpty ? "" : "; the \(record.signatures.joined(separator: ", ")) the registry names are not verified"
        let signers = Set(record.signedBy.values.flatMap { $0.split(separator: ",").map { String($0.drop { $0 == " " }) } }).sorted()
        if !signers.isEmpty {
            return Verification(.signature, "keyless signatures aqua's registry \(record.registry ?? "") names, by " + signers.map(SigningKey.words).joined(separator: "; ") + unverified)
        }
        return Verification(.checksumFile, "the SHA-256 from the publisher's checksums (or the first download), as aqua's registry \(record.registry ?? "") describes them, locked\(unverified)")
    }

    public func revision(_ entry: LockedTool) -> String? { AquaLockRecord(entry.fields).tag }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        let record = AquaLockRecord(entry.fields)
        let sums = entry.checksums.sorted { $0.key < $1.key }
        c.hashes = sums.map { BillOfMaterials.Hash(of: $0.key, sha256: $0.value) }
        let parts = entry.source.split(separator: "/")
        c.purl = parts.count >= 2 ? PackageURL.github("\(parts[0])/\(parts[1])", record.tag ?? entry.version.text) : PackageURL.generic(entry.name, entry.version.text)
        if let url = record.urls[Platform.current.description] ?? record.urls.sorted(by: { $0.key < $1.key }).first?.value { c.location = url }
    }
}

extension ToolSource {
    /// A package of aqua's registry.
    public static func aqua(_ package: String) -> ToolSource { ToolSource(AquaKind(), package) }
}
