#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a pip tool's version: every distribution installed, with its
/// version and the SHA-256 of each file that may be installed for it.
public struct PipLockRecord: Equatable {
    /// Version by distribution name.
    public var packages: [String: String] = [:]
    /// `sha256:…` digests (space-separated) by distribution name.
    public var hashes: [String: String] = [:]

    public init() {}

    public init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["packages"] { packages = m }
        if case .map(let m)? = fields["hashes"] { hashes = m }
    }

    public var fields: [String: LockValue] { ["packages": .map(packages), "hashes": .map(hashes)] }
}
