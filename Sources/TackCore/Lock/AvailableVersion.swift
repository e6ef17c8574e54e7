/// One version a backend can install, with what the lock must record to install it again
/// exactly (a tag and its commit, checksums).
public struct AvailableVersion: Sendable, Equatable {
    public var version: Version
    public var fields: [String: LockValue]
    /// The long-term-support line this release belongs to (node's `Iron`), where the version
    /// index says; what `lts/*` and `lts/<codename>` select by. Not recorded in the lock.
    public var lts: String?
    /// The Swift SDKs published with a toolchain release (`static-linux`, `wasm`), for
    /// `ls-remote swift --sdks`. Not recorded in the lock.
    public var sdks: [String] = []
    /// When it was published (seconds since 1970), where the version index says: what
    /// `min_release_age` holds back. Not recorded in the lock.
    public var published: Int64?
    /// A publication date the index gives that tack cannot read (`2026-13-01`, `yesterday`,
    /// empty): `min_release_age` takes such a version as just published, with a warning.
    public var unreadableDate: String?
    public init(version: Version, fields: [String: LockValue] = [:], lts: String? = nil) {
        self.version = version
        self.fields = fields
        self.lts = lts
    }
}

extension AvailableVersion {
    /// `versions` with the publication times an index gives by version text (`times`), and
    /// the dates it gives that cannot be read (`unreadable`), where a version has none yet.
    public static func dated(_ versions: [AvailableVersion], times: [String: Int64], unreadable: [String: String]) -> [AvailableVersion] {
        versions.map { v in
            var available = v
            available.published = available.published ?? times[v.version.text]
            if available.published == nil { available.unreadableDate = unreadable[v.version.text] }
            return available
        }
    }
}
