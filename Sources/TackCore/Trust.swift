/// Which manifests may apply `env` and run `bootstrap.run`: trust is given per file, keyed by
/// its absolute path and the SHA-256 of its content, so any change needs trust again. It is kept
/// in `$TACK_HOME/state/trust`, never in a project file.
public struct TrustStore: Sendable {
    public let store: Store
    public init(store: Store) { self.store = store }

    /// The file trust is kept in.
    public var path: String { store.state + "/trust" }

    /// `sha256  path` lines.
    func entries() -> [(hash: String, path: String)] {
        guard let bytes = try? store.fs.read(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]).trimmingSpaces)
        }
    }

    public func isTrusted(_ file: String, hash: String) -> Bool {
        entries().contains { $0.path == file && $0.hash == hash }
    }

    public func trust(_ file: String, hash: String) throws(TackError) {
        try write(entries().filter { $0.path != file } + [(hash, file)])
    }

    /// Returns whether the file was trusted.
    @discardableResult
    public func untrust(_ file: String) throws(TackError) -> Bool {
        let all = entries()
        let kept = all.filter { $0.path != file }
        try write(kept)
        return kept.count != all.count
    }

    func write(_ entries: [(hash: String, path: String)]) throws(TackError) {
        let text = entries.sorted { $0.path < $1.path }.map { "\($0.hash)  \($0.path)\n" }.joined()
        do {
            try store.fs.createDirectory(store.state)
            try store.fs.writeAtomically(path, Array(text.utf8))
        } catch { throw TackError("cannot write \(path): \(error)") }
    }
}

/// What in a project file needs `tack trust` before tack acts on it (PRODUCT.md, Safety
/// rules): `env`, `path:` pins, `build:` commands, asdf plugins, a team cache and
/// `bootstrap.run`. The user's global manifest and registries need none.
public struct TrustPolicy: Sendable {
    public let settings: Settings
    let trust: TrustStore?

    public init(settings: Settings) {
        self.settings = settings
        self.trust = settings.store.map(TrustStore.init)
    }

    /// Whether `file` is the user's own (the global manifest) or trusted as it is now.
    public func isTrusted(_ file: String) -> Bool {
        // The user's own files: the global manifest and asdf's ~/.tool-versions.
        if file == settings.globalManifest || file == settings.userToolVersions { return true }
        guard let trust, let bytes = try? settings.fs.read(file) else { return false }
        return trust.isTrusted(file, hash: SHA256Digest.hex(bytes))
    }

    /// The directory a `path:` pin puts on PATH, or nil when the file that pins it is not
    /// trusted (a cloned repository must not choose what `git` or `ls` run).
    public func pathRoot(_ pin: ToolRequest) -> String? {
        guard case .path(let dir) = pin.requirement else { return nil }
        guard pin.origin.kind == .globalManifest || isTrusted(pin.origin.file) else { return nil }
        let base = dir.hasPrefix("~/") ? (settings.home ?? "") + dir.dropFirst(1) : dir
        return Paths.join(Paths.dirname(pin.origin.file), base)
    }

    /// Why installing this pin would run code a project file chose (a `build:` command, an asdf
    /// plugin's scripts) from a file that is not trusted; nil when it may run. `file` is where
    /// the pin's source and options were written (for an environment override, the pin it
    /// overrides).
    public func codeRefusal(_ request: ToolRequest, file origin: Origin) -> String? {
        let what: String
        if request.options.build != nil {
            what = "\(request.name) has a `build:` command, which would run on this machine"
        } else if case .asdf(let url) = request.source {
            what = "\(request.name) comes from the asdf plugin \(url), whose scripts would run on this machine"
        } else {
            return nil
        }
        // Entries from the registries are the user's (or tack's) choice, not the project's.
        if origin.kind == .globalManifest { return nil }
        let registry = try? ToolRegistry.load(store: settings.store)
        if let entry = registry?.entries[request.name], entry.source == request.source, entry.options.build == request.options.build {
            return nil
        }
        if isTrusted(origin.file) { return nil }
        let home = settings.home
        let dir = Paths.abbreviate(Paths.dirname(origin.file), home: home)
        return "\(what), and \(Paths.abbreviate(origin.file, home: home)) is not trusted (set by \(origin.describe(home: home))) — read it, then run `tack trust \(dir)`; nothing was fetched or installed"
    }
}
