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
    var jobs = defaultJobs
    /// Versions to install beside what is pinned, locked nowhere (`tack install jq@1.6`).
    var extra: [ToolRequest] = []

    init(project: Project) {
        self.project = project
        frozen = project.settings.isFrozen
        offline = project.settings.isOffline
    }

    /// Returns the exit status; every problem has been printed.
    func run() async -> Int32 {
        var problems = 0
        // With --rebuild: the installs built with another Swift toolchain than the current one.
        var staleBuilds: Set<String> = []
        if rebuild {
            guard let toolchain = await Toolchain.current(project.settings) else {
                Output.error("--rebuild needs a Swift toolchain, and `swift --version` did not run — put Swift on PATH")
                return 1
            }
            staleBuilds = Set(project.store.staleBuilds(toolchain: toolchain).map { "\($0.name)@\($0.version.text)" })
        }
        // Code a project file chose (a `build:` command, an asdf plugin) runs only from a
        // trusted file: refused before anything is fetched or written.
        let policy = TrustPolicy(settings: project.settings)
        for pin in project.resolution.pins where LockPlanner.isLockable(pin.request) {
            if let refusal = policy.codeRefusal(pin.request, file: pin.overridden?.origin ?? pin.request.origin) {
                Output.error(refusal)
                problems += 1
            }
        }
        if problems > 0 { return 1 }
        var items: [Installer.Item] = []
        // Which lock each tool's entry lives in, and that lock as planned.
        var lockOf: [String: String] = [:]
        var plannedLocks: [String: Lockfile] = [:]
        for (lockPath, requests) in project.groups {
            var lock = Lockfile()
            if let lockPath {
                do { lock = try project.loadLock(lockPath) } catch {
                    Output.error(error.message)
                    problems += 1
                    continue
                }
            }
            var resolved: Lockfile
            if frozen, let lockPath {
                let diffs = LockPlanner.differences(requests, lock, registry: project.registry, lockPath: lockPath, home: project.home)
                if !diffs.isEmpty {
                    let where_ = Paths.abbreviate(lockPath, home: project.home)
                    Output.error("\(where_) does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it — nothing was installed:\n" + diffs.map { "  - \($0)" }.joined(separator: "\n") + "\nrun `tack lock` and commit tack.lock")
                    problems += 1
                    continue
                }
                resolved = lock
            } else {
                let (planned, changes, failures) = await project.planner.plan(
                    requests, existing: lock, update: update, installed: project.installedProvider(), offline: offline)
                for name in failures.keys.sorted() {
                    Output.error(failures[name]!.message)
                    problems += 1
                }
                resolved = planned
                // `tack lock` records what an install would (a url tool's checksum for this
                // platform), so that `--frozen` can verify it anywhere.
                if !install, failures.isEmpty {
                    let (completed, problems_) = await complete(resolved, requests: requests)
                    resolved = completed
                    problems += problems_
                    if problems_ > 0 { continue }
                }
                // A lock is written only when everything resolved: a failure loses nothing.
                if let lockPath, failures.isEmpty {
                    do {
                        if try project.writeLock(resolved, to: lockPath) {
                            for c in changes { Output.err(describe(c) + "\n") }
                        }
                    } catch {
                        Output.error(error.message)
                        problems += 1
                    }
                }
            }
            if let lockPath { plannedLocks[lockPath] = resolved }
            for request in requests where only == nil || only!.contains(request.name) {
                if let lockPath { lockOf[request.name] = lockPath }
                if let entry = resolved.tools[request.name] {
                    items.append(.init(request: request, locked: entry, rebuild: staleBuilds.contains("\(entry.name)@\(entry.version.text)")))
                }
            }
        }
        if !extra.isEmpty {
            for request in extra {
                if let refusal = policy.codeRefusal(request, file: request.origin) {
                    Output.error(refusal)
                    return 1
                }
            }
            let (planned, _, failures) = await project.planner.plan(
                extra, existing: Lockfile(), update: .none, installed: project.installedProvider(), offline: offline)
            for name in failures.keys.sorted() {
                Output.error(failures[name]!.message)
                problems += 1
            }
            for request in extra {
                if let entry = planned.tools[request.name] { items.append(.init(request: request, locked: entry)) }
            }
        }
        if let root = project.resolution.projectRoot { project.remember(root) }
        guard install, !items.isEmpty else { return problems > 0 ? 1 : 0 }

        let reporter = ProgressReporter(settings: project.settings)
        func installAll(_ items: [Installer.Item], registry: BackendRegistry) async -> [String: Result<Installer.Done, TackError>] {
            var installer = Installer(store: project.store, registry: registry)
            installer.offline = offline
            installer.frozen = frozen
            return await installer.install(items, jobs: jobs) { reporter.handle($0) }
        }
        // pip and gem tools run an interpreter that may itself be pinned here (a python, a
        // ruby): those go first, then the pip and gem tools, with what was just installed on PATH.
        let interpreted = items.filter { ["pip", "gem"].contains($0.request.source.backend) }
        var results: [String: Result<Installer.Done, TackError>]
        if interpreted.isEmpty || interpreted.count == items.count {
            results = await installAll(items, registry: project.registry)
        } else {
            results = await installAll(items.filter { !["pip", "gem"].contains($0.request.source.backend) }, registry: project.registry)
            let fresh = await installAll(interpreted, registry: project.registryWithPinnedInterpreters())
            results.merge(fresh) { $1 }
        }
        // What installs taught the lock (a checksum first seen on this platform).
        var learned: Set<String> = []
        for name in results.keys.sorted() {
            guard case .success(let done) = results[name]!, let path = lockOf[name], var lock = plannedLocks[path] else { continue }
            for note in done.notes { Output.err(note + "\n") }
            guard !frozen, var entry = lock.tools[name] else { continue }
            for (k, v) in done.lockFields { entry.fields[k] = v }
            if entry != lock.tools[name] {
                lock.tools[name] = entry
                plannedLocks[path] = lock
                learned.insert(path)
            }
        }
        for path in learned.sorted() {
            do { try project.writeLock(plannedLocks[path]!, to: path) } catch {
                Output.error(error.message)
                problems += 1
            }
        }
        let installed = results.values.filter { (try? $0.get())?.status == .installed }.count
        if installed > 0 { reshim(project) }
        let failed = results.filter { if case .failure = $0.value { return true } else { return false } }
        for name in failed.keys.sorted() {
            if case .failure(let e) = failed[name]! { Output.error(e.message) }
        }
        let already = results.count - installed - failed.count
        var summary = "\(installed) installed"
        if already > 0 { summary += ", \(already) already installed" }
        if !failed.isEmpty { summary += ", \(failed.count) failed" }
        if installed > 0 || !failed.isEmpty { Output.err(summary + "\n") }
        return problems > 0 || !failed.isEmpty ? 1 : 0
    }

    /// Each entry with what its backend adds without installing; returns the problems said.
    func complete(_ lock: Lockfile, requests: [ToolRequest]) async -> (Lockfile, Int) {
        var out = lock
        var problems = 0
        for request in requests {
            guard let entry = lock.tools[request.name], let backend = try? project.registry.backend(for: request) else { continue }
            do {
                let fields = try await backend.completeLock(entry, for: request, cache: project.store.cache)
                for (k, v) in fields { out.tools[request.name]?.fields[k] = v }
            } catch {
                Output.error(error.message)
                problems += 1
            }
        }
        return (out, problems)
    }

    func describe(_ c: LockPlanner.Change) -> String {
        describeChange(c)
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
