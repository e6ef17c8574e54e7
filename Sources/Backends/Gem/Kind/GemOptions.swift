#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// A gem tool's options: the gem server it and its dependencies come from.
public struct GemOptions: BackendOptionSet {
    public var source: String?
    public init() {}

    public static let keys = ["source"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        source = try reader.url(value, "`source`")
    }

    public var lockRecord: [String: String] { source.map { ["source": $0] } ?? [:] }

    public func overlaid(by other: GemOptions) -> GemOptions {
        var o = self
        if other.source != nil { o.source = other.source }
        return o
    }
}

extension ToolOptions {
    /// A gem tool's options.
    public var gem: GemOptions {
        get { self[GemOptions.self] }
        set { self[GemOptions.self] = newValue }
    }
}
