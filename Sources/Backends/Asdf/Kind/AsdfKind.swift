#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Tools an asdf plugin installs (`asdf: URL`), its scripts run at a locked plugin commit.
public final class AsdfKind: BackendKind {
    public init() {}
    public var name: String { "asdf" }
    public var sourceKeys: [String] { ["asdf"] }
    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        try reader.url(value, "`asdf`")
    }
    public let options = OptionSetReader(AsdfOptions.self)
    public var builds: Bool { true }
    public var lockFields: [String] { ["plugin-commit"] }

    public func cachedRevisions(_ entry: LockedTool) -> [String] { AsdfLockRecord(entry.fields).pluginCommit.map { [$0] } ?? [] }

    public func runsChosenCode(_ request: ToolRequest) -> String? {
        "\(request.name) comes from the asdf plugin \(request.source.identity ?? ""), whose scripts would run on this machine"
    }

    /// The registry's plugin, with no variables for its scripts (`build_env`) but the
    /// registry's own: LD_PRELOAD, say, would run code the registry never asked for.
    public func runsSameCode(_ request: ToolRequest, as entry: ToolRequest) -> Bool {
        request.options.asdf.buildEnv == entry.options.asdf.buildEnv
    }

    /// `cache/asdf-plugins/NAME-COMMIT`: plugin checkouts at a commit no install records.
    public func unusedCache(_ store: Store, use: CacheUse) -> [String] {
        store.cacheEntries("asdf-plugins").filter { d in
            guard let dash = d.lastIndex(of: "-") else { return false }
            return !use.revisions.contains(String(d[d.index(after: dash)...]))
        }.map { store.cache + "/asdf-plugins/" + $0 }
    }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        Verification(.trustOnFirstUse, "the plugin's commit when first locked, and the plugin's own checks")
    }
}

extension ToolSource {
    /// An asdf plugin's repository.
    public static func asdf(_ url: String) -> ToolSource { ToolSource(AsdfKind(), url) }
}
