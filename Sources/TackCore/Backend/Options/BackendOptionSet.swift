import YAML

/// The options one kind of backend owns in a tool's mapping: the keys only its pins may have,
/// how each is read, what tack.lock's `options:` records of them, and how a project's pin
/// overlays the registry's. Each kind's set lives in a file of its own beside this one;
/// `ToolOptions` holds one of each, with the keys every kind shares.
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
}
