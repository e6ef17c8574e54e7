import TackCore

/// What tack.lock records of a url tool's version: each platform's download checksum
/// (`sha256: { linux-x86_64: … }`), what `--frozen` needs before it installs, and, where
/// tack.yml names the publisher's key, the id of the key that signed each download
/// (`signed-by: { linux-x86_64: "minisign:…" }`).
struct URLLockRecord: Equatable {
    /// SHA-256 by platform (`linux-x86_64`), as written.
    var sha256: [String: String] = [:]
    /// The signing key's id by platform.
    var signedBy: [String: String] = [:]

    init(sha256: [String: String] = [:], signedBy: [String: String] = [:]) {
        self.sha256 = sha256
        self.signedBy = signedBy
    }

    init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["sha256"] { sha256 = m }
        if case .map(let m)? = fields["signed-by"] { signedBy = m }
    }

    var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if !sha256.isEmpty { out["sha256"] = .map(sha256) }
        if !signedBy.isEmpty { out["signed-by"] = .map(signedBy) }
        return out
    }
}
