/// Which manifests may apply `env` and run `bootstrap.run`: trust is given per file, keyed by
/// its absolute path and the SHA-256 of its content, so any change needs trust again. It is kept
/// in `$TACK_HOME/state/trust`, never in a project file.
public struct TrustStore: Sendable {
    public let store: Store
    public init(store: Store) { self.store = store }

    /// The file trust is kept in.
    public var path: String { store.state + "/trust" }

    var file: StateFile { StateFile(path, fs: store.fs) }

    /// `sha256  path` lines.
    func entries() -> [(hash: String, path: String)] {
        file.lines().compactMap(Self.entry)
    }

    static func entry(_ line: String) -> (hash: String, path: String)? {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return (String(parts[0]), String(parts[1]).trimmingSpaces)
    }

    public func isTrusted(_ file: String, hash: String) -> Bool {
        StateFile.isStorable(file) && entries().contains { $0.path == file && $0.hash == hash }
    }

    public func trust(_ file: String, hash: String) throws(TackError) {
        guard StateFile.isStorable(file) else {
            throw TackError("cannot trust \(Terminal.escapeControls(quoted(file))): its path holds a control character — rename the directory")
        }
        try self.file.update { (lines) throws(TackError) in
            (Self.sorted(lines.compactMap(Self.entry).filter { $0.path != file } + [(hash, file)]), ())
        }
    }

    /// Returns whether the file was trusted.
    @discardableResult
    public func untrust(_ file: String) throws(TackError) -> Bool {
        try self.file.update { (lines) throws(TackError) in
            let all = lines.compactMap(Self.entry)
            let kept = all.filter { $0.path != file }
            return (Self.sorted(kept), kept.count != all.count)
        }
    }

    static func sorted(_ entries: [(hash: String, path: String)]) -> [String] {
        entries.sorted { $0.path < $1.path }.map { "\($0.hash)  \($0.path)" }
    }
}

/// What in a project file needs `tack trust` before tack acts on it (docs/security.md,
/// "Trust"): `env`, `path:` pins, `build:` commands, a `python:` interpreter, asdf plugins, a
/// team cache and `bootstrap.run`. The user's global manifest and registries need none.
public struct TrustPolicy: Sendable {
    public let settings: Settings
    let trust: TrustStore?
    /// Each file's answer, and the trust store's entries, read once per policy: a manifest
    /// with thousands of `path:` pins is read and hashed once, not once a pin.
    private let memo = Memo()

    final class Memo: @unchecked Sendable {
        let lock = PThreadMutex()
        var answers: [String: Bool] = [:]
        var entries: Set<String>?
    }

    public init(settings: Settings) {
        self.settings = settings
        self.trust = settings.store.map(TrustStore.init)
    }

    /// Whether `file` is the user's own (the global manifest) or trusted as it is now.
    public func isTrusted(_ file: String) -> Bool {
        // The user's own files: the global manifest and asdf's ~/.tool-versions.
        if file == settings.globalManifest || file == settings.userToolVersions { return true }
        if let known = memo.lock.locked({ memo.answers[file] }) { return known }
        let answer = compute(file)
        memo.lock.locked { memo.answers[file] = answer }
        return answer
    }

    private func compute(_ file: String) -> Bool {
        guard let trust, StateFile.isStorable(file), let bytes = try? settings.fs.read(file) else { return false }
        let entries = memo.lock.locked { memo.entries } ?? {
            let all = Set(trust.entries().map { "\($0.hash)  \($0.path)" })
            memo.lock.locked { memo.entries = all }
            return all
        }()
        return entries.contains("\(SHA256Digest.hex(bytes))  \(file)")
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
    public func codeRefusal(_ request: ToolRequest, file origin: Origin) -> TrustRefusal? {
        guard let kind = request.source.kind, let what = kind.runsChosenCode(request) else { return nil }
        // Entries from the registries are the user's (or tack's) choice, not the project's.
        if origin.kind == .globalManifest { return nil }
        let registry = try? ToolRegistry.load(store: settings.store, backends: settings.backends)
        if let entry = registry?.entries[request.name], entry.source == request.source, kind.runsSameCode(request, as: entry) {
            return nil
        }
        if isTrusted(origin.file) { return nil }
        return .runsCode(what: what, origin: origin)
    }
}
