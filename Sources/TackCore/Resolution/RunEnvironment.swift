/// What running a directory's tools changes in the environment: the directories put first on
/// PATH (in the order commands are looked up), and the `env` of trusted manifests. Shims,
/// `tack exec` and the shell hook all apply exactly this.
public struct RunEnvironment: Sendable, Equatable {
    public struct Variable: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Bin directories of the pinned tools that are installed (or `path:` checkouts), by tool name.
    public var binDirectories: [String] = []
    /// Tools pinned here that tack installs but are not installed yet.
    public var missing: [String] = []
    /// The `env` of trusted manifests, nearer manifests winning, sorted by name.
    public var variables: [Variable] = []
    /// Manifests that set `env` or pin `path:` but are not trusted (left out).
    public var untrusted: [String] = []

    public init(binDirectories: [String] = [], missing: [String] = [], variables: [Variable] = [], untrusted: [String] = []) {
        self.binDirectories = binDirectories
        self.missing = missing
        self.variables = variables
        self.untrusted = untrusted
    }

    public var isEmpty: Bool { binDirectories.isEmpty && variables.isEmpty && untrusted.isEmpty && missing.isEmpty }

    /// PATH as a command here runs with it: the bin directories first, then `existing` (the
    /// caller's PATH) when it is set and not empty; nil when there is nothing to put on it. The
    /// one rule: `tack exec`, `tack env`, bootstrap's commands, and — on C strings, in the
    /// Embedded `tack` — shims and `exec` from the snapshot (`LeanRun.apply`).
    public func path(after existing: String?) -> String? {
        var parts = binDirectories
        if let existing, !existing.isEmpty { parts.append(existing) }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }

    /// `environment` as a command here runs with it: PATH as `path(after:)` makes it, and the
    /// trusted env set (a manifest cannot set PATH or `__TACK_*`: `Manifest` refuses them).
    public func applied(to environment: [String: String]) -> [String: String] {
        var env = environment
        if let path = path(after: environment["PATH"]) { env["PATH"] = path }
        for v in variables { env[v.name] = v.value }
        return env
    }

    /// A `path:` pin's `bin`: on PATH when it is a directory, else the pin's directory itself
    /// (so a snapshot keys it, `Snapshot.make`).
    public static func binDirectory(ofPathRoot root: String) -> String { root + "/bin" }

    /// The environment for a resolution. `rows` are `resolution.current(settings:)`.
    public static func make(resolution: Resolution, rows: [CurrentTool], settings: Settings) -> RunEnvironment {
        var out = RunEnvironment()
        let store = settings.store
        let policy = TrustPolicy(settings: settings)
        for (pin, row) in zip(resolution.pins, rows) {
            switch pin.request.requirement {
            case .system: continue
            case .path:
                guard let root = policy.pathRoot(pin.request) else {
                    if !out.untrusted.contains(pin.request.origin.file) { out.untrusted.append(pin.request.origin.file) }
                    continue
                }
                out.binDirectories.append(settings.fs.isDirectory(binDirectory(ofPathRoot: root)) ? binDirectory(ofPathRoot: root) : root)
            default:
                if let v = row.version.flatMap({ Version(word: $0) }), row.installed, let store {
                    out.binDirectories.append((row.installDirectory ?? store.installDirectory(row.tool, v)) + "/bin")
                } else if pin.request.isLockable {
                    out.missing.append(row.tool)
                }
            }
        }
        var values: [String: String] = [:]
        var untrustedEnv: [String] = []
        // Farthest first, so nearer manifests overwrite; the user's own global manifest needs no trust.
        for manifest in resolution.manifests.reversed() where !manifest.env.isEmpty {
            if policy.isTrusted(manifest.path) {
                for e in manifest.env { values[e.name] = e.value }
            } else {
                untrustedEnv.insert(manifest.path, at: 0)
            }
        }
        for file in out.untrusted where !untrustedEnv.contains(file) { untrustedEnv.append(file) }
        out.untrusted = untrustedEnv
        out.variables = values.sorted { $0.key < $1.key }.map { Variable(name: $0.key, value: $0.value) }
        return out
    }

    /// The `untrustedWarning`s of `files` still to say: each once per version of the file and
    /// of the trust store (every shim call and `tack exec` would otherwise repeat it into build
    /// logs). The ledger counts them as said.
    public static func untrustedWarningsToSay(_ files: [String], settings: Settings) -> [String] {
        files.compactMap { file in
            let warning = untrustedWarning(file, home: settings.home)
            if let store = settings.store {
                guard WarningLedger(store: store).isNew(file, [warning], kind: "untrusted", alsoKeyedBy: [TrustStore(store: store).path]) else { return nil }
            }
            return warning
        }
    }

    /// The warning for a manifest whose env was left out.
    public static func untrustedWarning(_ path: String, home: String?) -> String {
        TrustRefusal.environmentNotApplied(file: path).message(home: home)
    }

    /// A short fingerprint of everything applied, so the shell hook can tell "nothing changed".
    public var digest: String {
        var h = FNV1a()
        // Each field ends in a byte no string holds, so fields cannot run together.
        func add(_ s: String) { h.add(s); h.add("\u{FF}") }
        for d in binDirectories { add("b"); add(d) }
        for v in variables { add("v"); add(v.name); add(v.value) }
        for u in untrusted { add("u"); add(u) }
        for m in missing { add("m"); add(m) }
        return h.hex
    }
}
