#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Ruby tools from a gem server (`gem: rake`), with the gems they need, each in its own GEM_HOME.
public final class GemKind: BackendKind {
    public init() {}
    public var name: String { "gem" }
    public var sourceKeys: [String] { ["gem"] }
    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        try reader.packageName(value, "`gem`")
    }
    public let options = OptionSetReader(GemOptions.self)
    public var installRound: Int { 2 }
    public var lockFields: [String] { ["gems"] }

    /// `cache/gems/SHA256`: gem files no install records the checksum of.
    public func unusedCache(_ store: Store, use: CacheUse) -> [String] {
        store.cacheEntries("gems").filter { !use.checksums.contains($0) }.map { store.cache + "/gems/" + $0 }
    }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        Verification(.trustOnFirstUse, "each gem's SHA-256 when first locked")
    }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        c.purl = PackageURL.gem(entry.source, entry.version.text)
        let record = GemLockRecord(entry.fields)
        let files = record.sha256
        c.parts = BillOfMaterials.parts(record.gems, of: c, purl: PackageURL.gem) { name, version in
            files["\(name)-\(version).gem"].map { [BillOfMaterials.Hash(of: "\(name)-\(version).gem", sha256: $0)] } ?? []
        }
    }
}

extension ToolSource {
    /// A gem on a gem server.
    public static func gem(_ name: String) -> ToolSource { ToolSource(GemKind(), name) }
}
