import Archive
import Git
import BackendKinds
import TackCore

/// What a backend is made with, for one process: its settings, the environment its children
/// run in (pinned interpreters first on PATH), one git remote per process (listings asked
/// once), limits on extraction and download mirrors.
/// `BackendFactory.standard` builds one and asks each registered kind for its backend.
public struct BackendEffects: Sendable {
    public var settings: Settings
    /// The process environment with the pinned interpreters' bin directories first on PATH.
    public var interpreters: [String: String]
    public var git: any GitRemotes
    public var limits: SafeExtractor.Limits
    public var mirrors: DownloadMirrors

    public init(settings: Settings, interpreters: [String: String], git: any GitRemotes, limits: SafeExtractor.Limits, mirrors: DownloadMirrors) {
        self.settings = settings
        self.interpreters = interpreters
        self.git = git
        self.limits = limits
        self.mirrors = mirrors
    }

    public var fs: any FileSystem { settings.fs }
    public var trace: Trace { settings.trace }

    /// An HTTP client of its own (libcurl), with the process's proxy and token settings.
    public func http() -> any HTTPClient { CurlHTTPClient(environment: settings.environment, trace: settings.trace) }

    /// A runner of child processes of its own.
    public func runner() -> any ProcessRunner { ChildProcessRunner(trace: settings.trace) }
}

/// A kind whose backend tack can make: what `BackendFactory.standard` asks of each kind in
/// `Settings.backends`, so registering a kind in the catalog is all a backend needs.
public protocol BackendMaking: BackendKind {
    func makeBackend(_ effects: BackendEffects) -> any Backend
}
