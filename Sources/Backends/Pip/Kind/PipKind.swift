#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif
#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Python tools from a package index (`pip: black`), each in a virtual environment of its own.
public final class PipKind: BackendKind {
    public init() {}
    public var name: String { "pip" }
    public var sourceKeys: [String] { ["pip"] }
    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        try reader.packageName(value, "`pip`")
    }
    public let options = OptionSetReader(PipOptions.self)
    public var installRound: Int { 2 }
    public var lockFields: [String] { ["hashes", "packages"] }

    public func runsChosenCode(_ request: ToolRequest) -> String? {
        request.options.pip.python.map { "\(request.name) names the interpreter \(quoted($0)) (`python:`), which would run on this machine" }
    }

    /// `cache/pip-envs/KEY`: environments whose files no install shares (an install's files
    /// are hard links to them). With --dry-run, one only a version about to go uses is kept.
    public func unusedCache(_ store: Store, use: CacheUse) -> [String] {
        store.cacheEntries("pip-envs").filter { d in
            var st = stat()
            return stat(store.cache + "/pip-envs/" + d + "/venv/pyvenv.cfg", &st) != 0 || st.st_nlink <= 1
        }.map { store.cache + "/pip-envs/" + $0 }
    }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        Verification(.trustOnFirstUse, "the package index's hashes when first locked")
    }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        c.purl = PackageURL.pypi(entry.source, entry.version.text)
        let record = PipLockRecord(entry.fields)
        let hashes = record.hashes
        c.parts = BillOfMaterials.parts(record.packages, of: c, purl: PackageURL.pypi) { name, _ in
            (hashes[name] ?? "").split(separator: " ").compactMap { h in
                let hex = h.hasPrefix("sha256:") ? String(h.dropFirst(7)) : String(h)
                return Checksum.isSHA256(hex) ? BillOfMaterials.Hash(of: name, sha256: hex.lowercased()) : nil
            }
        }
    }
}

extension ToolSource {
    /// A package on a Python package index.
    public static func pip(_ package: String) -> ToolSource { ToolSource(PipKind(), package) }
}
