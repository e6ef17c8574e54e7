#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a url tool's version: each platform's download checksum
/// (`sha256: { linux-x86_64: … }`), what `--frozen` needs before it installs, and, where
/// tack.yml names the publisher's key, the id of the key that signed each download
/// (`signed-by: { linux-x86_64: "minisign:…" }`).
public struct URLLockRecord: Equatable {
    /// SHA-256 by platform (`linux-x86_64`), as written.
    public var sha256: [String: String] = [:]
    /// The signing key's id by platform.
    public var signedBy: [String: String] = [:]
    /// The version's build (python-build-standalone's release date), which templates name.
    public var build: String?

    public init(sha256: [String: String] = [:], signedBy: [String: String] = [:], build: String? = nil) {
        self.sha256 = sha256
        self.signedBy = signedBy
        self.build = build
    }

    public init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["sha256"] { sha256 = m }
        if case .map(let m)? = fields["signed-by"] { signedBy = m }
        if case .string(let b)? = fields["build"] { build = b }
    }

    public var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if !sha256.isEmpty { out["sha256"] = .map(sha256) }
        if !signedBy.isEmpty { out["signed-by"] = .map(signedBy) }
        if let build { out["build"] = .string(build) }
        return out
    }
}
