import TackCore
import YAML

/// An aqua tool's options: the registry package's `vars` (`vars: { channel: stable }`).
public struct AquaOptions: BackendOptionSet {
    public var vars: [String: String] = [:]
    public init() {}

    public static let keys = ["vars"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        for (k, v) in try reader.mapping(value, "`vars`") {
            let text = try reader.string(v, "`vars.\(k.value)`")
            guard !text.contains(where: { $0.isNewline || $0 == "\0" }) else { throw reader.fail(v.mark, "`vars.\(k.value)` is one line of text") }
            vars[k.value] = text
        }
    }

    public var lockRecord: [String: String] { vars.reduce(into: [:]) { $0["vars.\($1.key)"] = $1.value } }

    public func overlaid(by other: AquaOptions) -> AquaOptions {
        var o = self
        o.vars.merge(other.vars) { $1 }
        return o
    }
}

extension ToolOptions {
    /// An aqua tool's options.
    public var aqua: AquaOptions {
        get { self[AquaOptions.self] }
        set { self[AquaOptions.self] = newValue }
    }
}
