#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// An aqua tool's options: the registry package's `vars` (`vars: { channel: stable }`), and
/// a registry file of the project's own (`registry: aqua-registry.yaml`, beside the file that
/// pins it) to read the package from instead of the standard one — which needs trust: the
/// file chooses what is downloaded and run.
public struct AquaOptions: BackendOptionSet {
    public var vars: [String: String] = [:]
    public var registry: String?
    public init() {}

    public static let keys = ["vars", "registry"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        if key.value == "registry" {
            let path = try reader.string(value, "`registry`")
            guard !path.isEmpty, !path.contains(where: { $0.isNewline || $0 == "\0" }) else { throw reader.fail(value.mark, "`registry` is the path of an aqua registry file") }
            registry = path
            return
        }
        for (k, v) in try reader.mapping(value, "`vars`") {
            let text = try reader.string(v, "`vars.\(k.value)`")
            guard !text.contains(where: { $0.isNewline || $0 == "\0" }) else { throw reader.fail(v.mark, "`vars.\(k.value)` is one line of text") }
            vars[k.value] = text
        }
    }

    public var lockRecord: [String: String] {
        var out = vars.reduce(into: [:]) { $0["vars.\($1.key)"] = $1.value }
        if let registry { out["registry"] = registry }
        return out
    }

    public func overlaid(by other: AquaOptions) -> AquaOptions {
        var o = self
        for (name, value) in other.vars { o.vars[name] = value }
        if other.registry != nil { o.registry = other.registry }
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
