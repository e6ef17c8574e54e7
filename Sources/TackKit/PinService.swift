import TackCore

/// `tack use`: a tool pinned in tack.yml (or the global manifest), locked and installed, or
/// both files put back as they were. The entry's other fields, comments and layout are kept;
/// a file the user trusted stays trusted through this one edit.
public struct PinService: Sendable {
    public let context: Context

    public init(_ context: Context) { self.context = context }

    /// What to pin.
    public struct Pin: Sendable {
        public var tool: String
        /// nil: the newest release there is, pinned exactly.
        public var requirement: Requirement?
        /// Where a new entry's tool comes from (`--git`, `--github`), for finding its newest release.
        public var source: ToolSource?
        /// In the global manifest rather than the project's tack.yml.
        public var global = false
        /// A new entry's source as a YAML field (`git: "https://…"`), and the products it
        /// builds; nil to pin a version of the entry there is, or a registry name.
        public var entrySource: String?
        public var products: [String] = []
        /// A new url entry's `bin:` paths.
        public var bins: [String] = []
        /// Platforms the lock covers besides those tack.yml lists and this one.
        public var platforms: [Platform] = []
        /// Swift SDKs to add to the toolchain's `sdks:` (`--sdk static-linux`).
        public var sdks: [String] = []

        public init(tool: String, requirement: Requirement?) {
            self.tool = tool
            self.requirement = requirement
        }
    }

    /// How it went: pinned, locked and installed (`pinned`); written, but another file or the
    /// environment takes precedence here (`shadowed`, with what does); or not done, both files
    /// as they were (`failed`, the install's report: every problem was said).
    public enum Outcome: Sendable, Equatable {
        case pinned(file: String)
        case shadowed(file: String, by: String)
        case failed(file: String, report: InstallReport)
    }

    /// Pins, locks and installs; the requirement pinned, and how it went.
    public func pin(_ pin: Pin) async throws(TackError) -> (Requirement, Outcome) {
        let settings = context.settings
        if settings.isFrozen { throw TackError("TACK_FROZEN is set, which forbids changing tack.yml and tack.lock") }
        var pin = pin
        if pin.entrySource == nil, let (entry, source) = try await CatalogService(context).lookUp(pin.tool, workspace: try Workspace(context)) {
            pin.source = source
            pin.entrySource = "\(entry.key): \(ManifestEditor.yamlValue(entry.identity))"
            context.notify(.line("\(pin.tool) is \(entry.identity) in \(entry.catalog)\(entry.description.isEmpty ? "" : ": \(entry.description)")"))
        }
        try checkSource(pin)
        let requirement: Requirement
        if let r = pin.requirement { requirement = r } else { requirement = try await newest(pin.tool, source: pin.source) }
        return (requirement, try await write(pin, requirement))
    }

    /// A tool with no source given, pinned nowhere here and named by no registry: refused
    /// before anything is written, with "did you mean" or the source options to give.
    func checkSource(_ pin: Pin) throws(TackError) {
        guard pin.entrySource == nil else { return }
        let workspace = try Workspace(context)
        guard case .registry = workspace.request(named: pin.tool, requirement: .latest).source else { return }
        let pinned = workspace.resolution.pins.map(\.request.name)
        if let close = ToolName.suggestion(for: pin.tool, store: workspace.store, pinned: pinned) {
            throw TackError("no registry knows \(pin.tool) — did you mean `\(close)`? (or give its source: \(PinAdvice.sourceOptionsHint))")
        }
        throw TackError(PinAdvice.pin(pin.tool, registryKnows: false) + "; nothing was changed")
    }

    /// Writes the pin, then locks and installs it; both files put back if that fails.
    func write(_ pin: Pin, _ requirement: Requirement) async throws(TackError) -> Outcome {
        let settings = context.settings
        let (path, kind) = try manifest(global: pin.global)
        // Read, edit and write under the project's lock: parallel `tack use` keep every pin.
        let store = try settings.requireStore()
        let hold = try ProjectLock.acquire(store: store, root: Paths.dirname(path)) { context.notify(.line($0)) }
        defer { hold.unlock() }
        let files = try ProjectFiles(path: path, fs: settings.fs)
        var edited = try ManifestEditor.pin(pin.tool, requirement, entry: Self.entry(pin, requirement), in: files.manifest ?? [], path: path, kind: kind, backends: settings.backends)
        if !pin.sdks.isEmpty { edited = try ManifestEditor.addToList(pin.tool, key: "sdks", pin.sdks, in: edited, path: path, kind: kind, backends: settings.backends) }
        // A file the user trusted stays trusted through tack's own edit of one pin.
        let trust = TrustStore(store: store)
        let wasTrusted = files.manifest != nil && kind != .globalManifest && TrustPolicy(settings: settings).isTrusted(path)
        let restore = files.restore(trust: wasTrusted ? trust : nil)
        // Interrupted from here on (a build, a download), both files are put back as they were.
        context.undoOnInterrupt(path, restore)
        do { try settings.fs.createDirectory(Paths.dirname(path)) } catch { throw TackError.cannotWrite(path, error) }
        try context.projectFiles.write(path, edited)
        if wasTrusted { try trust.trust(path, hash: SHA256Digest.hex(edited)) }
        let workspace: Workspace
        do { workspace = try Workspace(context) } catch {
            restore()
            throw error
        }
        guard let pinned = workspace.resolution.pin(pin.tool), pinned.request.origin.file == path else {
            // Written, but something nearer wins (tack.local.yml, a nearer file, the environment).
            let winner = workspace.resolution.pin(pin.tool).map { $0.request.origin.describe(home: settings.home) } ?? "nothing"
            return .shadowed(file: path, by: winner)
        }
        var options = InstallOptions(context)
        options.platforms = pin.platforms
        options.only = [pin.tool]
        let report = await InstallService(workspace, options: options).run()
        guard report.status == 0 else {
            restore()
            return .failed(file: path, report: report)
        }
        return .pinned(file: path)
    }

    /// A new entry (`{ git: …, version: …, products: […] }`), or nil.
    static func entry(_ pin: Pin, _ requirement: Requirement) -> String? {
        guard let source = pin.entrySource else { return nil }
        var fields = [source, "version: \(ManifestEditor.yamlValue(requirement.description))"]
        if !pin.products.isEmpty { fields.append("products: [\(pin.products.map(ManifestEditor.yamlValue).joined(separator: ", "))]") }
        if !pin.bins.isEmpty { fields.append("bin: [\(pin.bins.map(ManifestEditor.yamlValue).joined(separator: ", "))]") }
        return "{ \(fields.joined(separator: ", ")) }"
    }

    /// The manifest to pin in: the global one, or the project's tack.yml (the nearest one
    /// read here, else one in the working directory).
    func manifest(global: Bool) throws(TackError) -> (String, Origin.Kind) {
        let settings = context.settings
        if global {
            guard let g = settings.globalManifest else { throw TackError("HOME is not set, so there is no global manifest") }
            return (g, .globalManifest)
        }
        let resolution = try Resolver(settings).resolve()
        let path = resolution.manifests.first { $0.path.hasSuffix("/tack.yml") && $0.path != settings.globalManifest }?.path
            ?? Paths.join(settings.cwd, "tack.yml")
        return (path, .manifest)
    }

    /// The newest release of `tool`, from where it is pinned here, the `source` given, or the
    /// registry: what `tack use TOOL` pins exactly.
    public func newest(_ tool: String, source: ToolSource?) async throws(TackError) -> Requirement {
        let workspace = try Workspace(context)
        var request = workspace.request(named: tool, requirement: .latest)
        if let source { request.source = source }
        let versions = try await workspace.registry.backend(for: request).available(of: request)
        guard let newest = Requirement.latest.best(of: versions) else {
            throw TackError("\(tool) has no release to pin — name a version: `tack use \(tool)@VERSION`")
        }
        return .prefix(newest.version)
    }
}

/// A manifest and the tack.lock beside it as they were before a command changed them, and
/// how to put both back.
struct ProjectFiles: Sendable {
    let path: String
    let lockPath: String
    let manifest: [UInt8]?
    let lock: [UInt8]?
    let fs: any FileSystem

    init(path: String, fs: any FileSystem) throws(TackError) {
        self.path = path
        self.fs = fs
        lockPath = Paths.join(Paths.dirname(path), Lockfile.fileName)
        do {
            manifest = fs.info(path) == nil ? nil : try fs.read(path)
            lock = fs.info(lockPath) == nil ? nil : try fs.read(lockPath)
        } catch { throw TackError(error.description) }
    }

    /// Puts both files back (a file that was not there is removed), the manifest trusted
    /// again when `trust` is given.
    func restore(trust: TrustStore?) -> @Sendable () -> Void {
        let (path, lockPath, manifest, lock, fs) = (path, lockPath, manifest, lock, fs)
        return {
            if let manifest { try? fs.writeAtomically(path, manifest) } else { try? fs.remove(path) }
            if let manifest, let trust { try? trust.trust(path, hash: SHA256Digest.hex(manifest)) }
            if let lock { try? fs.writeAtomically(lockPath, lock) } else { try? fs.remove(lockPath) }
        }
    }
}
