#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// A pip tool's options: the interpreter, where packages come from, and the extras installed.
public struct PipOptions: BackendOptionSet {
    public var python: String?
    public var indexURL: String?
    public var findLinks: String?
    public var extras: [String] = []
    public init() {}

    public static let keys = ["python", "index_url", "find_links", "extras"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "python": python = try reader.string(value, "`python`")
        case "index_url": indexURL = try reader.url(value, "`index_url`")
        case "find_links": findLinks = try reader.string(value, "`find_links`")
        default: extras = try reader.strings(value, "`extras`")
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if let python { out["python"] = python }
        if let indexURL { out["index_url"] = indexURL }
        if let findLinks { out["find_links"] = findLinks }
        if !extras.isEmpty { out["extras"] = extras.joined(separator: ", ") }
        return out
    }

    public func overlaid(by other: PipOptions) -> PipOptions {
        var o = self
        if other.python != nil { o.python = other.python }
        if other.indexURL != nil { o.indexURL = other.indexURL }
        if other.findLinks != nil { o.findLinks = other.findLinks }
        if !other.extras.isEmpty { o.extras = other.extras }
        return o
    }
}

extension ToolOptions {
    /// A pip tool's options.
    public var pip: PipOptions {
        get { self[PipOptions.self] }
        set { self[PipOptions.self] = newValue }
    }
}
