#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// An asdf tool's options: whether its build runs from any path (so the team cache shares it
/// between machines whose TACK_HOME differs), and variables its plugin's scripts get (for
/// Ruby, `RUBY_CONFIGURE_OPTS: --enable-load-relative` makes it relocatable).
public struct AsdfOptions: BackendOptionSet {
    public var relocatable = false
    public var buildEnv: [String: String] = [:]
    public init() {}

    public static let keys = ["relocatable", "build_env"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "relocatable": relocatable = try reader.bool(value, "`relocatable`")
        default:
            for (k, v) in try reader.mapping(value, "`build_env`") {
                guard EnvironmentName.isValid(k.value) else {
                    throw reader.fail(k.mark, "\(quoted(k.value)) is not an environment variable name (letters, digits and _, not starting with a digit)")
                }
                buildEnv[k.value] = try reader.string(v, "`build_env.\(k.value)`")
            }
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if relocatable { out["relocatable"] = "true" }
        for (k, v) in buildEnv { out["build_env.\(k)"] = v }
        return out
    }

    public func overlaid(by other: AsdfOptions) -> AsdfOptions {
        var o = self
        if other.relocatable { o.relocatable = true }
        for (name, value) in other.buildEnv { o.buildEnv[name] = value }
        return o
    }
}

/// Environment variable names as POSIX shells take them.
public enum EnvironmentName {
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
    }
}

extension ToolOptions {
    /// A asdf tool's options.
    public var asdf: AsdfOptions {
        get { self[AsdfOptions.self] }
        set { self[AsdfOptions.self] = newValue }
    }
}
