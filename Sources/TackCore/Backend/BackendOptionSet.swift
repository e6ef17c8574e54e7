#if !hasFeature(Embedded)
import YAML
#endif

/// The options one kind of backend owns in a tool's mapping: the keys only its pins may have,
/// how each is read, what tack.lock's `options:` records of them, and how a project's pin
/// overlays the registry's. Each kind's set lives in its backend's folder (`GitOptions`, …);
/// `ToolOptions` holds those a pin set, with the keys every kind shares.
public protocol BackendOptionSet: Sendable, Hashable {
    init()
    /// The manifest keys these options are read from.
    static var keys: [String] { get }
    /// Reads `key` (one of `keys`) from `value`, through `reader`'s checks and messages.
    mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError)
    /// Only the options set, each as one string (lists joined by `, `).
    var lockRecord: [String: String] { get }
    /// These options with every one `other` sets replacing ours.
    func overlaid(by other: Self) -> Self
    /// The publisher's key every download must be signed by, where these options name one.
    var signingKey: SigningKey? { get }
    /// The checksum the manifest gives for `platform`'s download (`linux-x86_64`), if any.
    func manifestChecksum(platform: String) -> String?
    /// Command names these options say the install provides (`products:`, `bin:` per platform).
    var commands: [String] { get }
}

extension BackendOptionSet {
    public var signingKey: SigningKey? { nil }
    public func manifestChecksum(platform: String) -> String? { nil }
    public var commands: [String] { [] }

    /// Reads `key` into this set's place in `options`.
    static func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder, into options: inout ToolOptions) throws(TackError) {
        var set = options[Self.self]
        try set.decode(key, value, reader)
        options[Self.self] = set
    }
}
