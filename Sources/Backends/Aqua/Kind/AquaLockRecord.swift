#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of an aqua tool's version beyond every kind's fields: the release
/// tag aqua's registry calls the version (`v2.62.0`, `jq-1.7.1`), the registry read (its tag
/// and SHA-256: the same registry reads the same way), each platform's download URL (its
/// SHA-256 is in `sha256`), who signed each platform's download where the registry names a
/// keyless signature tack verifies (`signed-by`), and the signatures it names that tack
/// cannot verify.
public struct AquaLockRecord: Equatable, Sendable {
    public var tag: String?
    public var registry: String?
    public var registrySHA256: String?
    public var urls: [String: String] = [:]
    public var signatures: [String] = []
    /// Per platform, who signed its download (`sigstore:ISSUER IDENTITY`, several joined by `, `).
    public var signedBy: [String: String] = [:]

    public static let fieldNames = ["tag", "registry", "registry-sha256", "urls", "signatures"]

    public init(tag: String? = nil, registry: String? = nil, registrySHA256: String? = nil) {
        self.tag = tag
        self.registry = registry
        self.registrySHA256 = registrySHA256
    }

    public init(_ fields: [String: LockValue]) {
        if case .string(let t)? = fields["tag"] { tag = t }
        if case .string(let r)? = fields["registry"] { registry = r }
        if case .string(let s)? = fields["registry-sha256"] { registrySHA256 = s }
        if case .map(let m)? = fields["urls"] { urls = m }
        if case .string(let s)? = fields["signatures"] { signatures = s.split(separator: " ").map(String.init) }
        if case .map(let m)? = fields["signed-by"] { signedBy = m }
    }

    public var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if let tag { out["tag"] = .string(tag) }
        if let registry { out["registry"] = .string(registry) }
        if let registrySHA256 { out["registry-sha256"] = .string(registrySHA256) }
        if !urls.isEmpty { out["urls"] = .map(urls) }
        if !signatures.isEmpty { out["signatures"] = .string(signatures.joined(separator: " ")) }
        if !signedBy.isEmpty { out["signed-by"] = .map(signedBy) }
        return out
    }

    /// A registry package's name: `owner/repo` or `owner/repo/part`, plain ASCII words.
    public static func isPackageName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return (1...4).contains(parts.count) && name.utf8.count <= 200 && parts.allSatisfy { part in
            guard let first = part.first, first.isLetter || first.isNumber else { return false }
            return !part.contains("..") && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        }
    }
}
