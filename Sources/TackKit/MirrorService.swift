import Backends
import TackCore

/// `tack mirror`: everything the locks here need, for every platform they cover, carried into
/// a copy — each backend fetches what its installs fetch (`Backend.carry`, checked against the
/// lock as `tack lock --verify` checks), the team cache's build of each built tool for this
/// machine beside it — so that `tack install --from` on a machine with no network installs
/// the same tools, verified the same way.
public struct MirrorService: Sendable {
    /// A workspace whose backends keep what they fetch in `copy` (its context's `copy`).
    public let workspace: Workspace
    public let copy: CopyWriter
    public var jobs: Int

    var context: Context { workspace.context }

    public init(_ workspace: Workspace, copy: CopyWriter, jobs: Int) {
        self.workspace = workspace
        self.copy = copy
        self.jobs = jobs
    }

    /// What was carried: tools, artifacts, and the problems said.
    public struct Report: Sendable, Equatable {
        public var tools = 0
        public var artifacts = 0
        public var builds = 0
        public var problems = 0
    }

    /// Carries every lock here; throws, having written nothing, when there is none.
    public func run() async throws(TackError) -> Report {
        let fs = workspace.settings.fs
        guard workspace.groups.contains(where: { $0.lockPath.map { fs.info($0) != nil } ?? false }) else {
            throw TackError("there is no tack.lock here to copy — run `tack lock` first")
        }
        var report = Report()
        let scratch = Paths.join(workspace.store.cache, ".mirror-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        defer { try? workspace.settings.fs.remove(scratch) }
        let cache = buildCache()
        var locks = 0
        for (lockPath, requests) in workspace.groups {
            guard let lockPath, workspace.settings.fs.info(lockPath) != nil else { continue }
            let lock: Lockfile
            do { lock = try workspace.loadLock(lockPath) } catch {
                context.problem(error)
                report.problems += 1
                continue
            }
            locks += 1
            copy.cover(lock.platforms.isEmpty ? [Platform.current.description] : lock.platforms)
            for request in requests {
                guard let entry = lock.tools[request.name] else { continue }
                await carry(entry, request, cache: cache, scratch: scratch, into: &report)
            }
        }
        guard locks > 0 else { return report }
        do { try copy.finish(made: MirrorClock.now()) } catch {
            context.problem(error)
            report.problems += 1
        }
        return report
    }

    /// One tool: what its backend carries, then its build from the team cache.
    func carry(_ entry: LockedTool, _ request: ToolRequest, cache: OCIBuildCache?, scratch: String, into report: inout Report) async {
        let label = "\(entry.name) \(entry.version)"
        guard let backend = try? workspace.registry.backend(for: request) else {
            context.notify(.problem(TackError("\(label): tack has no \(entry.backend) backend to copy it with")))
            report.problems += 1
            return
        }
        let tool = CopyIndex.Tool(name: entry.name, version: entry.version.text, backend: entry.backend, source: entry.source)
        let outcome = await copy.carrying(tool) { () async -> (carried: (carried: Int, problems: [String])?, build: String?) in
            let carried = await backend.carry(entry, for: request, scratch: scratch, jobs: jobs)
            let build = await carryBuild(entry, request, backend: backend, cache: cache)
            return (carried, build)
        }
        guard let carried = outcome.carried else {
            context.notify(.problem(TackError("\(label): tack cannot copy \(entry.backend) tools yet, so an install from the copy would lack it")))
            report.problems += 1
            return
        }
        report.tools += 1
        report.artifacts += carried.carried
        for p in carried.problems { context.notify(.problem(TackError(p))) }
        report.problems += carried.problems.count
        switch outcome.build {
        case "carried"?: report.builds += 1
        case let note?: context.notify(.line("note: \(label): \(note)"))
        case nil: break
        }
    }

    /// The team cache's build of `entry` for this machine, kept in the copy: "carried", a note
    /// when there is none, nil when the tool is not a build.
    func carryBuild(_ entry: LockedTool, _ request: ToolRequest, backend: any Backend, cache: OCIBuildCache?) async -> String? {
        guard request.source.kind?.builds == true else { return nil }
        let destination = workspace.store.installDirectory(for: entry) ?? workspace.store.installTarget(for: entry)
        let inputs: [String: String]?
        do { inputs = try await backend.buildInputs(request, entry, destination: destination, built: nil) } catch {
            return keep("no build is carried (\(error.message)); an install from the copy builds it, which needs what its build fetches")
        }
        guard let inputs else { return nil }
        guard let cache else {
            return keep("no team cache is set, so no build is carried; an install from the copy builds it, which needs what its build fetches (a Swift package's dependencies)")
        }
        let key = CacheKey(tool: entry.name, inputs: inputs, platform: cache.platform)
        switch await cache.stage(key, recorded: entry.cachedDigest(key.tag), report: { _ in }) {
        case .answer(.miss):
            return keep("the team cache \(cache.label) has no build of it for this machine (key \(key.tag.prefix(12))); an install from the copy builds it, which needs what its build fetches")
        case .answer(.unusable(let why)):
            return keep("no build is carried: \(why)")
        case .answer(.hit):
            return nil
        case .staged(let staged):
            defer {
                try? workspace.settings.fs.remove(staged.config)
                try? workspace.settings.fs.remove(staged.layer)
            }
            do {
                try copy.keepBuild(tool: entry.name, tag: key.tag, digest: staged.digest, manifest: staged.manifest, config: staged.config, layer: staged.layer)
                return "carried"
            } catch { return keep("no build is carried: \(error.message)") }
        }
    }

    /// `note`, kept in the copy for `install --from` to say again.
    func keep(_ note: String) -> String {
        copy.note(note)
        return note
    }

    /// The team cache in force here, connected, when one is.
    func buildCache() -> OCIBuildCache? {
        guard let cache = (try? TeamCacheConnection.selection(workspace))?.cache else { return nil }
        return TeamCacheConnection.connect(cache, workspace)
    }
}
