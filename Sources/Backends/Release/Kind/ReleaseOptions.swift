#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// A release tool's options: which asset is the download, where the names alone do not say.
public struct ReleaseOptions: BackendOptionSet {
    /// `asset:`: an asset's name, or part of one, with `{version}`, `{tag}`, `{os}` (linux,
    /// darwin), `{arch}` (x86_64, arm64), `{goarch}` (amd64, arm64) and `{triple}` filled in
    /// for each platform. An asset of exactly that name is the download; otherwise the assets
    /// whose names contain it are those the platform's is chosen from.
    public var asset: String?
    public init() {}

    public static let keys = ["asset"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        let text = try reader.string(value, "`asset`")
        guard !text.isEmpty, !text.contains("/"), !text.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw reader.fail(value.mark, "`asset` is an asset's file name (or part of one), without `/`, found \(quoted(text))")
        }
        asset = text
    }

    public var lockRecord: [String: String] { asset.map { ["asset": $0] } ?? [:] }

    public func overlaid(by other: ReleaseOptions) -> ReleaseOptions { other.asset == nil ? self : other }
}

extension ToolOptions {
    /// A release tool's options.
    public var release: ReleaseOptions {
        get { self[ReleaseOptions.self] }
        set { self[ReleaseOptions.self] = newValue }
    }
}
