import Archive
import Backends
import TackCore

/// Which backends tack installs with, made for a process's settings: the one place they are
/// composed (tests compose their own through `Context.makeBackends`).
public enum BackendFactory {
    /// The backend of every kind `settings.backends` registers (each kind makes its own:
    /// `BackendMaking`), with `pathPrefix` first on the PATH of those that run an interpreter.
    /// With `copy`, they make a copy of what they fetch, or fetch only from one (`CarriedCopy`).
    public static func standard(_ settings: Settings, pathPrefix: [String], copy: CarriedCopy?) -> BackendRegistry {
        // One remote per registry, its listings asked once (`MemoizedRemotes`).
        let effects = BackendEffects(settings: settings, interpreters: environment(settings, pathPrefix: pathPrefix),
                                     git: MemoizedRemotes(LibGit2Remotes(trace: settings.trace, network: NetworkSettings(environment: settings.environment))),
                                     limits: SafeExtractor.Limits.from(environment: settings.environment),
                                     mirrors: settings.downloadMirrors, copy: copy)
        return BackendRegistry(settings.backends.kinds.compactMap { ($0 as? any BackendMaking)?.makeBackend(effects) })
    }

    /// The process environment with `pathPrefix` first on PATH, and the certificate
    /// authorities tack trusts told to the children the way each reads them (`NetworkSettings`).
    public static func environment(_ settings: Settings, pathPrefix: [String]) -> [String: String] {
        var env = NetworkSettings(environment: settings.environment).childEnvironment(settings.environment)
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
}
