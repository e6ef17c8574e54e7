/// What a directory pins, tool by tool, and where each pin came from.
///
/// Precedence (docs/compatible-files.md): `TACK_<TOOL>_VERSION`; else the nearest directory walking up that
/// pins the tool, where inside one directory tack.local.yml beats tack.yml beats the compatible
/// files; else the global manifest.
public struct Resolution: Sendable {
    public struct Pin: Sendable {
        public var request: ToolRequest
        /// The directory whose tack.lock records this pin's exact version.
        public var lockDirectory: String?
        /// The pin this one overrides the version of (an environment variable's underlying pin).
        public var overridden: ToolRequest?
        /// The directory whose tack.lock records the overridden pin: that entry stays as it is
        /// (an override, like `RBENV_VERSION`, never changes a project file).
        public var overriddenLockDirectory: String? = nil
    }

    /// Pins sorted by tool name.
    public var pins: [Pin]
    /// The project's root: the nearest directory with a tack.yml (or, failing that, with any
    /// file that pins a tool). Nil outside any project.
    public var projectRoot: String?
    /// Manifests read, nearest first (tack.local.yml before tack.yml), then the global one.
    public var manifests: [Manifest]
    /// The global manifest's `mirrors:` (no other file may have them).
    public var mirrors: [DownloadMirrors.Rule] { manifests.flatMap({ $0.mirrors }) }
    /// Every file looked for, and what was found (nil: absent or a link that leads nowhere;
    /// names missing from a directory the walk read are in `directories`), so a snapshot of
    /// this resolution can tell when it has gone stale.
    public var probes: [(path: String, info: FileInfo?)]
    /// Those of `probes` that found a link leading nowhere.
    public var brokenLinks: [String] = []
    /// Each directory the walk looked in, as it was before the walk looked for names in it
    /// (nil: absent), with the names it looked for there and found nothing at (not even a
    /// link, whose target may appear elsewhere), and when the walk began (file system clock,
    /// ns): a snapshot lets a directory that has not changed vouch for the names it did not hold.
    public var directories: [(path: String, info: FileInfo?, missing: [String])] = []
    public var walkStarted: Int64 = 0
    /// Compatible files (and lines of them) left out because tack cannot read them, each
    /// `file:line:column: why`: they pin nothing, and every other pin still holds.
    public var ignored: [IgnoredFile] = []

    public func pin(_ tool: String) -> Pin? { pins.first { $0.request.name == tool } }

    /// The pin of the Swift toolchain (`swift` from swift.org), when there is one.
    public var swiftToolchain: Pin? {
        guard let pin = pin(SwiftToolchain.registryName), pin.request.source.kind?.isSwiftToolchain == true else { return nil }
        return pin
    }
}

public struct Resolver: Sendable {
    public let settings: Settings
    /// Names a directory vouched for in the last snapshot here (`Snapshot.recordedAbsences`):
    /// while the directory keeps the recorded stat key they are still missing, so the walk
    /// does not look for them again.
    public var vouched: [String: (key: String, names: [String])] = [:]
    public init(_ settings: Settings) { self.settings = settings }

    static let manifestName = "tack.yml"
    static let localManifestName = "tack.local.yml"

    public func resolve() throws(TackError) -> Resolution {
        let started = Snapshot.fileSystemNanoseconds()
        var walk = ResolutionWalk(settings: settings)
        walk.vouched = vouched
        var dir = settings.cwd
        while true {
            try walk.read(directory: dir)
            if dir == "/" { break }
            dir = Paths.dirname(dir)
        }
        try walk.readGlobal()
        var pinned = walk.pinned
        try applyEnvironmentOverrides(&pinned)
        // Short names take their source from the registries (parsed only when needed).
        if pinned.values.contains(where: { if case .registry = $0.request.source { return true } else { return false } }) {
            let registry = try ToolRegistry.load(store: settings.store, backends: settings.backends)
            for (name, pin) in pinned { pinned[name]?.request = registry.apply(pin.request) }
        }
        for (name, pin) in pinned where !pin.request.alternatives.isEmpty {
            pinned[name]?.request = chooseAlternative(pin.request)
        }
        let root = walk.projectRoot ?? walk.firstPinningDirectory
        // A project with only other managers' version files changes nothing on day one: no
        // tack.lock is written there until `tack lock` makes one (then it is used like any).
        // Its pins are read as their own tools read them (the newest install they allow).
        if walk.projectRoot == nil, let root, !settings.locksVersionFiles, walk.probe(Paths.child(root, Lockfile.fileName)) == nil {
            for (name, _) in pinned where !walk.global.contains(name) { pinned[name]?.lockDirectory = nil }
        }
        // Project pins are locked in the project root's tack.lock.
        if let root {
            for (name, pin) in pinned where !walk.global.contains(name) {
                func inProject(_ d: String) -> Bool { d == root || d.hasPrefix(root == "/" ? "/" : root + "/") }
                if let d = pin.lockDirectory, inProject(d) { pinned[name]?.lockDirectory = root }
                if let d = pin.overriddenLockDirectory, inProject(d) { pinned[name]?.overriddenLockDirectory = root }
            }
        }
        var resolution = Resolution(
            pins: pinned.keys.sorted().compactMap { pinned[$0] }, projectRoot: root,
            manifests: walk.manifests, probes: walk.probes)
        resolution.ignored = walk.ignored
        resolution.brokenLinks = walk.brokenLinks
        resolution.directories = walk.directories
        resolution.walkStarted = started
        return resolution
    }

    /// The first of a pin's versions that is installed (`system` and `path:` always are),
    /// else the first: how asdf picks among `ruby 3.3.0 3.2.2` and pyenv among its lines.
    func chooseAlternative(_ request: ToolRequest) -> ToolRequest {
        let installed = settings.store.map { $0.installedVersions(request.name) } ?? []
        var chosen = request
        chosen.alternatives = []
        for candidate in [request.requirement] + request.alternatives {
            let available: Bool
            switch candidate {
            case .system, .path: available = true
            case .ref, .lts: available = false
            default: available = candidate.best(of: installed) != nil
            }
            if available {
                chosen.requirement = candidate
                return chosen
            }
        }
        return chosen
    }

    func applyEnvironmentOverrides(_ pinned: inout [String: Resolution.Pin]) throws(TackError) {
        var byVariable: [String: String] = [:]
        for name in pinned.keys { byVariable[ToolName.environmentVariable(name)] = name }
        // Which variables are overrides is decided by bytes, as the snapshot's key is: an
        // override the key left out would be answered to an environment without it.
        for (key, value) in settings.environment.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
        where ToolName.isVersionVariable(key) && key.utf8.count > 13 && !value.isEmpty {
            let tool = byVariable[key] ?? String(String(key.dropFirst(5).dropLast(8)).lowercased().map { $0 == "_" ? "-" : $0 })
            guard byVariable[key] != nil || ToolName.isValid(tool) else { continue }
            // One version, or several tried in turn: pyenv's `3.12:3.11`, asdf's `5.4.5 5.4.6`.
            var requirements: [Requirement] = []
            for word in Resolver.environmentVersions(value) {
                let version = CompatibleFile.strippingToolPrefix(word, tool + "-")
                do { requirements.append(try Requirement.parse(version)) } catch {
                    throw TackError("\(key)=\(quoted(value)) in the environment is not a version requirement: \(error)")
                }
                if case .path = requirements.last {
                    throw TackError("\(key) cannot name a path; pin `path:` in tack.yml instead")
                }
            }
            guard let requirement = requirements.first else { continue }
            let origin = settings.commandLine[tool].map { Origin(kind: .commandLine, file: "`tack exec \($0)`", line: 0, column: 0) }
                ?? Origin(kind: .environment, file: key, line: 0, column: 0)
            if let pin = pinned[tool] {
                var r = pin.request
                r.requirement = requirement
                r.alternatives = Array(requirements.dropFirst())
                r.origin = origin
                pinned[tool] = .init(request: r, lockDirectory: nil, overridden: pin.request, overriddenLockDirectory: pin.lockDirectory)
            } else {
                var r = ToolRequest(name: tool, requirement: requirement, origin: origin)
                r.alternatives = Array(requirements.dropFirst())
                pinned[tool] = .init(request: r, lockDirectory: nil, overridden: nil)
            }
        }
    }
}

extension Resolver {
    /// The versions a `TACK_<TOOL>_VERSION` value lists: words separated by spaces (asdf), each
    /// split again at `:` (pyenv) unless it is a `ref:`.
    static func environmentVersions(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).flatMap { word -> [String] in
            word.hasPrefix("ref:") || word.hasPrefix("path:") ? [String(word)] : word.split(separator: ":").map(String.init)
        }
    }
}

/// What `tack current` reports for one pin.
public struct CurrentTool: Sendable, Equatable {
    public var tool: String
    public var requested: String
    public var version: String?
    public var backend: String
    public var source: String
    public var line: Int?
    public var installed: Bool
    public var origin: Origin
    /// The directory of the install that runs (the version's own, or a variant of it), when
    /// installed.
    public var installDirectory: String? = nil

    /// Installed as pinned, or `system` or `path:` (which tack runs but does not install).
    public var isReady: Bool { installed || requested == "system" || requested.hasPrefix("path:") }

    /// `jq 1.7.1`, or `jq ~> 1.7` while nothing is resolved.
    public var label: String { "\(tool) \(version ?? requested)" }
}

extension Resolution {
    /// The entry each pin's tack.lock holds for it, in the order of `pins`: nil for a pin no
    /// lock records (an environment override, no tack.lock, no entry). Each lock is read once.
    public func lockedEntries(settings: Settings) throws(TackError) -> [LockedTool?] {
        lockedEntries(locks: try readLocks(settings: settings))
    }

    /// The entries of locks read already (`readLocks`).
    public func lockedEntries(locks: [String: Lockfile?]) -> [LockedTool?] {
        pins.map { pin in pin.lockDirectory.flatMap { (locks[$0] ?? nil)?.tools[pin.request.name] } }
    }

    /// Every lock the pins are locked in, by directory, each read once: nil where there is no
    /// tack.lock. What a command reads once and passes on (`current`, `UpToDate`).
    public func readLocks(settings: Settings) throws(TackError) -> [String: Lockfile?] {
        let fs = settings.fs
        var locks: [String: Lockfile?] = [:]
        for dir in pins.compactMap({ $0.lockDirectory }) where locks[dir] == nil {
            let path = Paths.child(dir, Lockfile.fileName)
            locks[dir] = .some(fs.info(path) == nil ? nil : try Lockfile.load(path, fs: fs, backends: settings.backends))
        }
        return locks
    }

    /// The exact version each pin would run: from the lock, an exact pin, or (for a pin of a
    /// compatible file or an override) the newest install the requirement allows; nil where
    /// nothing is resolved yet.
    public func current(settings: Settings) throws(TackError) -> [CurrentTool] {
        current(settings: settings, locks: try readLocks(settings: settings))
    }

    /// The same, from locks read already (`readLocks`).
    public func current(settings: Settings, locks: [String: Lockfile?]) -> [CurrentTool] {
        let store = settings.store
        var out: [CurrentTool] = []
        for (pin, entry) in zip(pins, lockedEntries(locks: locks)) {
            let r = pin.request
            var version: Version?
            var backend = r.source.backend
            var locked: LockedTool?
            // An entry that no longer describes the pin (another requirement, source or
            // options, a version outside the requirement) is not used; for a tool only the
            // registry names, the requirement decides (`LockMatch`).
            if let entry, LockMatch(pinOnly: r).matches(entry) {
                version = entry.version
                backend = entry.backend
                locked = entry
            }
            if version == nil {
                switch r.requirement {
                case .system, .path, .ref: break
                default:
                    // One answer for every command: a tack.yml pin its lock does not record
                    // yet means what `tack install` will resolve, so nothing runs until it has
                    // (another project's install is not this pin's answer). A compatible file
                    // or an override means what its own tool reads it as: the newest install
                    // it allows (pyenv's and asdf's "latest installed").
                    version = r.requirement.exactVersion
                        ?? (r.origin.isTackManifest ? nil : store.flatMap { r.requirement.best(of: $0.installedVersions(r.name)) })
                }
            }
            // An install counts only when it was made from this lock entry (a fork's 1.0.0 is
            // not the original's); it may be the version's own directory or a variant.
            let directory = version.flatMap { v -> String? in
                guard let store else { return nil }
                if let locked { return store.installDirectory(for: locked) }
                let builds = store.installs(r.name, v)
                // Not locked yet: an install from this pin's source and options.
                guard let identity = r.source.identity else { return builds.first?.directory }
                return builds.first { $0.record.isFrom(r, backend: r.source.backend, source: identity) }?.directory
            }
            let installed = directory != nil
            let isFile = r.origin.kind != .environment && r.origin.kind != .commandLine
            out.append(CurrentTool(
                tool: r.name, requested: r.requirement.description, version: version?.text, backend: backend,
                source: r.origin.file, line: isFile ? r.origin.line : nil, installed: installed, origin: r.origin,
                installDirectory: directory))
        }
        return out
    }
}
