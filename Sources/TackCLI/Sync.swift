import ArgumentParser
import TackCore
import TackFront

/// Locking and installing, shared by `install`, `use`, `lock` and `update`.
struct Sync {
    let project: Project
    var frozen = false
    var offline = false
    var update: LockPlanner.Update = .none
    /// Install only these tools (all pinned tools when nil).
    var only: Set<String>?
    var install = true
    var rebuild = false
    /// `--no-cache`: build here, without the team cache.
    var noCache = false
    var jobs = defaultJobs
    /// Versions to install beside what is pinned, locked nowhere (`tack install jq@1.6`).
    var extra: [ToolRequest] = []
    /// `--platform`: platforms the lock covers besides those tack.yml lists and this one.
    var platforms: [Platform] = []

    init(project: Project) {
        self.project = project
        frozen = project.settings.isFrozen
        offline = project.settings.isOffline
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
    }

    /// Returns the exit status; every problem has been printed.
    func run() async -> Int32 {
        guard let stale = await staleBuilds(), refuseUntrustedCode() else { return 1 }
        var plan = await lockGroups(rebuilding: stale)
        await planExtra(&plan)
        if let root = project.resolution.projectRoot { project.remember(root) }
        guard install, !plan.items.isEmpty || !plan.unresolved.isEmpty else { return plan.problems > 0 ? 1 : 0 }

        let results = await installItems(plan.items)
        let learnedProblems = recordLearned(results, plan)
        let failed = report(results, unresolved: plan.unresolved)
        return plan.problems + learnedProblems > 0 || failed > 0 ? 1 : 0
    }

    /// With --rebuild: `tool@version` of the installs built with another Swift toolchain than
    /// the current one; nil (said) when there is no toolchain to compare with.
    func staleBuilds() async -> Set<String>? {
        guard rebuild else { return [] }
        guard let toolchain = await Toolchain.current(project.settings) else {
            Output.error("--rebuild needs a Swift toolchain, and `swift --version` did not run — put Swift on PATH")
            return nil
        }
        return Set(project.store.staleBuilds(toolchain: toolchain).map { "\($0.name)@\($0.version.text)" })
    }

    /// Code a project file chose (a `build:` command, an asdf plugin) runs only from a trusted
    /// file: refused (said) before anything is fetched or written. True when nothing is.
    func refuseUntrustedCode() -> Bool {
        let policy = TrustPolicy(settings: project.settings)
        var refused = false
        for pin in project.resolution.pins where LockPlanner.isLockable(pin.request) && (only?.contains(pin.request.name) ?? true) {
            if let refusal = policy.codeRefusal(pin.request, file: pin.overridden?.origin ?? pin.request.origin) {
                Output.error(refusal)
                refused = true
            }
        }
        for request in extra {
            if let refusal = policy.codeRefusal(request, file: request.origin) {
                Output.error(refusal)
                refused = true
            }
        }
        return !refused
    }

    /// Each lock: checked (--frozen) or planned and written, and the installs it asks for.
    func lockGroups(rebuilding stale: Set<String>) async -> Plan {
        var plan = Plan()
        for (lockPath, requests) in project.groups {
            // A lock none of whose tools this command is about is neither read nor written
            // (`tack install jq@1.7.1` pins and locks nothing).
            if let only, !requests.contains(where: { only.contains($0.name) }) { continue }
            var lock = Lockfile()
            if let lockPath {
                do { lock = try project.loadLock(lockPath) } catch {
                    Output.error(error.message)
                    plan.problems += 1
                    continue
                }
            }
            guard let resolved = await resolve(requests, lock, lockPath, &plan.problems, &plan.unresolved) else { continue }
            if let lockPath { plan.locks[lockPath] = resolved }
            for request in requests where only?.contains(request.name) ?? true {
                if let lockPath { plan.lockOf[request.name] = lockPath }
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
    func resolve(_ requests: [ToolRequest], _ lock: Lockfile, _ lockPath: String?, _ problems: inout Int, _ unresolved: inout [String]) async -> Lockfile? {
        if frozen, let lockPath {
            if let missing = uncovered(lock) {
                Output.error(missing)
                problems += 1
                return nil
            }
            let diffs = LockPlanner.differences(requests, lock, registry: project.registry, lockPath: lockPath, home: project.home)
            guard diffs.isEmpty else {
                let where_ = Paths.abbreviate(lockPath, home: project.home)
                Output.error("\(where_) does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it — nothing was installed:\n" + diffs.map { "  - \($0)" }.joined(separator: "\n") + "\nrun `tack lock` and commit tack.lock")
                problems += 1
                return nil
            }
            return lock
        }
        // With `only` (`tack exec` installing what provides its command, `tack use X`, `tack
        // install X`), only those tools are resolved: the others keep what the lock says, and
        // nothing lists their versions.
        let wanted = only.map { o in requests.filter { o.contains($0.name) } } ?? requests
        var (planned, changes, failures) = await project.planner.plan(
            wanted, existing: lock, update: update, installed: project.installedProvider(), offline: offline)
        if only != nil {
            let names = Set(wanted.map(\.name))
            for request in requests where !names.contains(request.name) {
                if let kept = lock.tools[request.name] { planned.tools[request.name] = kept }
            }
            changes = changes.filter { names.contains($0.tool) }
        }
        for (name, failure) in failures.sorted(by: { $0.key < $1.key }) {
            Output.error(failure.message)
            problems += 1
            if only?.contains(name) ?? true { unresolved.append(name) }
        }
        var resolved = planned
        // `tack lock` records what an install would (a url tool's checksum), for this platform
        // and every other one the lock covers, so that `--frozen` can verify it on each; an
        // install learns this platform's as it downloads.
        let covered = lockPlatforms(lock, lockPath)
        resolved.platforms = covered.count > 1 || !lock.platforms.isEmpty ? covered.map(\.description).sorted() : []
        let toComplete = install ? covered.filter { $0 != Platform.current } : covered
        if failures.isEmpty, !offline, !toComplete.isEmpty {
            let (completed, incomplete) = await complete(resolved, requests: requests, platforms: toComplete)
            problems += incomplete
            if incomplete > 0 { return nil }
            resolved = completed
        }
        if let lockPath, failures.isEmpty {
            do {
                if try project.writeLock(resolved, to: lockPath) {
                    for c in changes { Output.err(describeChange(c) + "\n") }
                }
            } catch {
                Output.error(error.message)
                problems += 1
            }
        }
        return resolved
    }

    /// Versions named on the command line (`tack install jq@1.6`): planned, locked nowhere.
    func planExtra(_ plan: inout Plan) async {
        guard !extra.isEmpty else { return }
        let (planned, _, failures) = await project.planner.plan(
            extra, existing: Lockfile(), update: .none, installed: project.installedProvider(), offline: offline)
        for (name, failure) in failures.sorted(by: { $0.key < $1.key }) {
            Output.error(failure.message)
            plan.problems += 1
            plan.unresolved.append(name)
        }
        for request in extra {
            if let entry = planned.tools[request.name] { plan.items.append(.init(request: request, locked: entry)) }
        }
    }

    /// Installs in parallel with progress. pip and gem tools run an interpreter that may
    /// itself be pinned here (a python, a ruby), and git builds the pinned Swift toolchain:
    /// those go after the others, with what was just installed on PATH.
    func installItems(_ items: [Installer.Item]) async -> [String: Result<Installer.Done, TackError>] {
        let reporter = ProgressReporter(settings: project.settings)
        let builds = items.contains { ["git", "asdf"].contains($0.request.source.backend) }
        let cache = noCache || offline || !builds ? nil : TeamCacheConnection.open(project)
        let policy = TrustPolicy(settings: project.settings)
        let items = items.map { item in
            var item = item
            item.shareable = TeamCacheConnection.isShareable(item.request, overridden: project.resolution.pin(item.request.name)?.overridden, policy: policy)
            return item
        }
        func installAll(_ items: [Installer.Item], registry: BackendRegistry) async -> [String: Result<Installer.Done, TackError>] {
            var installer = Installer(store: project.store, registry: registry)
            installer.offline = offline
            installer.frozen = frozen
            installer.cache = cache
            return await installer.install(items, jobs: jobs) { reporter.handle($0) }
        }
        // Three rounds, each with what the earlier ones installed on PATH: downloads (a
        // pinned swift among them), then git builds (with that swift), then pip and gem tools
        // (with a pinned python or ruby, which may itself be a build).
        let round = { (item: Installer.Item) -> Int in
            switch item.request.source.backend {
            case "git": return 1
            case "pip", "gem": return 2
            default: return 0
            }
        }
        var results: [String: Result<Installer.Done, TackError>] = [:]
        for r in 0...2 {
            var batch = items.filter { round($0) == r }
            guard !batch.isEmpty else { continue }
            if r == 1 { batch = await rebuildingForPinnedSwift(batch) }
            let fresh = await installAll(batch, registry: r == 0 ? project.registry : project.registryWithPinnedInterpreters())
            results.merge(fresh) { $1 }
        }
        return results
    }

    /// Where the project pins swift, git builds are made with that toolchain: an install
    /// built with another (its record's `built.swift`) is built again.
    func rebuildingForPinnedSwift(_ items: [Installer.Item]) async -> [Installer.Item] {
        guard project.resolution.swiftToolchain != nil, items.contains(where: { $0.request.source.backend == "git" }) else { return items }
        var settings = project.settings
        settings.environment = Project.environment(settings, pathPrefix: Project.pinnedBinDirectories(project.resolution, settings))
        guard let toolchain = await Toolchain.current(settings) else { return items }
        return items.map { item in
            var item = item
            guard item.request.source.backend == "git", item.request.options.build == nil,
                  let record = project.store.installedEntry(item.locked.name, item.locked.version),
                  case .map(let built)? = record.fields["built"], let swift = built["swift"], swift != toolchain else { return item }
            item.rebuild = true
            return item
        }
    }

    /// What installs taught the locks (a checksum first seen on this platform), written;
    /// returns the problems said.
    func recordLearned(_ results: [String: Result<Installer.Done, TackError>], _ plan: Plan) -> Int {
        var locks = plan.locks
        var learned: Set<String> = []
        for name in results.keys.sorted() {
            guard case .success(let done)? = results[name] else { continue }
            for note in done.notes { Output.err(note + "\n") }
            let label = plan.items.first { $0.request.name == name }.map { "\(name) \($0.locked.version)" } ?? name
            guard !frozen, let path = plan.lockOf[name], var lock = locks[path], var entry = lock.tools[name] else {
                // Nothing records it: say what was seen, not that it was recorded.
                for l in done.learned { Output.err("\(label): \(l.what) is \(l.value) (no tack.lock records it\(frozen ? ": --frozen writes none" : ""))\n") }
                continue
            }
            for l in done.learned { Output.err("\(label): recorded \(l.what) in tack.lock: \(l.value)\n") }
            for (k, v) in done.lockFields { entry.fields[k] = v }
            if entry != lock.tools[name] {
                lock.tools[name] = entry
                locks[path] = lock
                learned.insert(path)
            }
        }
        var problems = 0
        for path in learned.sorted() {
            guard let lock = locks[path] else { continue }
            do { try project.writeLock(lock, to: path) } catch {
                Output.error(error.message)
                problems += 1
            }
        }
        return problems
    }

    /// Shims for what was installed, each failure's error (once), and the summary line;
    /// returns how many failed.
    func report(_ results: [String: Result<Installer.Done, TackError>], unresolved: [String] = []) -> Int {
        let installed = results.values.filter { (try? $0.get())?.status == .installed }.count
        if installed > 0 { reshim(project) }
        // What could not even be resolved (its error was said): a line each, and counted.
        for name in unresolved.sorted() { Output.err("\(name): failed (not resolved)\n") }
        var installFailures = 0
        for name in results.keys.sorted() {
            if case .failure(let e)? = results[name] {
                Output.error(e.message)
                installFailures += 1
            }
        }
        let failed = unresolved.count + installFailures
        let already = results.count - installed - installFailures
        let pulled = results.values.filter { (try? $0.get())?.pulled == true }.count
        var summary = "\(installed) installed"
        if pulled > 0 { summary += " (\(pulled) from the team cache)" }
        if already > 0 { summary += ", \(already) already installed" }
        if failed > 0 { summary += ", \(failed) failed" }
        if installed > 0 || failed > 0 { Output.err(summary + "\n") }
        return failed
    }

    /// Each entry with what its backend adds without installing; returns the problems said.
    /// The platforms a lock covers: those it already covers, those tack.yml beside it lists,
    /// those given with --platform, and this one.
    func lockPlatforms(_ lock: Lockfile, _ lockPath: String?) -> [Platform] {
        var out = lock.platforms.compactMap { Platform(key: $0) }
        if let lockPath {
            let manifestPath = Paths.join(Paths.dirname(lockPath), "tack.yml")
            out += project.resolution.manifests.first { $0.path == manifestPath }?.platforms ?? []
        }
        out += platforms + [Platform.current]
        var seen = Set<Platform>()
        return out.filter { seen.insert($0).inserted }
    }

    /// Under --frozen, why this platform cannot install from `lock` (nil when it can).
    func uncovered(_ lock: Lockfile) -> String? {
        let here = Platform.current.description
        guard !lock.platforms.isEmpty, !lock.platforms.contains(here) else { return nil }
        return "tack.lock covers \(lock.platforms.joined(separator: ", ")), not \(here), and --frozen installs only what it can verify — run `tack lock --platform \(here)` (on any machine) and commit tack.lock; nothing was installed"
    }

    /// `tack lock --verify`: each lock's downloads fetched again, for every platform it has a
    /// checksum for, and compared. Returns the exit status; every problem has been printed.
    func verifyLocks() async -> Int32 {
        var checked = 0, problems = 0, locks = 0
        let scratch = Paths.join(project.store.cache, ".verify-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        defer { try? project.settings.fs.remove(scratch) }
        for (lockPath, requests) in project.groups {
            guard let lockPath, project.settings.fs.info(lockPath) != nil else { continue }
            let lock: Lockfile
            do { lock = try project.loadLock(lockPath) } catch {
                Output.error(error.message)
                problems += 1
                continue
            }
            locks += 1
            for request in requests {
                guard let entry = lock.tools[request.name], let backend = try? project.registry.backend(for: request) else { continue }
                let result = await backend.verifyLock(entry, for: request, scratch: scratch, jobs: jobs)
                checked += result.checked
                for p in result.problems { Output.error(p) }
                problems += result.problems.count
            }
        }
        if locks == 0 {
            Output.error("there is no tack.lock here to verify — run `tack lock` first")
            return 1
        }
        if problems == 0 { Output.err("verified \(checked) download\(checked == 1 ? "" : "s"): each matches tack.lock\n") }
        return problems == 0 ? 0 : 1
    }

    func complete(_ lock: Lockfile, requests: [ToolRequest], platforms: [Platform]) async -> (Lockfile, Int) {
        var out = lock
        var problems = 0
        for request in requests {
            guard let entry = lock.tools[request.name], let backend = try? project.registry.backend(for: request) else { continue }
            do {
                let fields = try await backend.completeLock(entry, for: request, cache: project.store.cache, platforms: platforms, jobs: jobs)
                for (k, v) in fields { out.tools[request.name]?.fields[k] = v }
            } catch {
                Output.error(error.message)
                problems += 1
            }
        }
        return (out, problems)
    }

}

/// Rebuilds the shims after installs change; a failure is reported, not fatal.
func reshim(_ project: Project) {
    guard let front = Front.launcherPath() else {
        Output.error("cannot find the tack binary to point shims at; run `tack reshim` from an installed tack")
        return
    }
    do { try Shims.rebuild(store: project.store, front: front) } catch { Output.error(error.message) }
}

extension Sync {
    func describeChange(_ c: LockPlanner.Change) -> String {
        switch (c.from, c.to) {
        case (nil, let to?): return "locked \(c.tool) \(to)"
        case (let from?, nil): return "removed \(c.tool) \(from) from tack.lock"
        case (let from?, let to?): return from == to ? "relocked \(c.tool) \(to)" : "updated \(c.tool) \(from) → \(to)"
        default: return ""
        }
    }
}
