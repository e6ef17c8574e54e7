#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Tools from a GitHub repository's releases (`release: owner/repo`): the release whose tag
/// names the version, and in it the asset each platform downloads, chosen from the asset
/// names (`ReleaseAssetPicker`) or named by `asset:`. The lock records the tag and each
/// platform's asset and SHA-256.
public final class ReleaseKind: BackendKind {
    public init() {}
    public var name: String { "release" }
    public var sourceKeys: [String] { ["release"] }

    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        let repository = try reader.string(value, "`release`")
        guard GitHub.isValidRepository(repository) else {
            throw reader.fail(value.mark, "`release` is a GitHub repository written `owner/repo` (like `cli/cli`), found \(quoted(repository))")
        }
        return repository
    }

    public let options = OptionSetReader(ReleaseOptions.self)
    public var checksumsPerPlatform: Bool { true }
    public var lockFields: [String] { ReleaseLockRecord.fieldNames }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        Verification(.checksumFile, "the SHA-256 GitHub or the release's checksum file gives for each asset (or of its first download), locked")
    }

    public func revision(_ entry: LockedTool) -> String? { ReleaseLockRecord(entry.fields).tag }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        let record = ReleaseLockRecord(entry.fields)
        let sums = entry.checksums.sorted { $0.key < $1.key }
        c.hashes = sums.map { BillOfMaterials.Hash(of: record.assets[$0.key] ?? $0.key, sha256: $0.value) }
        c.purl = PackageURL.github(entry.source, record.tag ?? entry.version.text)
        let platform = record.assets[Platform.current.description] != nil ? Platform.current.description : record.assets.keys.sorted().first
        if let platform, let url = record.downloadURL(repository: entry.source, platform: platform) { c.location = url }
    }
}

extension ToolSource {
    /// A GitHub repository's releases.
    public static func release(_ repository: String) -> ToolSource { ToolSource(ReleaseKind(), repository) }
}
