/// What a directory pins, tool by tool, and where each pin came from.
///
/// Precedence (PRODUCT.md): `TACK_<TOOL>_VERSION`; else the nearest directory walking up that
/// pins the tool, where inside one directory tack.local.yml beats tack.yml beats the compatible
/// files; else the global manifest.
public struct Resolution: Sendable {
    public struct Pin: Sendable {
        public var request: ToolRequest
        /// The directory whose tack.lock records this pin's exact version.
        public var lockDirectory: String?
        /// The pin this one overrides the version of (an environment variable's underlying pin).
        public var overridden: ToolRequest?
    }

    /// Pins sorted by tool name.
    public var pins: [Pin]
    /// The project's root: the nearest directory with a tack.yml (or, failing that, with any
    /// file that pins a tool). Nil outside any project.
    public var projectRoot: String?
    /// Manifests read, nearest first (tack.local.yml before tack.yml), then the global one.
    public var manifests: [Manifest]
    /// Every file looked for, and what was found (nil: absent), so a snapshot of this
    /// resolution can tell when it has gone stale.
    public var probes: [(path: String, info: FileInfo?)]

    public func pin(_ tool: String) -> Pin? { pins.first { $0.request.name == tool } }
}

public struct Resolver: Sendable {
    public let settings: Settings
    public init(_ settings: Settings) { self.settings = settings }

    static let manifestName = "tack.yml"
    static let localManifestName = "tack.local.yml"

    public func resolve() throws(TackError) -> Resolution {
        let fs = settings.fs
        var pinned: [String: Resolution.Pin] = [:]
        var manifests: [Manifest] = []
        var probes: [(String, FileInfo?)] = []
        var projectRoot: String?
        var firstPinningDirectory: String?

        func probe(_ path: String) -> FileInfo? {
            let info = fs.info(path)
            probes.append((path, info))
            return info?.kind == .file ? info : nil
        }
        /// tack's own files must be regular files: a directory, pipe, device or a link that
        /// leads nowhere in their place is an error, never "nothing pinned" (and a pipe is
        /// never opened, so it cannot hang tack).
        func probeManifest(_ path: String) throws(TackError) -> FileInfo? {
            let info = probe(path)
            if info != nil { return info }
            switch fs.info(path)?.kind {
            case .directory?: throw TackError("\(path) is a directory; tack reads its manifest from a file of that name — remove or rename the directory")
            case .other?: throw TackError("\(path) is not a regular file (a pipe, socket or device); tack reads its manifest only from a file")
            default:
                if fs.isBrokenLink(path) {
                    throw TackError("\(path) is a symbolic link that leads nowhere (a loop, or a missing target) — fix or remove it")
                }
                return nil
            }
        }

        var dir = settings.cwd
        while true {
            var here: [String: ToolRequest] = [:]
            var order: [String] = []
            func add(_ r: ToolRequest) {
                if here[r.name] == nil { order.append(r.name) }
                here[r.name] = r
            }
            // Lowest precedence first; later files overwrite.
            for file in CompatibleFile.allCases.reversed() {
                let path = Paths.child(dir, file.rawValue)
                if probe(path) != nil {
                    for r in try file.read(path, fs: fs) { add(r) }
                }
            }
            let manifestPath = Paths.child(dir, Resolver.manifestName)
            var base: Manifest?
            if try probeManifest(manifestPath) != nil {
                let m = try Manifest.load(manifestPath, kind: .manifest, fs: fs)
                base = m
                for r in m.tools { add(r) }
            }
            let localPath = Paths.child(dir, Resolver.localManifestName)
            var local: Manifest?
            if try probeManifest(localPath) != nil {
                let m = try Manifest.load(localPath, kind: .localManifest, fs: fs)
                local = m
                for var r in m.tools {
                    // A bare version in tack.local.yml changes only the version of the
                    // entry it overrides; a mapping replaces the entry.
                    if m.bareEntries.contains(r.name), let b = here[r.name] {
                        r.source = b.source
                        r.options = b.options
                    }
                    add(r)
                }
            }
            if let local { manifests.append(local) }
            if let base { manifests.append(base) }
            if projectRoot == nil, base != nil || local != nil { projectRoot = dir }
            if firstPinningDirectory == nil, !order.isEmpty { firstPinningDirectory = dir }
            for name in order where pinned[name] == nil {
                pinned[name] = .init(request: here[name]!, lockDirectory: dir, overridden: nil)
            }
            if dir == "/" { break }
            dir = Paths.dirname(dir)
        }

        if let global = settings.globalManifest, try probeManifest(global) != nil {
            let m = try Manifest.load(global, kind: .globalManifest, fs: fs)
            manifests.append(m)
            for r in m.tools where pinned[r.name] == nil {
                pinned[r.name] = .init(request: r, lockDirectory: Paths.dirname(global), overridden: nil)
            }
        }

        try applyEnvironmentOverrides(&pinned)
        // Short names take their source from the registries (parsed only when needed).
        if pinned.values.contains(where: { if case .registry = $0.request.source { return true } else { return false } }) {
            let registry = try ToolRegistry.load(store: settings.store)
            for (name, pin) in pinned { pinned[name]!.request = registry.apply(pin.request) }
        }
        let root = projectRoot ?? firstPinningDirectory
        // Project pins are locked in the project root's tack.lock.
        if let root {
            for (name, pin) in pinned where pin.request.origin.kind != .globalManifest {
                if let d = pin.lockDirectory, d == root || d.hasPrefix(root == "/" ? "/" : root + "/") {
                    pinned[name]!.lockDirectory = root
                }
            }
        }
        return Resolution(
            pins: pinned.keys.sorted().map { pinned[$0]! }, projectRoot: root,
            manifests: manifests, probes: probes)
    }

    func applyEnvironmentOverrides(_ pinned: inout [String: Resolution.Pin]) throws(TackError) {
        var byVariable: [String: String] = [:]
        for name in pinned.keys { byVariable[ToolName.environmentVariable(name)] = name }
        for (key, value) in settings.environment.sorted(by: { $0.key < $1.key })
        where key.hasPrefix("TACK_") && key.hasSuffix("_VERSION") && key.count > 13 && !value.isEmpty {
            let requirement: Requirement
            do { requirement = try Requirement.parse(value) } catch {
                throw TackError("\(key)=\(quoted(value)) in the environment is not a version requirement: \(error)")
            }
            if case .path = requirement {
                throw TackError("\(key) cannot name a path; pin `path:` in tack.yml instead")
            }
            let origin = Origin(kind: .environment, file: key, line: 0, column: 0)
            if let name = byVariable[key] {
                let underlying = pinned[name]!.request
                var r = underlying
                r.requirement = requirement
                r.origin = origin
                pinned[name] = .init(request: r, lockDirectory: nil, overridden: underlying)
            } else {
                let name = String(key.dropFirst(5).dropLast(8)).lowercased().map { $0 == "_" ? "-" : $0 }
                let tool = String(name)
                guard ToolName.isValid(tool) else { continue }
                pinned[tool] = .init(request: ToolRequest(name: tool, requirement: requirement, origin: origin), lockDirectory: nil, overridden: nil)
            }
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
}

extension Resolution {
    /// The exact version each pin would run: from the lock, an exact pin, or the newest
    /// installed version the requirement allows; nil where nothing is resolved yet.
    public func current(settings: Settings) throws(TackError) -> [CurrentTool] {
        var locks: [String: Lockfile?] = [:]
        let store = settings.store
        var out: [CurrentTool] = []
        for pin in pins {
            let r = pin.request
            var version: Version?
            var backend = r.source.backend
            var locked: LockedTool?
            if let dir = pin.lockDirectory {
                if locks[dir] == nil {
                    let path = Paths.child(dir, Lockfile.fileName)
                    locks[dir] = .some(settings.fs.info(path) == nil ? nil : try Lockfile.load(path, fs: settings.fs))
                }
                // An entry that no longer describes the pin (another requirement, source or
                // options, a version outside the requirement) is not used.
                if let lock = locks[dir] ?? nil, let entry = lock.tools[r.name],
                   r.source.identity == nil
                    ? entry.requested == r.requirement.description
                    : entry.disagreements(with: r, backend: r.source.backend, source: r.source.identity ?? "").isEmpty
                {
                    version = entry.version
                    backend = entry.backend
                    locked = entry
                }
            }
            if version == nil {
                switch r.requirement {
                case .system, .path, .ref: break
                default:
                    version = r.requirement.exactVersion
                        ?? store.flatMap { r.requirement.best(of: $0.installedVersions(r.name)) }
                }
            }
            // An install counts only when it was made from this lock entry (a fork's 1.0.0 is
            // not the original's).
            let installed = version.map { v in
                guard let record = store?.installedEntry(r.name, v) else { return false }
                if let locked { return locked.isSameInstall(as: record) }
                // Not locked yet: an install from this pin's source and options.
                guard let identity = r.source.identity else { return true }
                return record.isFrom(r, backend: r.source.backend, source: identity)
            } ?? false
            let isFile = r.origin.kind != .environment && r.origin.kind != .commandLine
            out.append(CurrentTool(
                tool: r.name, requested: r.requirement.description, version: version?.text, backend: backend,
                source: r.origin.file, line: isFile ? r.origin.line : nil, installed: installed, origin: r.origin))
        }
        return out
    }
}
