import TackCore

/// What a service says while it works. Services never print: the command that called one
/// renders these (tack-cli on stderr, a test into a list), in the order they come.
public enum Notice: Sendable {
    /// A problem, said as one `tack: …` line (its message); the command fails.
    case problem(TackError)
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
    /// Of the installed: built here, each with how long its build took (builds run in
    /// parallel, so they are said one by one, never added up).
    public var builds: [(tool: String, seconds: Double)] = []
    public var built: Int { builds.count }
    /// How long the installs took, start to end, where more than one build ran at once.
    public var wallSeconds: Double?

    /// The same counts and builds (times are measurements: the wall time is not compared).
    public static func == (a: InstallSummary, b: InstallSummary) -> Bool {
        a.installed == b.installed && a.pulled == b.pulled && a.already == b.already && a.failed == b.failed
            && a.prebuilt == b.prebuilt && a.builds.map(\.tool) == b.builds.map(\.tool) && a.builds.map(\.seconds) == b.builds.map(\.seconds)
    }

    public init(installed: Int = 0, pulled: Int = 0, already: Int = 0, failed: Int = 0) {
        self.installed = installed
        self.pulled = pulled
        self.already = already
        self.failed = failed
    }

    /// Counts an install of `tool` from `origin`.
    public mutating func add(_ origin: InstallOrigin?, tool: String = "") {
        switch origin {
        case .prebuilt?: prebuilt += 1
        case .teamCache?: break
        case .builtHere(let seconds)?: builds.append((tool, seconds))
        case nil: break
        }
    }

    /// `3 installed (1 prebuilt, 1 from the team cache, 1 built here in 2m 56s), 1 already
    /// installed, 1 failed`; with builds that ran together, the time it all took and each
    /// build's own: `2 installed in 23m 02s (2 built here: ink 20m 10s, swiftlint 18m 45s)`.
    /// Nil when nothing was installed and nothing failed.
    public var line: String? {
        guard installed > 0 || failed > 0 else { return nil }
        var summary = "\(installed) installed"
        if builds.count > 1, let wallSeconds { summary += " in \(InstallOrigin.duration(wallSeconds))" }
        var from: [String] = []
        if prebuilt > 0 { from.append("\(prebuilt) prebuilt") }
        if pulled > 0 { from.append("\(pulled) from the team cache") }
        if builds.count == 1 { from.append("1 built here in \(InstallOrigin.duration(builds[0].seconds))") }
        if builds.count > 1 {
            let longest = builds.sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.tool < $1.tool }
            let each = longest.prefix(3).map { "\($0.tool) \(InstallOrigin.duration($0.seconds))" }.joined(separator: ", ")
            from.append("\(builds.count) built here: \(each)\(builds.count > 3 ? ", …" : "")")
        }
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
