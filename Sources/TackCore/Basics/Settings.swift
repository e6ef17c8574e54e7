/// The world a command runs in: environment, working directory, file system. Passed in, never
/// global, so tests give each run its own.
public struct Settings: Sendable {
    public var environment: [String: String]
    public var cwd: String
    public var fs: any FileSystem
    /// The kinds of backend manifests and locks may name (`BackendCatalog.standard`).
    public var backends: BackendCatalog
    /// Versions named on the command line (`tack exec ink@0.6.0 -- …`), by tool: the word
    /// that named each, so a message says that, not the variable that carries it.
    public var commandLine: [String: String] = [:]
    /// Where the effects' real implementations say what they do (`-v`); off unless the
    /// process sets it.
    public var trace: Trace = .off
    /// `tack lock` in a project that has only version files of other managers: their pins are
    /// locked in a new tack.lock there (otherwise such a project gets none until it asks).
    public var locksVersionFiles = false
    /// The global manifest's `mirrors:`, once it is read (`Workspace`): with the environment's
    /// rules, `downloadMirrors`.
    public var manifestMirrors: [DownloadMirrors.Rule] = []

    /// Where downloads come from instead of their publishers.
    public var downloadMirrors: DownloadMirrors { DownloadMirrors(environment: environment, manifest: manifestMirrors) }

    public init(environment: [String: String], cwd: String, fs: any FileSystem, backends: BackendCatalog) {
        self.environment = environment
        self.cwd = Paths.normalize(cwd)
        self.fs = fs
        self.backends = backends
    }

    func nonEmpty(_ key: String) -> String? {
        guard let v = environment[key], !v.isEmpty else { return nil }
        return v
    }

    public var home: String? { nonEmpty("HOME").map(Paths.normalize) }

    func absolute(_ path: String) -> String { Paths.join(cwd, path) }

    /// `$TACK_HOME`, else `$XDG_DATA_HOME/tack`, else `~/.local/share/tack`. A relative
    /// XDG_DATA_HOME is ignored, as the XDG spec says; a relative TACK_HOME gives no store
    /// (`requireStore` says why): the store is never made inside whatever directory tack runs in.
    public var tackHome: String? {
        if let h = nonEmpty("TACK_HOME") { return h.hasPrefix("/") ? Paths.normalize(h) : nil }
        if let x = nonEmpty("XDG_DATA_HOME"), x.hasPrefix("/") { return Paths.join(Paths.normalize(x), "tack") }
        return home.map { Paths.join($0, ".local/share/tack") }
    }

    /// `$XDG_CONFIG_HOME/tack/tack.yml`, else `~/.config/tack/tack.yml` (a relative
    /// XDG_CONFIG_HOME is ignored).
    public var globalManifest: String? {
        if let x = nonEmpty("XDG_CONFIG_HOME"), x.hasPrefix("/") { return Paths.join(Paths.normalize(x), "tack/tack.yml") }
        return home.map { Paths.join($0, ".config/tack/tack.yml") }
    }

    /// `~/.tool-versions`: asdf's global default, read after the global manifest.
    public var userToolVersions: String? {
        guard let home, home.hasPrefix("/") else { return nil }
        return Paths.child(home, CompatibleFile.toolVersions.rawValue)
    }

    public var store: Store? { tackHome.map { Store(root: $0, fs: fs, backends: backends) } }

    public var isFrozen: Bool { ["1", "true", "yes"].contains(environment["TACK_FROZEN"]?.lowercased() ?? "") }
    public var isOffline: Bool { ["1", "true", "yes"].contains(environment["TACK_OFFLINE"]?.lowercased() ?? "") }

    /// The store, where tack may create it: TACK_HOME absolute, or else HOME a directory that
    /// exists (a mistyped HOME must not grow a new tree at the root of the file system).
    public func requireStore() throws(TackError) -> Store {
        if let h = nonEmpty("TACK_HOME"), !h.hasPrefix("/") {
            throw TackError("TACK_HOME must be an absolute path, not \(quoted(h)) — tack keeps its store in one place, never inside the directory it runs in")
        }
        guard let store else { throw TackError("neither TACK_HOME nor HOME is set, so tack has nowhere to keep tools; set TACK_HOME") }
        if nonEmpty("TACK_HOME") == nil, !(nonEmpty("XDG_DATA_HOME")?.hasPrefix("/") ?? false), let home, !fs.isDirectory(home) {
            throw TackError("HOME is \(quoted(home)), which is not a directory, so tack has nowhere to keep tools — set HOME to your home directory, or TACK_HOME")
        }
        return store
    }
}
