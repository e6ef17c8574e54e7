import Backends
import TackCore

/// The effects a service works through, passed in: the process's settings (working
/// directory, environment, file system, store), where notices go, how project files are
/// written, how backends are made and where the `tack` executable is. tack-cli passes the
/// real ones; tests pass their own.
public struct Context: Sendable {
    public var settings: Settings
    /// Where the service's notices go.
    public var notify: @Sendable (Notice) -> Void
    /// Writes project files (tack.yml, tack.lock) whole; tack-cli's puts the old bytes back
    /// if the process is interrupted.
    public var projectFiles: any ProjectFileWriter
    /// The backends for these settings, with `pathPrefix` first on their PATH, making or
    /// reading `copy` if there is one.
    public var makeBackends: @Sendable (Settings, _ pathPrefix: [String], _ copy: CarriedCopy?) -> BackendRegistry
    /// A copy of a lock this command makes (`tack mirror`) or installs from (`--from`).
    public var copy: CarriedCopy?
    /// Registers what to put back if the process is interrupted before the command ends
    /// (by key: the first registration of a key wins).
    public var undoOnInterrupt: @Sendable (String, @escaping @Sendable () -> Void) -> Void
    /// The `tack` executable shims link to (nil: not found).
    public var launcher: @Sendable () -> String?
    /// How many installs run at once by default.
    public var defaultJobs: Int
    /// How the services run programs of their own (`swift --version`, a package manager);
    /// backends have theirs, from `makeBackends`.
    public var runner: any ProcessRunner

    public init(
        settings: Settings,
        notify: @escaping @Sendable (Notice) -> Void = { _ in },
        projectFiles: (any ProjectFileWriter)? = nil,
        makeBackends: @escaping @Sendable (Settings, [String], CarriedCopy?) -> BackendRegistry = BackendFactory.standard,
        undoOnInterrupt: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> Void = { _, _ in },
        launcher: @escaping @Sendable () -> String? = { nil },
        defaultJobs: Int? = nil,
        runner: (any ProcessRunner)? = nil
    ) {
        self.settings = settings
        self.notify = notify
        self.projectFiles = projectFiles ?? AtomicProjectFileWriter(fs: settings.fs)
        self.makeBackends = makeBackends
        self.undoOnInterrupt = undoOnInterrupt
        self.launcher = launcher
        self.defaultJobs = defaultJobs ?? Self.jobs(settings.environment)
        self.runner = runner ?? ChildProcessRunner(trace: settings.trace)
    }

    /// TACK_JOBS, else the number of cores online.
    static func jobs(_ environment: [String: String]) -> Int {
        if let n = NumericSetting.integer(environment, "TACK_JOBS", minimum: 1, maximum: 256) { return n }
        return max(1, CurrentProcess.processorCount)
    }

    /// Says `error` as a problem.
    public func problem(_ error: TackError) { notify(.problem(error)) }
}

/// How a service writes a project file: whole, or not at all.
public protocol ProjectFileWriter: Sendable {
    func write(_ path: String, _ bytes: [UInt8]) throws(TackError)
}

/// A project file written atomically (a temporary file renamed over it).
public struct AtomicProjectFileWriter: ProjectFileWriter {
    public let fs: any FileSystem
    public init(fs: any FileSystem) { self.fs = fs }

    public func write(_ path: String, _ bytes: [UInt8]) throws(TackError) {
        do { try fs.writeAtomically(path, bytes) } catch { throw TackError.cannotWrite(path, error) }
    }
}
