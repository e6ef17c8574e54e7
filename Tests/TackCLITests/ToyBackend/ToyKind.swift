import Backends
import TackCore
import YAML

/// A backend that lives only in the tests: tools from "the toy shop" (`toy: shop-name`), in a
/// `flavour:`. It shows what a new backend costs: this folder and one line that registers its
/// kind (`BackendCatalog.standard.adding(ToyKind())`), with no edit to TackCore, TackKit or
/// the CLI. `ToyBackendTests` pins, locks, installs, reads back and describes one.
final class ToyKind: BackendMaking {
    var name: String { "toy" }
    var sourceKeys: [String] { ["toy"] }

    func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        let shop = try reader.packageName(value, "`toy`")
        guard ToyShop.releases[shop] != nil else { throw reader.fail(value.mark, "the toy shop has no \(quoted(shop))") }
        return shop
    }

    let options = OptionSetReader(ToyOptions.self)
    var lockFields: [String] { ["toy-digest"] }

    /// A `spicy` flavour runs the shop's own recipe: it needs the file trusted.
    func runsChosenCode(_ request: ToolRequest) -> String? {
        request.options[ToyOptions.self].flavour == "spicy" ? "\(request.name) is spicy, which runs the toy shop's recipe on this machine" : nil
    }

    func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        Verification(.trustOnFirstUse, "the toy shop's digest when first locked")
    }

    func describe(_ entry: LockedTool, in component: inout BillOfMaterials.Component) {
        component.purl = "pkg:toy/\(entry.source)@\(entry.version.text)"
        if let digest = ToyRecord(entry).digest { component.hashes = [BillOfMaterials.Hash(of: entry.source, sha256: digest)] }
    }

    func makeBackend(_ effects: BackendEffects) -> any Backend { ToyBackend(fs: effects.fs) }
}

/// A toy's options: its flavour.
struct ToyOptions: BackendOptionSet {
    var flavour: String?
    static let keys = ["flavour"]

    mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        flavour = try reader.string(value, "`flavour`")
    }

    var lockRecord: [String: String] { flavour.map { ["flavour": $0] } ?? [:] }

    func overlaid(by other: ToyOptions) -> ToyOptions { other.flavour == nil ? self : other }
}

/// What a toy's lock entry records beyond every kind's fields: the digest of its release.
struct ToyRecord {
    var digest: String?
    init(_ entry: LockedTool) {
        if case .string(let d)? = entry.fields["toy-digest"] { digest = d }
    }
}
