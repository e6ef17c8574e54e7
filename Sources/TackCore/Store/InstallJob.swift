/// What a backend is asked to do: fill `directory` (a fresh temporary directory that becomes
/// the install when complete) with the tool described by `locked`.
public struct InstallJob: Sendable {
    public var request: ToolRequest
    /// TACK_OFFLINE: use only what is cached.
    public var offline = false
    /// --frozen: the lock will not be written, so nothing new can be recorded in it.
    public var frozen = false
    /// `--build`: build from source even where the lock names a prebuilt bundle.
    public var build = false
    public var locked: LockedTool
    public var directory: String
    /// Where `directory` is renamed to when the install completes (for what must name its
    /// final place: a virtualenv's script shebangs, a wrapper's paths).
    public var destination: String
    /// A scratch directory for sources and builds, removed afterwards.
    public var scratch: String
    public var cache: String
    public var report: @Sendable (InstallPhase) -> Void

    public init(request: ToolRequest, locked: LockedTool, directory: String, scratch: String, cache: String, report: @escaping @Sendable (InstallPhase) -> Void) {
        self.request = request
        self.locked = locked
        self.directory = directory
        self.destination = directory
        self.scratch = scratch
        self.cache = cache
        self.report = report
    }
}
