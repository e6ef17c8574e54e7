#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Installs locked tools into the store, transactionally: each install is built in a
/// temporary directory beside its final place and renamed into place only when complete,
/// under a per-tool-version file lock that the OS releases if the holder dies. Two tack
/// processes installing the same tool produce one install, and both succeed.
public struct Installer: Sendable {
    public struct Item: Sendable {
        public var request: ToolRequest
        public var locked: LockedTool
        /// Build it again even when installed.
        public var rebuild: Bool
        /// What this machine builds of it may go to the team cache: its pin comes from a
        /// trusted file (or the user's own), never from a project nobody trusted.
        public var shareable: Bool
        public init(request: ToolRequest, locked: LockedTool, rebuild: Bool = false, shareable: Bool = false) {
            self.request = request
            self.locked = locked
            self.rebuild = rebuild
            self.shareable = shareable
        }
    }

    public enum Status: Sendable, Equatable { case installed, alreadyInstalled }

    /// A finished install: what happened, what the lock should learn, what the user should know.
    public struct Done: Sendable, Equatable {
        public var status: Status
        public var lockFields: [String: LockValue] = [:]
        public var notes: [String] = []
        /// What the lock learns from this install, said by whoever writes (or not) the lock.
        public var learned: [Learned] = []
        /// Pulled from the team cache rather than built here.
        public var pulled = false
        /// Where it came from (nil when it was already installed).
        public var origin: InstallOrigin?
    }

    public enum Event: Sendable {
        case phase(tool: String, version: String, InstallPhase)
        case finished(tool: String, version: String, Status)
        case failed(tool: String, version: String, TackError)
    }

    /// The record's `built` field that says why an install must not go to the team cache.
    public static let unshareableField = "unshareable"

    public let store: Store
    public let registry: BackendRegistry
    public var offline = false
    public var frozen = false
    /// `--build`: build from source even where the lock names a prebuilt bundle.
    public var build = false
    /// The team cache, when one is in force (and not `--no-cache`).
    public var cache: (any BuildCache)?
    public init(store: Store, registry: BackendRegistry) {
        self.store = store
        self.registry = registry
    }

    /// Installs every item, `jobs` at a time; one failing does not stop the others.
    public func install(_ items: [Item], jobs: Int, report: @escaping @Sendable (Event) -> Void) async -> [String: Result<Done, TackError>] {
        var results: [String: Result<Done, TackError>] = [:]
        await withTaskGroup(of: (String, Result<Done, TackError>).self) { group in
            var pending = items[...]
            func startNext() {
                guard let item = pending.popFirst() else { return }
                group.addTask {
                    let v = item.locked.version.text
                    do throws(TackError) {
                        let done = try await installOne(item, rebuild: item.rebuild) { report(.phase(tool: item.locked.name, version: v, $0)) }
                        report(.finished(tool: item.locked.name, version: v, done.status))
                        return (item.locked.name, .success(done))
                    } catch {
                        report(.failed(tool: item.locked.name, version: v, error))
                        return (item.locked.name, .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, jobs) { startNext() }
            for await (name, result) in group {
                results[name] = result
                startNext()
            }
        }
        return results
    }

    public func installOne(_ item: Item, rebuild: Bool, report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> Done {
        if !rebuild, let done = reuse(item) {
            guard let backend = try? registry.backend(for: item.request), let install = store.installDirectory(for: item.locked),
                  backend.lacksAddOns(item.locked, install: install) else { return done }
            let lock = try await lockInstall(item, report: report)
            defer { lock.unlock() }
            return try await addOns(item, to: done, backend: backend, report: report)
        }
        return try await buildOne(item, backend: try registry.backend(for: item.request), rebuild: rebuild, report: report)
    }

    /// The per-tool-version lock (`state/locks/TOOL@VERSION.lock`), held; waited for, off the
    /// pool, when another process holds it.
    func lockInstall(_ item: Item, report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> any ExclusiveLock {
        try makeDirectories([store.toolDirectory(item.locked.name), store.state + "/locks"])
        let lock = try store.fs.lock(at: store.state + "/locks/\(item.locked.name)@\(item.locked.version.text).lock")
        if !lock.tryLock() {
            // Said at once: who holds it, and what it does.
            report(.waiting(lock.holder()?.description))
            // Another process installs it: wait on a thread of its own, not the pool's.
            await OffPool.run { lock.lock() }
        }
        lock.record("installing \(item.locked.name) \(item.locked.version)")
        return lock
    }

    /// `done` with the add-ons its pin names that the install lacks put in place (a
    /// toolchain's Swift SDKs), under the install's lock; what they teach the lock merged in.
    func addOns(_ item: Item, to done: Done, backend: any Backend, report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> Done {
        guard let install = store.installDirectory(for: item.locked), backend.lacksAddOns(item.locked, install: install) else { return done }
        // Beside the install, on its file system, so what is made there is renamed into it;
        // a killed process's is a leftover `tack prune` removes (`.tmp-…-PID`).
        let scratch = store.toolDirectory(item.locked.name) + "/.tmp-addons-\(item.locked.version.text)-\(getpid())"
        try? store.fs.remove(scratch)
        try makeDirectories([scratch])
        defer { try? store.fs.remove(scratch) }
        var locked = item.locked
        for (k, v) in done.lockFields { locked.fields[k] = v }
        var job = InstallJob(request: item.request, locked: locked, directory: install, scratch: scratch, cache: store.cache, report: report)
        job.offline = offline
        job.frozen = frozen
        let outcome = try await backend.installAddOns(job)
        var out = done
        out.status = .installed
        out.origin = out.origin ?? .prebuilt
        for (k, v) in outcome.lockFields { out.lockFields[k] = v }
        out.learned += outcome.learned
        out.notes += outcome.notes
        return out
    }

    func buildOne(_ item: Item, backend: any Backend, rebuild: Bool, report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> Done {
        let name = item.locked.name
        let version = item.locked.version
        let toolDir = store.toolDirectory(name)
        let lock = try await lockInstall(item, report: report)
        defer { lock.unlock() }
        // Another process may have finished it while we waited.
        if !rebuild, let done = reuse(item) { return try await addOns(item, to: done, backend: backend, report: report) }
        // The version's own directory, or, where it holds another build that some other
        // project uses, a variant beside it: no project evicts another's install.
        let final = store.installTarget(for: item.locked)
        try makeDirectories([Paths.dirname(final)])
        // What a killed install left behind; we hold the lock, so nobody is using it.
        for leftover in (try? store.fs.list(toolDir)) ?? [] where leftover.hasPrefix(".tmp-\(version.text)-") || leftover.hasPrefix(".old-\(version.text)-") {
            try? store.fs.remove(toolDir + "/" + leftover)
        }
        let temp = toolDir + "/.tmp-\(version.text)-\(getpid())"
        try makeDirectories([temp + "/.scratch", store.cache])
        // A build is made where it will live (what it compiles in names its final path): the
        // install it replaces moves aside while it runs, and comes back if it fails.
        var aside: String?
        if item.request.source.kind?.builds == true, store.fs.isDirectory(final) {
            let old = toolDir + "/.old-\(version.text)-\(getpid())"
            do { try store.fs.move(final, to: old) } catch { throw TackError("cannot move \(final) aside to rebuild it: \(error.reason)") }
            aside = old
        }
        do throws(TackError) {
            let done = try await build(item, backend: backend, temp: temp, final: final, report: report)
            if let aside { try? store.fs.remove(aside) }
            return try await addOns(item, to: done, backend: backend, report: report)
        } catch {
            if let aside, !store.fs.isDirectory(final) || store.fs.info(final + "/" + Store.installRecordFile) == nil {
                try? store.fs.remove(final)
                try? store.fs.move(aside, to: final)
            }
            try? store.fs.remove(temp)
            // A tool directory this failure left empty goes too (only if empty).
            _ = store.fs.removeEmptyDirectory(toolDir)
            throw error
        }
    }

    /// Creates each directory (and its parents), or says the store cannot be written.
    func makeDirectories(_ paths: [String]) throws(TackError) {
        do { for p in paths { try store.fs.createDirectory(p) } } catch { throw TackError("cannot write to \(store.root): \(error) — check TACK_HOME") }
    }

    /// The install made in `temp` (from the team cache, or built), recorded, renamed to
    /// `final`, and pushed where it should be.
    func build(_ item: Item, backend: any Backend, temp: String, final: String, report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> Done {
        let scratch = temp + "/.scratch"
        var job = InstallJob(request: item.request, locked: item.locked, directory: temp, scratch: scratch, cache: store.cache, report: report)
        job.offline = offline
        job.frozen = frozen
        job.build = build
        job.destination = final
        var notes: [String] = []
        let key = await cacheKey(item, backend: backend, destination: final, notes: &notes)
        let started = ContinuousClock.now
        let (outcome, pulled) = try await produce(job, item: item, backend: backend, key: key, notes: &notes)
        let origin: InstallOrigin = pulled != nil ? .teamCache
            : (item.request.source.kind?.builds ?? false) && !outcome.prebuilt ? .builtHere(seconds: Self.seconds(since: started)) : .prebuilt
        try? store.fs.remove(scratch)
        let record = Self.record(item, outcome: outcome, key: key, pulled: pulled)
        // Where it came from is this machine's to know, kept in its record but never pushed:
        // two machines' builds of one key stay the same content, with the same digest.
        var stored = record
        stored.built = record.built.merging(origin.recordFields) { _, new in new }
        if let kept = outcome.kept { stored.built[KeptPart.builtField] = kept.recorded }
        do { try store.fs.writeAtomically(temp + "/" + Store.installRecordFile, Lockfile(tools: [item.locked.name: stored]).serialized()) }
        catch { throw TackError("cannot write to \(temp): \(error)") }
        try moveIntoPlace(temp, final, version: item.locked.version)
        // The digest is pinned on this machine (CacheDigests), not written into tack.lock:
        // a pull or a push leaves the project's files as they were.
        if pulled == nil, let key { notes += await push(item, key: key, outcome: outcome, final: final, record: record, report: report) }
        return Done(status: .installed, lockFields: outcome.lockFields, notes: outcome.notes + notes, learned: outcome.learned,
                    pulled: pulled != nil, origin: origin)
    }

    public static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// What the install is made from: the team cache's build (its digest), or the backend's
    /// install here (nil).
    func produce(_ job: InstallJob, item: Item, backend: any Backend, key: CacheKey?, notes: inout [String]) async throws(TackError) -> (InstallOutcome, pulled: String?) {
        guard let cache, let key, !offline else { return (try await backend.install(job), nil) }
        // The lock's choice is checked against the pin first, as a build would check it.
        try await backend.checkPin(item.locked, for: item.request, scratch: job.scratch)
        let seen = CacheDigests(store: store)
        switch await cache.pull(key, recorded: item.locked.cachedDigest(key.tag) ?? seen.digest(for: key.tag), into: job.directory, report: job.report) {
        case .hit(let digest, let binaries, let built):
            seen.remember(key.tag, digest)
            do { try backend.relocate(job, built: built) } catch {
                notes.append("\(item.locked.name) \(item.locked.version): the team cache's build cannot move here: \(error.message); building it here")
                try? store.fs.remove(job.directory)
                try makeDirectories([job.scratch])
                return (try await backend.install(job), nil)
            }
            var metadata = built
            // A relocated build is now where this install is.
            if metadata["destination"] != nil { metadata["destination"] = job.destination }
            return (InstallOutcome(binaries: binaries, metadata: metadata), digest)
        case .miss:
            return (try await backend.install(job), nil)
        case .unusable(let why):
            notes.append("\(item.locked.name) \(item.locked.version): \(why); building it here")
            try? store.fs.remove(job.directory)
            try makeDirectories([job.scratch])
            return (try await backend.install(job), nil)
        }
    }

    /// The install's record (`.tack-install.lock`): the lock entry, with what the install
    /// learned, its binaries, how it was built and the team cache digest it came from.
    static func record(_ item: Item, outcome: InstallOutcome, key: CacheKey?, pulled: String?) -> LockedTool {
        var record = item.locked
        for (k, v) in outcome.lockFields { record.fields[k] = v }
        record.binaries = outcome.binaries.sorted()
        var built = outcome.metadata
        // What is kept on removal is this machine's own outcome's to say (`kept`), never the
        // facts of a build pulled from the team cache.
        built[KeptPart.builtField] = nil
        if let why = outcome.unshareable { built[Installer.unshareableField] = why }
        record.built = built
        if let key, let pulled { record.fields[CacheKey.lockField] = item.locked.addingCachedDigest(key.tag, pulled) }
        return record
    }

    /// Renames the finished install into place, the one it replaces (a rebuild) aside first
    /// and removed after; the directory's entry made durable.
    func moveIntoPlace(_ temp: String, _ final: String, version: Version) throws(TackError) {
        let toolDir = Paths.dirname(temp)
        if store.fs.isDirectory(final) {
            let old = toolDir + "/.old-\(version.text)-\(getpid())"
            do { try store.fs.move(final, to: old) } catch { throw TackError("cannot replace \(final): \(error.reason)") }
            do { try store.fs.move(temp, to: final) } catch {
                try? store.fs.move(old, to: final)
                throw TackError("cannot move the new build into \(final): \(error.reason)")
            }
            try? store.fs.remove(old)
        } else {
            do { try store.fs.move(temp, to: final) } catch { throw TackError("cannot move the install into \(final): \(error.reason)") }
        }
        _ = store.fs.syncDirectory(toolDir)
    }

    /// A build made here, pushed to the team cache when it pushes and the build may be shared
    /// (after the rename: the install stands whatever the upload does); the notes to say.
    func push(_ item: Item, key: CacheKey, outcome: InstallOutcome, final: String, record: LockedTool,
              report: @escaping @Sendable (InstallPhase) -> Void) async -> [String] {
        guard let cache, cache.pushes else { return [] }
        let label = "\(item.locked.name) \(item.locked.version)"
        if let why = outcome.unshareable ?? (item.shareable ? nil : "its pin comes from a file that is not trusted") {
            return ["\(label): not pushed to the team cache: \(why)"]
        }
        report(.custom("pushing to the team cache"))
        do {
            let digest = try await cache.push(key, directory: final, record: record)
            CacheDigests(store: store).remember(key.tag, digest)
            return ["\(label): pushed to the team cache \(cache.label)"]
        } catch {
            return ["\(label): could not push to the team cache: \(error.message) (the install is fine)"]
        }
    }

    /// The team cache's key for building `item` here, or nil: no cache, not a build, or a key
    /// that cannot be known (said in `notes`).
    func cacheKey(_ item: Item, backend: any Backend, destination: String, notes: inout [String]) async -> CacheKey? {
        guard let cache else { return nil }
        do {
            guard let inputs = try await backend.buildInputs(item.request, item.locked, destination: destination, built: nil) else { return nil }
            return CacheKey(tool: item.locked.name, inputs: inputs, platform: cache.platform)
        } catch {
            notes.append("\(item.locked.name) \(item.locked.version): the team cache is not used: \(error.message)")
            return nil
        }
    }

    /// The install already in place when it is the one `item` describes, with what its record
    /// can teach the lock (a checksum this lock has not recorded yet). An install made from
    /// another entry (a fork's tag of the same version, other options) is not reused: the
    /// caller builds this one in its place.
    func reuse(_ item: Item) -> Done? {
        guard let record = store.installs(item.locked.name, item.locked.version).first(where: { item.locked.isSameInstall(as: $0.record) })?.record else { return nil }
        // Made before tack.yml named the publisher's key: installed again, its signature checked.
        if let key = item.request.options.signingKey, key.wasNotChecked(record, platform: .current) { return nil }
        return Done(status: .alreadyInstalled, lockFields: Installer.learned(item.locked, from: record))
    }

    /// The identity fields `record` has and `locked` lacks, merged into what `locked` has.
    static func learned(_ locked: LockedTool, from record: LockedTool) -> [String: LockValue] {
        var out: [String: LockValue] = [:]
        for key in LockedTool.identityValues where locked.fields[key] == nil {
            if let value = record.fields[key] { out[key] = value }
        }
        // The identity maps, and what says where each platform's archive is (a toolchain's
        // `archive` and `path`), which `tack lock --verify` needs beside its checksum.
        for key in LockedTool.identityMaps + ["archive", "path"] {
            guard case .map(let theirs)? = record.fields[key] else { continue }
            var mine: [String: String] = [:]
            if case .map(let m)? = locked.fields[key] { mine = m }
            let merged = mine.merging(theirs) { a, _ in a }
            if merged != mine { out[key] = .map(merged) }
        }
        return out
    }

}
