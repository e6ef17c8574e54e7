/// Where the trust in what a pinned tool installs comes from, from its lock entry and its pin:
/// what `tack sbom` says of each tool and what `tack doctor` counts.
public struct Verification: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// A publisher's signature, checked against a key tack holds or tack.yml names.
        case signature
        /// The publisher's checksum file agreed with the first download.
        case checksumFile = "checksum-file"
        /// tack.yml gives the checksum.
        case manifestChecksum = "manifest-checksum"
        /// tack.lock recorded what the first download was; later ones must match it, but
        /// nothing the publisher signed or listed checked the first.
        case trustOnFirstUse = "trust-on-first-use"
    }

    public var kind: Kind
    /// In words: `OpenPGP signature by swift.org's key F167…`, `minisign key BE96…`.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// How `entry` (locked from `request`) is verified.
    public static func of(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        switch entry.kind {
        case .swift?:
            let signers = Set(entry.fieldMap("signed-by").values).sorted()
            return Verification(.signature, "swift.org's OpenPGP signature" + (signers.isEmpty ? "" : " (key \(signers.joined(separator: ", ")))"))
        case .url?:
            if let key = request?.options.url.signingKey { return Verification(.signature, "\(key.scheme.rawValue) signature by \(key.id)") }
            if let file = entry.options["checksums"] { return Verification(.checksumFile, "the publisher's checksums at \(file)") }
            if entry.options["checksum"] != nil || entry.options.keys.contains(where: { $0.hasSuffix(".checksum") }) {
                return Verification(.manifestChecksum, "the checksum in tack.yml")
            }
            return Verification(.trustOnFirstUse, "the SHA-256 of the first download, locked")
        case .git?:
            if case .map(let prebuilt)? = entry.fields["prebuilt"], prebuilt["sha256"] != nil {
                return Verification(.trustOnFirstUse, "the SHA-256 of the release's bundle when first locked")
            }
            return Verification(.trustOnFirstUse, "the commit its tag named when first locked, built here")
        case .pip?: return Verification(.trustOnFirstUse, "the package index's hashes when first locked")
        case .gem?: return Verification(.trustOnFirstUse, "each gem's SHA-256 when first locked")
        case .asdf?: return Verification(.trustOnFirstUse, "the plugin's commit when first locked, and the plugin's own checks")
        case nil: return Verification(.trustOnFirstUse, "what tack.lock recorded")
        }
    }
}
