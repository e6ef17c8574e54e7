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
    /// The rules backends apply to the URLs they fetch: none while a copy is made or read
    /// (the recording client applies them, and a copy answers the publishers' URLs).
    public var mirrors: DownloadMirrors
    /// A copy of a lock being made or installed from (`CarriedCopy`), if any.
    public var copy: CarriedCopy?

    public init(settings: Settings, interpreters: [String: String], git: any GitRemotes, limits: SafeExtractor.Limits, mirrors: DownloadMirrors, copy: CarriedCopy? = nil) {
        self.settings = settings
        self.interpreters = interpreters
        self.limits = limits
        self.copy = copy
        switch copy {
        case nil:
            self.git = git
            self.mirrors = mirrors
        case .making:
            self.git = git
            self.mirrors = .none
        case .from(let reader):
            self.git = CarriedRemotes(copy: reader, local: LibGit2Remotes(trace: settings.trace))
            self.mirrors = .none
        }
    }

    public var fs: any FileSystem { settings.fs }
    public var trace: Trace { settings.trace }

    /// An HTTP client of its own (libcurl), with the process's proxy and token settings; while
    /// a copy is made, one that keeps what it fetches in it; installing from a copy, the copy.
    public func http() -> any HTTPClient {
        let curl = network()
        switch copy {
        case nil: return curl
        case .making(let writer): return RecordingHTTPClient(base: curl, mirrors: settings.downloadMirrors, copy: writer)
        case .from(let reader): return CarriedHTTPClient(copy: reader, environment: settings.environment)
        }
    }

    /// The network itself (libcurl), whatever copy is made or read: for files a backend keeps
    /// in a copy in its own way (gem files, by name), which the recording client would keep a
    /// second time, under a URL that may carry the source's credentials.
    public func network() -> any HTTPClient { CurlHTTPClient(environment: settings.environment, trace: settings.trace) }

    /// A runner of child processes of its own.
    public func runner() -> any ProcessRunner { ChildProcessRunner(trace: settings.trace) }
}

/// A kind whose backend tack can make: what `BackendFactory.standard` asks of each kind in
/// `Settings.backends`, so registering a kind in the catalog is all a backend needs.
public protocol BackendMaking: BackendKind {
    func makeBackend(_ effects: BackendEffects) -> any Backend
}
