#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a gem tool's version: the version of every gem installed with it
/// (a platform gem's with its platform, `1.16.0-x86_64-linux`), and the SHA-256 of each gem
/// file by its name. Which gems each platform installs is the entry's `PlatformSelection`.
public struct GemLockRecord: Equatable {
    /// Version by gem name.
    public var gems: [String: String] = [:]
    /// SHA-256 by gem file name (`rake-13.2.1.gem`).
    public var sha256: [String: String] = [:]

    public init(gems: [String: String], sha256: [String: String]) {
        self.gems = gems
        self.sha256 = sha256
    }

    public init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["gems"] { gems = m }
        if case .map(let m)? = fields["sha256"] { sha256 = m }
    }

    public var fields: [String: LockValue] { ["gems": .map(gems), "sha256": .map(sha256)] }
}
