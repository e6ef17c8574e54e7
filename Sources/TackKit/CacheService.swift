import Backends
import TackCore

/// `tack cache push` and `tack cache status`: the team cache asked about, and given, the
/// builds pinned here. Returns what happened to each tool; tack-cli says it.
public struct CacheService {
    let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// A pinned tool's lock entry, with the pin it came from.
    public struct Pinned: Sendable {
        public var request: ToolRequest
        public var overridden: ToolRequest?
        public var locked: LockedTool?
    }

    /// What `push` did with one tool.
    public enum PushOutcome: Sendable, Equatable {
        case pushed(label: String, digest: String)
        /// Not pushed, and why; `named`: the user asked for it (a failure, not a note).
        case skipped(tool: String, why: String, named: Bool)
        case failed(label: String, message: String)
    }

    public struct PushReport: Sendable {
        public var cache: String
        public var outcomes: [PushOutcome] = []
        /// Files that pin builds here and are not trusted (their builds are never shared).
        public var untrustedFiles: Set<String> = []
        public var pushed: Int { outcomes.filter { if case .pushed = $0 { true } else { false } }.count }
        public var failed: Int {
            outcomes.filter {
                switch $0 {
                case .failed: return true
                case .skipped(_, _, let named): return named
                case .pushed: return false
                }
            }.count
        }
    }

    /// One row of `status`.
    public struct StatusRow: Sendable {
        public var tool: String
        public var version: String?
        /// `hit`, `miss`, `not a build`, `not locked`, or what went wrong.
        public var status: String
        public var key: CacheKey?
        /// The build's manifest digest, on a hit.
        public var digest: String?
    }

    /// The tools pinned here (`only` those, when named), sorted, each with its lock entry.
    public func pinned(only names: [String]) throws(TackError) -> [Pinned] {
        var out: [Pinned] = []
        for (lockPath, requests) in workspace.groups {
            let lock = try lockPath.map(workspace.loadLock) ?? Lockfile()
            for request in requests where names.isEmpty || names.contains(request.name) {
                out.append(Pinned(request: request, overridden: workspace.resolution.pin(request.name)?.overridden, locked: lock.tools[request.name]))
            }
        }
        for name in names where !out.contains(where: { $0.request.name == name }) {
            throw TackError("\(name) is not pinned here")
        }
        return out.sorted { $0.request.name < $1.request.name }
    }

    /// The team cache this project uses, or why there is none.
    public func connect() throws(TackError) -> OCIBuildCache {
        let selection = try TeamCacheConnection.selection(workspace)
        guard let cache = selection.cache else {
            let home = workspace.home
            if let untrusted = selection.untrusted {
                throw TackError(TrustRefusal.teamCache(file: untrusted.origin.file, reference: "\(untrusted.reference)"), home: home)
            }
            throw TackError("no team cache is set — add `cache: {url: oci://HOST/NAMESPACE}` to \(workspace.settings.globalManifest.map { Paths.abbreviate($0, home: home) } ?? "the global manifest"), or set TACK_CACHE")
        }
        return TeamCacheConnection.connect(cache, workspace)
    }

    /// Pushes the installed build of every pinned tool built here (or of the tools named).
    public func push(only tools: [String]) async throws(TackError) -> PushReport {
        let cache = try connect()
        var report = PushReport(cache: cache.label)
        let policy = TrustPolicy(settings: workspace.settings)
        for pin in try pinned(only: tools) {
            report.outcomes.append(await push(pin, to: cache, named: tools.contains(pin.request.name), policy: policy, untrusted: &report.untrustedFiles))
        }
        return report
    }

    func push(_ pin: Pinned, to cache: OCIBuildCache, named: Bool, policy: TrustPolicy, untrusted: inout Set<String>) async -> PushOutcome {
        let name = pin.request.name
        func skip(_ why: String) -> PushOutcome { .skipped(tool: name, why: why, named: named) }
        guard let locked = pin.locked else { return skip("not locked — run `tack install`") }
        let label = "\(name) \(locked.version)"
        guard let backend = try? workspace.registry.backend(for: pin.request) else { return skip("no backend") }
        guard let installed = workspace.store.installs(name, locked.version).first(where: { locked.isSameInstall(as: $0.record) }) else {
            return skip("\(label) is not installed as tack.lock says — run `tack install`")
        }
        guard TeamCacheConnection.isShareable(pin.request, overridden: pin.overridden, policy: policy) else {
            untrusted.insert((pin.overridden ?? pin.request).origin.file)
            return skip("\(label) is pinned by a file that is not trusted, so its build is not shared")
        }
        let built = installed.record.built
        if let why = built[Installer.unshareableField] { return skip("\(label) is not shared: \(why)") }
        let inputs: [String: String]
        do {
            guard let i = try await backend.buildInputs(pin.request, locked, destination: installed.directory, built: built) else {
                return skip("\(label) comes from the \(backend.name) backend, which downloads rather than builds")
            }
            inputs = i
        } catch { return skip(error.message) }
        let key = CacheKey(tool: name, inputs: inputs, platform: cache.platform)
        do {
            let digest = try await cache.push(key, directory: installed.directory, record: InstallOrigin.withoutOrigin(installed.record))
            CacheDigests(store: workspace.store).remember(key.tag, digest)
            return .pushed(label: label, digest: digest)
        } catch {
            return .failed(label: label, message: error.message)
        }
    }

    /// Whether the team cache has each pinned tool's build, and under which key.
    public func status() async throws(TackError) -> (cache: OCIBuildCache, rows: [StatusRow]) {
        let cache = try connect()
        var rows: [StatusRow] = []
        for pin in try pinned(only: []) {
            rows.append(await status(of: pin, in: cache))
        }
        return (cache, rows)
    }

    func status(of pin: Pinned, in cache: OCIBuildCache) async -> StatusRow {
        var row = StatusRow(tool: pin.request.name, version: pin.locked?.version.text, status: "not locked")
        guard let locked = pin.locked, let backend = try? workspace.registry.backend(for: pin.request) else { return row }
        let destination = workspace.store.installDirectory(for: locked) ?? workspace.store.installTarget(for: locked)
        do {
            guard let inputs = try await backend.buildInputs(pin.request, locked, destination: destination, built: nil) else {
                row.status = "not a build"
                return row
            }
            let key = CacheKey(tool: row.tool, inputs: inputs, platform: cache.platform)
            row.key = key
            do {
                row.digest = try await cache.lookup(key)
                row.status = row.digest == nil ? "miss" : "hit"
            } catch { row.status = "error: \(error.message)" }
        } catch { row.status = "no key: \(error.message)" }
        return row
    }
}
