/// What `--frozen` (or TACK_FROZEN) refuses: an install it could not check against what
/// tack.lock records. One case for each, with what it names, said in one place (`message`), so
/// every refusal reads alike and tests match the case.
public enum FrozenRefusal: Sendable, Equatable {
    /// The lock lists the platforms it covers (`covered`), and not this one.
    case lockUncovered(covered: [String], platform: String)
    /// A tool's set of packages (`noun`: "distributions", "gems") is locked for other platforms.
    case setUncovered(noun: String, tool: String, covered: [String], platform: String)
    /// A tool's lock entry records no set of packages yet.
    case setUnrecorded(noun: String, tool: String)
    /// A tool's lock entry has no checksum of what would be installed; `of` says which (a
    /// platform, an asset, a file) where there are several.
    case noChecksum(tool: String, of: String?, remedy: Remedy)
    /// The lock at `lock` (as shown) does not describe what is pinned, in each of `differences`.
    case lockDiffers(lock: String, differences: [LockDifference])

    /// How the missing record is added.
    public enum Remedy: Sendable, Equatable {
        /// `tack lock` records it without installing (every platform's).
        case lock
        /// An install without --frozen records it (what only installing here finds).
        case installOnce
    }

    /// The refusal in words, with what to run.
    public var message: String {
        switch self {
        case .lockUncovered(let covered, let platform):
            return "tack.lock covers \(covered.joined(separator: ", ")), not \(platform), and --frozen installs only what it can verify — run `tack lock --platform \(platform)` (on any machine) and commit tack.lock; nothing was installed"
        case .setUncovered(let noun, let tool, let covered, let platform):
            return "tack.lock locks the \(noun) of \(tool) for \(covered.joined(separator: ", ")), not \(platform), and --frozen installs only what it can verify — run `tack lock --platform \(platform)` (on any machine) and commit tack.lock; nothing was installed"
        case .setUnrecorded(let noun, let tool):
            return "tack.lock records no \(noun) for \(tool), and --frozen installs only what it records — run `tack install` without --frozen once"
        case .noChecksum(let tool, let of, let remedy):
            let run = remedy == .lock ? "run `tack lock` to add it" : "run `tack install` without --frozen once to record it"
            return "tack.lock has no checksum of \(tool)\(of.map { " for \($0)" } ?? ""), and --frozen installs only what it can verify — \(run); nothing was installed"
        case .lockDiffers(let lock, let differences):
            return "\(lock) does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it — nothing was installed:\n"
                + differences.map { "  - \($0.message)" }.joined(separator: "\n") + "\nrun `tack lock` and commit tack.lock"
        }
    }
}
