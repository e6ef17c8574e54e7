import TackCore

/// What tack.lock records of a url tool's version: each platform's download checksum
/// (`sha256: { linux-x86_64: … }`), what `--frozen` needs before it installs.
struct URLLockRecord: Equatable {
    /// SHA-256 by platform (`linux-x86_64`), as written.
    var sha256: [String: String] = [:]

    init(sha256: [String: String] = [:]) { self.sha256 = sha256 }

    init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["sha256"] { sha256 = m }
    }

    var fields: [String: LockValue] { sha256.isEmpty ? [:] : ["sha256": .map(sha256)] }
}
