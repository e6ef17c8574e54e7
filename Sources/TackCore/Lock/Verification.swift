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

    /// How `entry` (locked from `request`) is verified: its kind says (`BackendKind.verification`).
    public static func of(_ entry: LockedTool, request: ToolRequest?, backends: BackendCatalog) -> Verification {
        backends.kind(of: entry)?.verification(entry, request: request) ?? .recorded
    }

    /// What is known of an entry whose kind says no more: tack.lock recorded it when first locked.
    public static let recorded = Verification(.trustOnFirstUse, "what tack.lock recorded")
}
