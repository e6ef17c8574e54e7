import TackCore

/// How `InstallService` locks and installs: what `install`, `use`, `lock` and `update` ask.
public struct InstallOptions: Sendable {
    /// Install exactly what tack.lock says; fail on any difference (`--frozen`, TACK_FROZEN).
    public var frozen = false
    /// Use only what is cached (TACK_OFFLINE).
    public var offline = false
    public var update: LockPlanner.Update = .none
    /// Install only these tools (all pinned tools when nil).
    public var only: Set<String>?
    /// Install after locking (`tack lock` only locks).
    public var install = true
    /// `--rebuild`: build again what another Swift toolchain built.
    public var rebuild = false
    /// `--build`: build from source what the lock would install prebuilt.
    public var build = false
    /// `--no-cache`: build here, without the team cache.
    public var noCache = false
    public var jobs: Int
    /// Versions to install beside what is pinned, locked nowhere (`tack install jq@1.6`).
    public var extra: [ToolRequest] = []
    /// `--platform`: platforms the lock covers besides those tack.yml lists and this one.
    public var platforms: [Platform] = []

    /// The defaults for `context`: frozen and offline as its environment says.
    public init(_ context: Context) {
        frozen = context.settings.isFrozen
        offline = context.settings.isOffline
        jobs = context.defaultJobs
    }
}

/// How an install went: the problems said (locks, resolution, recording) and the installs'
/// summary.
public struct InstallReport: Sendable, Equatable {
    public var problems = 0
    public var summary = InstallSummary()

    /// 0 when nothing went wrong, else 1.
    public var status: Int32 { problems > 0 || summary.failed > 0 ? 1 : 0 }
}
