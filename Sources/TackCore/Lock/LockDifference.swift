/// One way a tack.lock fails to describe what is pinned, as `--frozen` lists them
/// (`FrozenRefusal.lockDiffers`). `setBy` is where the pin was set, as said to the user.
public enum LockDifference: Sendable, Equatable {
    /// The tool is pinned, and the lock has no entry for it.
    case unlocked(tool: String, requirement: String, setBy: String)
    /// The lock's entry was written for another pin.
    case disagrees(tool: String, LockDisagreement, setBy: String)
    /// The lock has no checksum of the tool for this platform.
    case noChecksum(tool: String, platform: String)
    /// The lock has an entry for a tool nothing pins any more.
    case unpinned(tool: String)

    /// The difference in one line.
    public var message: String {
        switch self {
        case .unlocked(let tool, let requirement, let setBy): return "\(tool) \(requirement) is pinned (set by \(setBy)) but not in tack.lock"
        case .disagrees(let tool, let d, let setBy): return "\(tool): \(d.message(setBy: "(set by \(setBy))"))"
        case .noChecksum(let tool, let platform): return "\(tool): tack.lock has no checksum for \(platform) — run `tack lock` to add it"
        case .unpinned(let tool): return "\(tool) is in tack.lock but no longer pinned"
        }
    }
}
