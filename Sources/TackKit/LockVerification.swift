import TackCore

extension InstallService {
    /// `tack lock --verify`: each lock's downloads fetched again, for every platform it has a
    /// checksum for, and compared; every problem said. How many downloads were checked, and
    /// how many problems there were.
    public func verifyLocks() async -> (checked: Int, problems: Int) {
        var checked = 0, problems = 0, locks = 0
        let scratch = Paths.join(workspace.store.cache, ".verify-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        defer { try? workspace.settings.fs.remove(scratch) }
        for (lockPath, requests) in workspace.groups {
            guard let lockPath, workspace.settings.fs.info(lockPath) != nil else { continue }
            let lock: Lockfile
            do { lock = try workspace.loadLock(lockPath) } catch {
                context.problem(error)
                problems += 1
                continue
            }
            locks += 1
            for request in requests {
                guard let entry = lock.tools[request.name], let backend = try? workspace.registry.backend(for: request) else { continue }
                let result: (checked: Int, problems: [String])
                if options.offline {
                    guard let kept = await backend.verifyLockOffline(entry, for: request, cache: workspace.store.cache) else {
                        context.notify(.line("\(request.name) \(entry.version): not checked offline (a \(backend.name) tool's downloads are checked only with the network)"))
                        continue
                    }
                    result = kept
                } else {
                    result = await backend.verifyLock(entry, for: request, scratch: scratch, jobs: options.jobs)
                }
                checked += result.checked
                for p in result.problems { context.notify(.problem(TackError(p))) }
                problems += result.problems.count
            }
        }
        if locks == 0 {
            context.notify(.problem(TackError("there is no tack.lock here to verify — run `tack lock` first")))
            return (checked, 1)
        }
        if problems == 0 {
            context.notify(.line(options.offline ? "verified \(checked) download\(checked == 1 ? "" : "s") from the download cache, with no network: each matches tack.lock"
                                                 : "verified \(checked) download\(checked == 1 ? "" : "s"): each matches tack.lock"))
        }
        return (checked, problems)
    }
}
