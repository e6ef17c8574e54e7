#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// The Swift toolchain (`swift: swift.org`, the built-in `swift` entry): swift.org's releases
/// and snapshots, or the mirror TACK_SWIFT_MIRROR names, with the Swift SDKs pinned beside it.
public final class SwiftKind: BackendKind {
    public init() {}
    public var name: String { "swift" }
    public var sourceKeys: [String] { ["swift"] }

    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        let text = try reader.string(value, "`swift`")
        guard text == SwiftToolchain.source else {
            throw reader.fail(value.mark, "`swift:` says where Swift toolchains come from, and the only source is \(SwiftToolchain.source), found \(quoted(text)); a mirror of it is set with TACK_SWIFT_MIRROR")
        }
        return text
    }

    public let options = OptionSetReader(SwiftOptions.self)
    public var registryName: String? { SwiftToolchain.registryName }
    public var isSwiftToolchain: Bool { true }
    public var lockFields: [String] { ["archive", "path", SwiftSDK.lockPath, SwiftSDK.lockSHA256, SwiftSDK.lockSigner] }
    public func watchedPaths(install: String) -> [String] { [SwiftSDK.directory(install: install)] }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        let signers = Set(SwiftLockRecord(entry.fields).signedBy.values).sorted()
        return Verification(.signature, "swift.org's OpenPGP signature" + (signers.isEmpty ? "" : " (key \(signers.joined(separator: ", ")))"))
    }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        let v = entry.version.text
        c.hashes = SwiftLockRecord(entry.fields).sha256.sorted { $0.key < $1.key }.map { BillOfMaterials.Hash(of: $0.key, sha256: $0.value) }
        c.location = entry.source
        let paths = entry.fieldMap(SwiftSDK.lockPath)
        for (name, sum) in entry.fieldMap(SwiftSDK.lockSHA256).sorted(by: { $0.key < $1.key }) {
            var sdk = BillOfMaterials.Component(name: "swift-sdk-\(name)", version: v, backend: entry.backend, source: paths[name] ?? entry.source,
                                                purl: PackageURL.generic("swift-sdk-\(name)", v), verification: Verification(.signature, "swift.org's OpenPGP signature"))
            sdk.hashes = [BillOfMaterials.Hash(of: name, sha256: sum)]
            c.parts.append(sdk)
        }
    }
}

extension ToolSource {
    /// swift.org's toolchains.
    public static func swift(_ source: String) -> ToolSource { ToolSource(SwiftKind(), source) }
}
