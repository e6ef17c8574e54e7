import YAML

/// A git tool's options: which products `swift build` makes, or the command that builds it.
public struct GitOptions: BackendOptionSet {
    public var products: [String] = []
    public var build: String?
    public init() {}

    public static let keys = ["products", "build"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "products": products = try reader.strings(value, "`products`")
        default: build = try reader.string(value, "`build`")
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if !products.isEmpty { out["products"] = products.joined(separator: ", ") }
        if let build { out["build"] = build }
        return out
    }

    public func overlaid(by other: GitOptions) -> GitOptions {
        var o = self
        if !other.products.isEmpty { o.products = other.products }
        if other.build != nil { o.build = other.build }
        return o
    }
}
