#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// The Swift toolchain's options: the Swift SDKs swift.org publishes with the release
/// (`sdks: [static-linux, wasm]`), installed beside the toolchain of exactly that version.
public struct SwiftOptions: BackendOptionSet {
    public var sdks: [String] = []
    public init() {}

    public static let keys = ["sdks"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        var names: [String] = []
        for name in try reader.strings(value, "`sdks`") {
            guard SwiftSDK.named(name) != nil else {
                throw reader.fail(value.mark, "\(quoted(name)) is not a Swift SDK tack knows; swift.org publishes \(SwiftSDK.names)")
            }
            if !names.contains(name) { names.append(name) }
        }
        sdks = names
    }

    /// `sdks` sorted, so the same set always locks the same.
    public var lockRecord: [String: String] { sdks.isEmpty ? [:] : ["sdks": sdks.sorted().joined(separator: ", ")] }

    public func overlaid(by other: SwiftOptions) -> SwiftOptions {
        var o = self
        if !other.sdks.isEmpty { o.sdks = other.sdks }
        return o
    }
}

extension ToolOptions {
    /// A swift tool's options.
    public var swift: SwiftOptions {
        get { self[SwiftOptions.self] }
        set { self[SwiftOptions.self] = newValue }
    }
}
