/// Where the checksum a download must match came from: what a mismatch says, and what it
/// advises.
public enum ChecksumOrigin: Sendable, Equatable {
    /// tack.lock's entry.
    case lock
    /// The manifest's `checksum:`.
    case manifest
    /// What the publisher lists, in its words: "the publisher's checksums (URL) say",
    /// "swift.org's release list says".
    case publisher(says: String)

    /// The phrase before the checksum: "tack.lock says".
    public var says: String {
        switch self {
        case .lock: return "tack.lock says"
        case .manifest: return "the manifest's checksum is"
        case .publisher(let says): return says
        }
    }
}
