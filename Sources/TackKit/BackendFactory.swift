import Archive
import Backends
import TackCore

/// Which backends tack installs with, made for a process's settings: the one place they are
/// composed (tests compose their own through `Context.makeBackends`).
public enum BackendFactory {
    /// Every backend, with `pathPrefix` first on the PATH of those that run an interpreter.
    public static func standard(_ settings: Settings, pathPrefix: [String]) -> BackendRegistry {
        let interpreters = environment(settings, pathPrefix: pathPrefix)
        let limits = SafeExtractor.Limits.from(environment: settings.environment)
        // One remote per registry, its listings asked once (`MemoizedRemotes`).
        let git = MemoizedRemotes(LibGit2Remotes(trace: settings.trace))
        return BackendRegistry([
            GitBackend(runner: ChildProcessRunner(trace: settings.trace), environment: interpreters, git: git, fs: settings.fs, trace: settings.trace,
                       http: CurlHTTPClient(environment: settings.environment, trace: settings.trace), limits: limits,
                       mirrors: DownloadMirrors(environment: settings.environment)),
            URLBackend(http: CurlHTTPClient(environment: settings.environment, trace: settings.trace), limits: limits,
                       mirrors: DownloadMirrors(environment: settings.environment), fs: settings.fs),
            PipBackend(runner: ChildProcessRunner(trace: settings.trace), http: CurlHTTPClient(environment: settings.environment, trace: settings.trace), environment: interpreters, shims: settings.store?.shims, fs: settings.fs),
            GemBackend(runner: ChildProcessRunner(trace: settings.trace), environment: interpreters, shims: settings.store?.shims, fs: settings.fs,
                       http: CurlHTTPClient(environment: settings.environment, trace: settings.trace)),
            AsdfBackend(runner: ChildProcessRunner(trace: settings.trace), environment: interpreters, cache: settings.store?.cache, git: git, mayRun: pluginTrust(settings), fs: settings.fs),
            SwiftBackend(http: CurlHTTPClient(environment: settings.environment, trace: settings.trace), runner: ChildProcessRunner(trace: settings.trace), environment: settings.environment, limits: limits, fs: settings.fs),
        ])
    }

    /// The process environment with `pathPrefix` first on PATH.
    public static func environment(_ settings: Settings, pathPrefix: [String]) -> [String: String] {
        var env = settings.environment
        if !pathPrefix.isEmpty {
            env["PATH"] = (pathPrefix + [settings.environment["PATH"] ?? ExecutableSearch.defaultPath]).joined(separator: ":")
        }
        return env
    }

    /// The tools whose programs tack's own builds run when pinned: the Swift toolchain, Python
    /// and Ruby. No other tool's binaries come before the system's while tack builds, so a tool
    /// that ships a `python3`, `git` or `swift` never becomes the interpreter or compiler.
    public static let buildInterpreters: Set<String> = ["swift", "python", "ruby"]

    /// The bin directories of the interpreters pinned here that are installed now: backends
    /// that run one (pip, gem, a Swift build) find the pinned python, ruby or swift there first
    /// on PATH. `path:` pins are never among them.
    public static func pinnedBinDirectories(_ resolution: Resolution, _ settings: Settings) -> [String] {
        guard let store = settings.store, let rows = try? resolution.current(settings: settings) else { return [] }
        var out: [String] = []
        for (pin, row) in zip(resolution.pins, rows) where buildInterpreters.contains(row.tool) {
            if case .path = pin.request.requirement { continue }
            if case .system = pin.request.requirement { continue }
            if let v = row.version.flatMap({ Version(word: $0) }), row.installed {
                out.append((row.installDirectory ?? store.installDirectory(row.tool, v)) + "/bin")
            }
        }
        return out
    }

    /// An asdf plugin runs its own scripts: one a registry names may run; one a project file
    /// names runs only when that file is trusted (`tack trust`), as `env` is applied.
    static func pluginTrust(_ settings: Settings) -> @Sendable (ToolRequest) -> String? {
        let registry = try? ToolRegistry.load(store: settings.store)
        let store = settings.store
        let fs = settings.fs
        let home = settings.home
        return { request in
            // A registry's plugin runs untrusted, but only as the registry runs it: variables a
            // project file adds for its scripts (`build_env`) need that file trusted.
            if let entry = registry?.entries[request.name], entry.source == request.source,
               request.options.asdf.buildEnv == entry.options.asdf.buildEnv { return nil }
            if request.origin.kind == .globalManifest { return nil }
            let file = request.origin.file
            if let store, let bytes = try? fs.read(file), TrustStore(store: store).isTrusted(file, hash: SHA256Digest.hex(bytes)) { return nil }
            let dir = Paths.abbreviate(Paths.dirname(file), home: home)
            return "\(request.name) comes from the asdf plugin \(request.source.identity ?? ""), whose scripts run on this machine, and \(Paths.abbreviate(file, home: home)) is not trusted (set by \(request.origin.describe(home: home))) — read it, then run `tack trust \(dir)`"
        }
    }
}
