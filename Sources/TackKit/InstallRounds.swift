import TackCore

extension InstallService {
    /// The round an install goes in (`BackendKind.installRound`).
    static func round(_ item: Installer.Item) -> Int { item.request.source.kind?.installRound ?? 0 }

    /// Installs in parallel, in rounds (`round(_:)`), with progress as notices.
    func installItems(_ items: [Installer.Item]) async -> [String: Result<Installer.Done, TackError>] {
        let builds = items.contains { $0.request.source.kind?.builds == true }
        let cache = options.noCache || options.offline || !builds ? nil : TeamCacheConnection.open(workspace)
        let policy = TrustPolicy(settings: workspace.settings)
        let items = items.map { item in
            var item = item
            let overridden = workspace.resolution.pin(item.request.name)?.overridden
            item.shareable = TeamCacheConnection.isShareable(item.request, overridden: overridden, policy: policy)
            return item
        }
        var results: [String: Result<Installer.Done, TackError>] = [:]
        for r in 0...2 {
            var batch = items.filter { Self.round($0) == r }
            guard !batch.isEmpty else { continue }
            batch = await rebuildingForPinnedSwift(batch)
            var installer = Installer(store: workspace.store, registry: r == 0 ? workspace.registry : workspace.registryWithPinnedInterpreters())
            installer.offline = options.offline
            installer.frozen = options.frozen
            installer.build = options.build
            installer.cache = cache
            let notify = context.notify
            let fresh = await installer.install(batch, jobs: options.jobs) { notify(.progress($0)) }
            results.merge(fresh) { $1 }
        }
        return results
    }

    /// Where the project pins swift, git builds are made with that toolchain: an install
    /// built with another (its record's `built.swift`) is built again.
    func rebuildingForPinnedSwift(_ items: [Installer.Item]) async -> [Installer.Item] {
        guard workspace.resolution.swiftToolchain != nil, items.contains(where: { $0.request.source.kind?.buildsWithSwift($0.request) == true }) else { return items }
        var settings = workspace.settings
        settings.environment = BackendFactory.environment(settings, pathPrefix: BackendFactory.pinnedBinDirectories(workspace.resolution, settings))
        guard let toolchain = await SwiftOnPath.version(settings, runner: context.runner) else { return items }
        return items.map { item in
            var item = item
            guard item.request.source.kind?.buildsWithSwift(item.request) == true,
                  let record = workspace.store.installedEntry(item.locked.name, item.locked.version),
                  let swift = record.builtWithSwift, swift != toolchain else { return item }
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
            for note in done.notes { context.notify(.line(note)) }
            let label = plan.items.first { $0.request.name == name }.map { "\(name) \($0.locked.version)" } ?? name
            guard !options.frozen, let path = plan.lockOf[name], var lock = locks[path], var entry = lock.tools[name] else {
                // Nothing records it: say what was seen, not that it was recorded.
                for l in done.learned { context.notify(.learned(label: label, l, recorded: false, frozen: options.frozen)) }
                continue
            }
            for l in done.learned { context.notify(.learned(label: label, l, recorded: true, frozen: false)) }
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
            do { try workspace.writeLock(lock, to: path) } catch {
                context.problem(error)
                problems += 1
            }
        }
        return problems
    }

    /// Shims for what was installed, each failure's error (once), and the summary.
    func summarize(_ results: [String: Result<Installer.Done, TackError>], unresolved: [String], wallSeconds: Double? = nil) -> InstallSummary {
        var summary = InstallSummary()
        summary.wallSeconds = wallSeconds
        summary.installed = results.values.filter { (try? $0.get())?.status == .installed }.count
        if summary.installed > 0 { workspace.reshim() }
        // What could not even be resolved (its error was said): a line each, and counted.
        for name in unresolved.sorted() { context.notify(.unresolved(name)) }
        var installFailures = 0
        for name in results.keys.sorted() {
            if case .failure(let e)? = results[name] {
                context.problem(e)
                installFailures += 1
            }
        }
        summary.failed = unresolved.count + installFailures
        summary.already = results.count - summary.installed - installFailures
        summary.pulled = results.values.filter { (try? $0.get())?.pulled == true }.count
        for (name, result) in results.sorted(by: { $0.key < $1.key }) { summary.add((try? result.get())?.origin, tool: name) }
        context.notify(.summary(summary))
        return summary
    }
}
