#if !hasFeature(Embedded)
import YAML
#endif

/// A kind's options as the manifest reader meets them, without their type: the keys they are
/// read from, and how one key's value goes into a tool's options (`GitKind.options` is
/// `OptionSetReader(GitOptions.self)`).
public struct OptionSetReader: Sendable {
    /// The manifest keys the options are read from.
    public let keys: [String]
    private let read: @Sendable (Scalar, Node, ManifestDecoder, inout ToolOptions) throws(TackError) -> Void

    public init<Set: BackendOptionSet>(_ type: Set.Type) {
        keys = Set.keys
        read = { key, value, reader, options throws(TackError) in try Set.decode(key, value, reader, into: &options) }
    }

    /// Reads `key` (one of `keys`) from `value` into its set in `options`.
    public func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder, into options: inout ToolOptions) throws(TackError) {
        try read(key, value, reader, &options)
    }
}
