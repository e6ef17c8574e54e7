import YAML

/// A url tool's options: its checksum, what other platforms download instead, and where its
/// versions are listed.
public struct URLOptions: BackendOptionSet {
    public var checksum: String?
    /// Per platform (`linux-arm64`), its own `url`, `bin` or `checksum`.
    public var platforms: [String: [String: String]] = [:]
    /// `versions: { url:, regex: }`: where the tool's versions are listed.
    public var versionIndex: [String: String]?
    /// `checksums: { url: }`: the publisher's checksum file (`SHA256SUMS`, `checksums.txt`,
    /// or one `.sha256` per download), which a download's first checksum must agree with.
    public var checksumsURL: String?
    /// `minisign: { key:, url: }` or `cosign: { key:, url: }`: the publisher's key every
    /// download must be signed by. Not in the lock's `options`: the lock records the key's id
    /// (`signed-by`), and a key that changes later is refused until `tack update`.
    public var signingKey: SigningKey?
    public init() {}

    public static let keys = ["checksum", "platforms", "versions", "checksums", "minisign", "cosign"]

    public mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) {
        switch key.value {
        case "checksum": checksum = try reader.checksum(value, "`checksum`")
        case "platforms": platforms = try reader.platformOverrides(value)
        case "checksums": checksumsURL = try reader.checksumsFile(value)
        case "minisign", "cosign":
            guard signingKey == nil else { throw reader.fail(key.mark, "give one signing key, `minisign` or `cosign`, not both") }
            signingKey = try reader.signingKey(value, SigningKey.Scheme(rawValue: key.value) ?? .minisign)
        default: versionIndex = try reader.versionIndex(value)
        }
    }

    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if let checksum { out["checksum"] = checksum.lowercased() }
        if let checksumsURL { out["checksums"] = checksumsURL }
        for (platform, fields) in platforms {
            for (key, value) in fields { out["platforms.\(platform).\(key)"] = key == "checksum" ? value.lowercased() : value }
        }
        return out
    }

    public func overlaid(by other: URLOptions) -> URLOptions {
        var o = self
        if other.checksum != nil { o.checksum = other.checksum }
        for (platform, fields) in other.platforms { o.platforms[platform, default: [:]].merge(fields) { $1 } }
        if other.versionIndex != nil { o.versionIndex = other.versionIndex }
        if other.checksumsURL != nil { o.checksumsURL = other.checksumsURL }
        if other.signingKey != nil { o.signingKey = other.signingKey }
        return o
    }
}
