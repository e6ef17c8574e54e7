import TackCore

/// Locking and installing, for `install`, `use`, `lock` and `update`: each lock planned (or
/// checked, under --frozen) and written, then the installs made in rounds, what they taught
/// the locks recorded, and the shims rebuilt. It says what happens through the context's
/// notices and returns the counts.
public struct InstallService: Sendable {
    public let workspace: Workspace
    public var options: InstallOptions

    var context: Context { workspace.context }

    public init(_ workspace: Workspace, options: InstallOptions? = nil) {
        self.workspace = workspace
        self.options = options ?? InstallOptions(workspace.context)
    }

    /// What locking decided: the installs to make, and the lock each tool's entry lives in.
    struct Plan {
        var items: [Installer.Item] = []
        var lockOf: [String: String] = [:]
        var locks: [String: Lockfile] = [:]
        var problems = 0
        /// Tools that could not be resolved (said already): each gets its "failed" line and
        /// is counted in the summary with the installs that failed.
        var unresolved: [String] = []
        /// Locks that could not be written (said already).
        var unwritable: Set<String> = []
        /// Locks an install changes, written once the installs have shown what exists: each
        /// with the lock as it was and the changes to say.
        var pending: [String: (old: Lockfile, changes: [LockPlanner.Change])] = [:]
    }

    public func run() async -> InstallReport {
        var report = InstallReport()
        guard let stale = await staleBuilds(), refuseUntrustedCode() else {
            report.problems = 1
            return report
        }
        var plan = await lockGroups(rebuilding: stale)
        await planExtra(&plan)
        guard checkCopy(plan.items) else {
            report.problems = plan.problems + 1
            return report
        }
        if let root = workspace.resolution.projectRoot { workspace.remember(root) }
        report.problems = plan.problems
        guard options.install, !plan.items.isEmpty || !plan.unresolved.isEmpty else {
            report.problems += writePending([:], &plan)
            return report
        }
        let started = ContinuousClock.now
        let results = await installItems(plan.items)
        let took = Installer.seconds(since: started)
        report.problems += writePending(results, &plan)
        report.problems += recordLearned(results, plan)
        report.summary = summarize(results, unresolved: plan.unresolved, wallSeconds: took)
        return report
    }

    /// With --rebuild: `tool@version` of the installs built with another Swift toolchain than
    /// the current one; nil (said) when there is no toolchain to compare with.
    func staleBuilds() async -> Set<String>? {
        guard options.rebuild else { return [] }
        guard let toolchain = await SwiftOnPath.version(workspace.settings, runner: context.runner) else {
            context.notify(.problem(TackError("--rebuild needs a Swift toolchain, and `swift --version` did not run — put Swift on PATH")))
            return nil
        }
        return Set(workspace.store.staleBuilds(toolchain: toolchain).map { "\($0.name)@\($0.version.text)" })
    }

    /// Code a project file chose (a `build:` command, an asdf plugin) runs only from a trusted
    /// file: refused (said) before anything is fetched or written. True when nothing is.
    func refuseUntrustedCode() -> Bool {
        let policy = TrustPolicy(settings: workspace.settings)
        var refusals: [TrustRefusal] = []
        for pin in workspace.resolution.pins where pin.request.isLockable && (options.only?.contains(pin.request.name) ?? true) {
            if let refusal = policy.codeRefusal(pin.request, file: pin.overridden?.origin ?? pin.request.origin) { refusals.append(refusal) }
        }
        for request in options.extra {
            if let refusal = policy.codeRefusal(request, file: request.origin) { refusals.append(refusal) }
        }
        for r in refusals { context.notify(.problem(TackError(r, home: workspace.home))) }
        return refusals.isEmpty
    }

    /// Each lock: checked (--frozen) or planned and written, and the installs it asks for.
    func lockGroups(rebuilding stale: Set<String>) async -> Plan {
        var plan = Plan()
        for (lockPath, requests) in workspace.groups {
            // A lock none of whose tools this command is about is neither read nor written
            // (`tack install jq@1.7.1` pins and locks nothing).
            if let only = options.only, !requests.contains(where: { only.contains($0.name) }) { continue }
            var lock = Lockfile()
            if let lockPath {
                do { lock = try workspace.loadLock(lockPath) } catch {
                    context.problem(error)
                    plan.problems += 1
                    continue
                }
            }
            guard let resolved = await resolve(requests, lock, lockPath, &plan) else { continue }
            if let lockPath { plan.locks[lockPath] = resolved }
            for request in requests where options.only?.contains(request.name) ?? true {
                if let lockPath, !plan.unwritable.contains(lockPath) { plan.lockOf[request.name] = lockPath }
                if let entry = resolved.tools[request.name] {
                    plan.items.append(.init(request: request, locked: entry, rebuild: stale.contains("\(entry.name)@\(entry.version.text)")))
                }
            }
        }
        return plan
    }

    /// One lock as it should be: the one on disk under --frozen (nil, said, when it does not
    /// match what is pinned), else planned, completed for `tack lock`, and written when
    /// everything resolved (a failure loses nothing).
    func resolve(_ requests: [ToolRequest], _ lock: Lockfile, _ lockPath: String?, _ plan: inout Plan) async -> Lockfile? {
        let hidden = lockPath.flatMap { workspace.hidden[$0] } ?? []
        if options.frozen, let lockPath {
            guard let problem = frozenProblem(requests, lock, lockPath) else { return lock }
            context.notify(.problem(problem))
            plan.problems += 1
            return nil
        }
        var (planned, changes, failed) = await planLock(requests, lock, lockPath: lockPath, &plan)
        // What an override hides stays as the lock has it.
        for request in hidden {
            planned.tools[request.name] = lock.tools[request.name]
            changes.removeAll { $0.tool == request.name }
        }
        // `tack lock` records what an install would (a url tool's checksum), for this platform
        // and every other one the lock covers, so that `--frozen` can verify it on each; an
        // install learns this platform's as it downloads. An entry locked anew is completed
        // whatever the platforms: its choices (a git tool's prebuilt bundle) are the lock's.
        let covered = lockPlatforms(lock, lockPath)
        planned.platforms = covered.count > 1 || !lock.platforms.isEmpty ? covered.map(\.description).sorted() : []
        if !options.install { planned = learnedFromInstalls(planned) }
        let toComplete = options.install ? covered.filter { $0 != Platform.current } : covered
        if !failed, !options.offline, !toComplete.isEmpty || !changes.isEmpty {
            let (completed, incomplete) = await complete(planned, requests: requests, platforms: toComplete)
            plan.problems += incomplete
            if incomplete > 0 { return nil }
            planned = completed
        }
        // An install writes what it changed only after installing it (`writePending`): a
        // version that does not exist, or a download that is not there, is never locked.
        if let lockPath, !failed, options.install, !changes.isEmpty {
            plan.pending[lockPath] = (lock, changes)
            return planned
        }
        if let lockPath, !failed {
            do {
                if try workspace.writeLock(planned, to: lockPath) {
                    for c in changes { context.notify(.lockChanged(c)) }
                }
            } catch {
                // Said once: what the installs learn is not written to it again.
                context.problem(error)
                plan.problems += 1
                plan.unwritable.insert(lockPath)
            }
        }
        return planned
    }

    /// The locks an install changed, written now that the installs are done: an entry whose
    /// install failed goes back to what the lock said (nothing that did not install is
    /// locked anew); returns the problems said.
    func writePending(_ results: [String: Result<Installer.Done, TackError>], _ plan: inout Plan) -> Int {
        var problems = 0
        for (path, pending) in plan.pending.sorted(by: { $0.key < $1.key }) {
            guard var lock = plan.locks[path] else { continue }
            var said = pending.changes
            for change in pending.changes {
                guard case .failure? = results[change.tool] else { continue }
                lock.tools[change.tool] = pending.old.tools[change.tool]
                said.removeAll { $0.tool == change.tool }
            }
            // What the installs learned goes in with it, so the lock is written once
            // (`recordLearned` then finds nothing more to write here).
            for (name, result) in results where plan.lockOf[name] == path && !options.frozen {
                guard case .success(let done) = result, var entry = lock.tools[name] else { continue }
                for (k, v) in done.lockFields { entry.fields[k] = v }
                lock.tools[name] = entry
            }
            plan.locks[path] = lock
            // Nothing installed that changes it: the lock stays as it was (or absent).
            if said.isEmpty && lock.tools == pending.old.tools { continue }
            do {
                if try workspace.writeLock(lock, to: path) { for c in said { context.notify(.lockChanged(c)) } }
            } catch {
                context.problem(error)
                problems += 1
                for name in plan.lockOf.keys where plan.lockOf[name] == path { plan.lockOf[name] = nil }
            }
        }
        plan.pending = [:]
        return problems
    }

    /// Under --frozen, why `lock` cannot be installed from as it is (nil when it can).
    /// The lock is checked against its file pins, those an override hides included.
    func frozenProblem(_ requests: [ToolRequest], _ lock: Lockfile, _ lockPath: String) -> TackError? {
        if let missing = lock.uncovered() { return TackError(missing) }
        let diffs = LockPlanner.differences(requests + (workspace.hidden[lockPath] ?? []), lock, registry: workspace.registry, home: workspace.home)
        guard !diffs.isEmpty else { return nil }
        return TackError(.lockDiffers(lock: Paths.abbreviate(lockPath, home: workspace.home), differences: diffs))
    }

    /// The frozen rule, for every command that honours --frozen (install, exec): why each
    /// lock here cannot be used as it is; empty when every one can.
    public func frozenProblems() -> [TackError] {
        var out: [TackError] = []
        for (lockPath, requests) in workspace.groups {
            guard let lockPath else { continue }
            do {
                let lock = try workspace.loadLock(lockPath)
                if let problem = frozenProblem(requests, lock, lockPath) { out.append(problem) }
            } catch {
                out.append(error)
            }
        }
        return out
    }

    /// The lock planned for `requests` (with `only`, just those tools: the others keep what
    /// the lock says, and nothing lists their versions); failures said and counted.
    func planLock(_ requests: [ToolRequest], _ lock: Lockfile, lockPath: String?, _ plan: inout Plan) async -> (Lockfile, [LockPlanner.Change], failed: Bool) {
        let only = options.only
        let wanted = only.map { o in requests.filter { o.contains($0.name) } } ?? requests
        // A pin no lock records means the newest install it allows, as `tack current` reads it.
        var (planned, changes, failures) = await workspace.planner.plan(
            wanted, existing: lock, update: options.update, installed: workspace.installedProvider(), offline: options.offline,
            preferInstalled: lockPath == nil)
        if only != nil {
            let names = Set(wanted.map(\.name))
            for request in requests where !names.contains(request.name) {
                if let kept = lock.tools[request.name] { planned.tools[request.name] = kept }
            }
            changes = changes.filter { names.contains($0.tool) }
        }
        for (name, failure) in failures.sorted(by: { $0.key < $1.key }) {
            context.problem(failure)
            plan.problems += 1
            if only?.contains(name) ?? true { plan.unresolved.append(name) }
        }
        return (planned, changes, !failures.isEmpty)
    }

    /// Versions named on the command line (`tack install jq@1.6`): planned, locked nowhere.
    func planExtra(_ plan: inout Plan) async {
        guard !options.extra.isEmpty else { return }
        let (planned, _, failures) = await workspace.planner.plan(
            options.extra, existing: Lockfile(), update: .none, installed: workspace.installedProvider(), offline: options.offline)
        for (name, failure) in failures.sorted(by: { $0.key < $1.key }) {
            context.problem(failure)
            plan.problems += 1
            plan.unresolved.append(name)
        }
        for request in options.extra {
            if let entry = planned.tools[request.name] { plan.items.append(.init(request: request, locked: entry)) }
        }
    }

    /// The platforms a lock covers: those it already covers, those tack.yml beside it lists,
    /// those given with --platform, and this one.
    func lockPlatforms(_ lock: Lockfile, _ lockPath: String?) -> [Platform] {
        var out = lock.platforms.compactMap { Platform(key: $0) }
        if let lockPath {
            let manifestPath = Paths.join(Paths.dirname(lockPath), "tack.yml")
            out += workspace.resolution.manifests.first { $0.path == manifestPath }?.platforms ?? []
        }
        out += options.platforms + [Platform.current]
        var seen = Set<Platform>()
        return out.filter { seen.insert($0).inserted }
    }


    /// `tack lock` where a tool is installed already from the very entry: what its install
    /// learned (a toolchain's checksum and signer, a pip tool's hashes) goes into the entry
    /// where it lacks it, as that install would have written it.
    func learnedFromInstalls(_ lock: Lockfile) -> Lockfile {
        var out = lock
        for (name, entry) in lock.tools {
            guard let record = workspace.store.installs(name, entry.version).first(where: { entry.isSameInstall(as: $0.record) })?.record else { continue }
            for (k, v) in record.fields where entry.fields[k] == nil && !["binaries", "built", CacheKey.lockField].contains(k) {
                out.tools[name]?.fields[k] = v
            }
        }
        return out
    }

    /// Each entry with what its backend adds without installing; returns the problems said.
    func complete(_ lock: Lockfile, requests: [ToolRequest], platforms: [Platform]) async -> (Lockfile, Int) {
        var out = lock
        var problems = 0
        for request in requests {
            guard let entry = lock.tools[request.name], let backend = try? workspace.registry.backend(for: request) else { continue }
            do {
                let fields = try await backend.completeLock(entry, for: request, cache: workspace.store.cache, platforms: platforms, jobs: options.jobs)
                for (k, v) in fields { out.tools[request.name]?.fields[k] = v }
            } catch {
                context.problem(error)
                problems += 1
            }
        }
        return (out, problems)
    }
}
