#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// A git tool's options: which products `swift build` makes, or the command that builds it;
/// and the artifact bundle (`artifactbundle:` beside `git:`) installed instead of building
/// when it provides those products, unless `prebuilt: false`.
public struct GitOptions: BackendOptionSet {
    public var products: [String] = []
    public var build: String?
    /// The URL template of a `*.artifactbundle.zip` of the tool's releases.
    public var bundle: String?
    /// `prebuilt: false`: always build, whatever the release publishes.
    public var prebuilt = true
    public init() {}

    public static let keys = ["products", "build", "prebuilt"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "products": products = try reader.strings(value, "`products`")
        case "prebuilt": prebuilt = try reader.bool(value, "`prebuilt`")
        default: build = try reader.string(value, "`build`")
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if !products.isEmpty { out["products"] = products.joined(separator: ", ") }
        if let build { out["build"] = build }
        if let bundle { out["artifactbundle"] = bundle }
        if !prebuilt { out["prebuilt"] = "false" }
        return out
    }

    public func overlaid(by other: GitOptions) -> GitOptions {
        var o = self
        if !other.products.isEmpty { o.products = other.products }
        if other.build != nil { o.build = other.build }
        if other.bundle != nil { o.bundle = other.bundle }
        if !other.prebuilt { o.prebuilt = false }
        return o
    }
}

extension GitOptions {
    public var commands: [String] { products }
}

extension ToolOptions {
    /// A git tool's options.
    public var git: GitOptions {
        get { self[GitOptions.self] }
        set { self[GitOptions.self] = newValue }
    }
}
