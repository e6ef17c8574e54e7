import TackCore

/// What a service says while it works. Services never print: the command that called one
/// renders these (tack-cli on stderr, a test into a list), in the order they come.
public enum Notice: Sendable {
    /// A problem, said as one `tack: …` line; the command fails.
    case problem(String)
    /// A line for the person watching, as it is.
    case line(String)
    /// An entry of tack.lock written anew.
    case lockChanged(LockPlanner.Change)
    /// What an install saw for the first time (`label` is `tool version`): recorded in
    /// tack.lock, or only said because no lock records it (`frozen`: --frozen writes none).
    case learned(label: String, Learned, recorded: Bool, frozen: Bool)
    /// A tool that could not be resolved (its error was said).
    case unresolved(String)
    /// How the installs went.
    case summary(InstallSummary)
    /// An install's progress.
    case progress(Installer.Event)
    /// Compatible files the resolution left out.
    case ignored([IgnoredFile])
}

/// The counts a finished install says: installed (of which pulled from the team cache),
/// already installed, failed.
public struct InstallSummary: Sendable, Equatable {
    public var installed = 0
    public var pulled = 0
    public var already = 0
    public var failed = 0
    /// Of the installed: downloaded as their publishers built them.
    public var prebuilt = 0
    /// Of the installed: built here, and how long the builds took together.
    public var built = 0
    public var buildSeconds = 0.0

    public init(installed: Int = 0, pulled: Int = 0, already: Int = 0, failed: Int = 0) {
        self.installed = installed
        self.pulled = pulled
        self.already = already
        self.failed = failed
    }

    /// Counts an install from `origin`.
    public mutating func add(_ origin: InstallOrigin?) {
        switch origin {
        case .prebuilt?: prebuilt += 1
        case .teamCache?: break
        case .builtHere(let seconds)?:
            built += 1
            buildSeconds += seconds
        case nil: break
        }
    }

    /// `3 installed (1 prebuilt, 1 from the team cache, 1 built here in 2m 56s), 1 already
    /// installed, 1 failed`, or nil when nothing was installed and nothing failed.
    public var line: String? {
        guard installed > 0 || failed > 0 else { return nil }
        var summary = "\(installed) installed"
        var from: [String] = []
        if prebuilt > 0 { from.append("\(prebuilt) prebuilt") }
        if pulled > 0 { from.append("\(pulled) from the team cache") }
        if built > 0 { from.append("\(built) built here in \(InstallOrigin.duration(buildSeconds))") }
        if !from.isEmpty { summary += " (" + from.joined(separator: ", ") + ")" }
        if already > 0 { summary += ", \(already) already installed" }
        if failed > 0 { summary += ", \(failed) failed" }
        return summary
    }
}

extension LockPlanner.Change {
    /// `locked jq 1.7.1`, `updated jq 1.6 → 1.7.1`, `removed jq 1.6 from tack.lock`.
    public var description: String {
        switch (from, to) {
        case (nil, let to?): return "locked \(tool) \(to)"
        case (let from?, nil): return "removed \(tool) \(from) from tack.lock"
        case (let from?, let to?): return from == to ? "relocked \(tool) \(to)" : "updated \(tool) \(from) → \(to)"
        default: return ""
        }
    }
}
