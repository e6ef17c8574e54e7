/// Turns pins into lock entries, as Bundler does: an entry that still matches its pin (same
/// requirement text, same source) is kept unless the tool is being updated; anything else is
/// resolved to the newest version the requirement allows.
public struct LockPlanner: Sendable {
    public enum Update: Sendable, Equatable {
        case none
        case all
        case only(Set<String>)
        func includes(_ tool: String) -> Bool {
            switch self {
            case .none: return false
            case .all: return true
            case .only(let s): return s.contains(tool)
            }
        }
    }

    public struct Change: Sendable, Equatable {
        public var tool: String
        public var from: String?
        public var to: String?
    }

    public let registry: BackendRegistry
    /// `min_release_age` in force: versions published more recently than this (at `now`) are
    /// not resolved to, and an exact pin of one is an error.
    public var releaseAge: ReleaseAge?
    /// Seconds since 1970 (the clock is the caller's).
    public var now: Int64 = 0
    /// Where a warning goes (a version index date tack cannot read).
    public var warn: @Sendable (String) -> Void = { _ in }
    public init(registry: BackendRegistry) { self.registry = registry }

    /// A fresh entry for `request`: what the backend found, and the options it was found for.
    public static func entry(_ request: ToolRequest, backend: any Backend, found: AvailableVersion) -> LockedTool {
        var entry = LockedTool(
            name: request.name, version: found.version, requested: request.requirement.description,
            backend: backend.name, source: backend.source(of: request), fields: found.fields)
        entry.options = request.options.lockRecord
        return entry
    }

    /// Resolves one request to a lock entry, without a lock to keep.
    /// With `preferInstalled` (a pin no lock records: a compatible file with no tack.lock, an
    /// override), the newest install from its source the requirement allows answers first, as
    /// `tack current` reads such a pin; resolution only where there is none.
    public func resolve(_ request: ToolRequest, installed: [LockedTool] = [], offline: Bool = false, preferInstalled: Bool = false) async throws(TackError) -> LockedTool {
        let backend = try registry.backend(for: request)
        switch request.requirement {
        case .ref(let ref):
            if offline {
                throw TackError(.offline(tool: request.name, requirement: request.requirement.description, setBy: request.origin.describe(home: nil), needs: .commit))
            }
            return LockPlanner.entry(request, backend: backend, found: try await backend.resolve(ref: ref, of: request))
        case .path, .system:
            throw TackError(.notInstallable(tool: request.name, requirement: request.requirement.description))
        default: break
        }
        if offline || preferInstalled {
            let best = installed.filter {
                request.requirement.matches($0.version) && $0.isFrom(request, backend: backend.name, source: backend.source(of: request))
            }.max(by: { $0.version < $1.version })
            if best == nil && offline {
                throw TackError(.offline(tool: request.name, requirement: request.requirement.description, setBy: request.origin.describe(home: nil), needs: .install))
            }
            if let best {
                // An install's record holds what only the install needs.
                var entry = best.withoutInstallFacts
                entry.requested = request.requirement.description
                return entry
            }
        }
        var available = try await backend.versions(of: request)
        var heldBack: [AvailableVersion] = []
        if let age = releaseAge {
            available = await backend.published(available, of: request)
            (available, heldBack) = try await withoutYoung(available, request: request, backend: backend, age: age)
        }
        guard let best = request.requirement.best(of: available) else {
            if let held = request.requirement.best(of: heldBack), let published = held.published, let age = releaseAge {
                throw TackError(.tooYoung(tool: request.name, version: held.version.text, requirement: request.requirement.description, setBy: request.origin.describe(home: nil), age: ReleaseAge.describe(published, now: now), minimum: age))
            }
            throw LockPlanner.noVersion(request, among: available, at: backend.source(of: request))
        }
        return LockPlanner.entry(request, backend: backend, found: best)
    }

    /// `available` without the versions `age` holds back (and those, apart). An exact pin is
    /// looked up in the whole index (its own listing may carry no date), and one too young is
    /// an error naming its age.
    func withoutYoung(_ listed: [AvailableVersion], request: ToolRequest, backend: any Backend, age: ReleaseAge) async throws(TackError) -> (kept: [AvailableVersion], held: [AvailableVersion]) {
        // A date the index gives but tack cannot read holds the version back, as if it were
        // published now, and is said once: never let through for want of reading it.
        func dated(_ versions: [AvailableVersion], saying: (AvailableVersion) -> Bool) -> [AvailableVersion] {
            versions.map { a in
                guard a.published == nil, let raw = a.unreadableDate else { return a }
                if saying(a) {
                    warn("warning: \(request.name) \(a.version)'s publication date in its version index is \(quoted(raw)), which tack cannot read: it counts as just published, so min_release_age (\(age.text)) holds it back")
                }
                var a = a
                a.published = now
                return a
            }
        }
        if let v = request.requirement.exactVersion {
            let available = dated(listed) { $0.version.text == v.text }
            var published = available.first { $0.version.text == v.text }?.published
            if published == nil, let all = try? await backend.available(of: request) {
                published = dated(await backend.published(all, of: request)) { $0.version.text == v.text }.first { $0.version.text == v.text }?.published
            }
            if let published, age.holdsBack(published, now: now) {
                throw TackError(.tooYoung(tool: request.name, version: v.text, requirement: nil, setBy: request.origin.describe(home: nil), age: ReleaseAge.describe(published, now: now), minimum: age))
            }
            return (available, [])
        }
        let available = dated(listed) { request.requirement.matches($0.version) }
        let held = available.filter { $0.published.map { age.holdsBack($0, now: now) } ?? false }
        return (available.filter { a in !held.contains { $0.version == a.version } }, held)
    }

    /// "No version of X matches R", with the newest or nearest versions there are: what any
    /// resolution says of a requirement nothing satisfies (a backend that finds out late, as
    /// pip resolving an exact pin, says the same).
    public static func noVersion(_ request: ToolRequest, among available: [AvailableVersion], at source: String) -> TackError {
        TackError(.noVersion(
            tool: request.name, requirement: request.requirement.description, setBy: request.origin.describe(home: nil), source: source,
            hint: hint(request.requirement, among: available)))
    }

    /// What there is instead of a version `requirement` allows: the nearest versions and the
    /// newest release, or that there are none, or (an `lts` pin) that the index names no lines.
    static func hint(_ requirement: Requirement, among available: [AvailableVersion]) -> ResolutionFailure.Hint {
        if case .lts = requirement, !available.contains(where: { $0.lts != nil }) { return .noLTSLines }
        let newest = available.map({ $0.version }).filter { !$0.isPrerelease }.max()
        let nearest = LockPlanner.nearest(requirement, in: available.map({ $0.version }))
        if nearest.count > 1 { return .nearest(nearest.map(\.text), newest: nearest.last == newest ? nil : newest?.text) }
        if let newest { return .newest(newest.text) }
        return available.isEmpty ? .noVersions : .none
    }

    /// Up to three versions around the one `requirement` names, for an error that says what
    /// exists instead (`6.0.9` → 6.0.2, 6.0.3, 6.1); empty when it names none.
    static func nearest(_ requirement: Requirement, in versions: [Version]) -> [Version] {
        let pivot: Version
        switch requirement {
        case .prefix(let v): pivot = v
        case .range(let cs, _) where !cs.isEmpty: pivot = cs[0].version
        default: return []
        }
        let sorted = Set(versions.filter { $0.isPrerelease == pivot.isPrerelease && !$0.isOpaque }).sorted()
        guard !sorted.isEmpty, !pivot.isOpaque else { return [] }
        let at = sorted.firstIndex { $0 > pivot } ?? sorted.count
        return Array(sorted[max(0, at - 2)..<min(sorted.count, max(0, at - 2) + 3)])
    }

    /// The lock for `requests`, keeping what `existing` still says where it can.
    public func plan(
        _ requests: [ToolRequest], existing: Lockfile, update: Update,
        installed: @escaping @Sendable (String) -> [LockedTool] = { _ in [] }, offline: Bool = false, preferInstalled: Bool = false
    ) async -> (lock: Lockfile, changes: [Change], failures: [String: TackError]) {
        var lock = Lockfile()
        var failures: [String: TackError] = [:]
        await withTaskGroup(of: (String, Result<LockedTool, TackError>).self) { group in
            for request in requests where request.isLockable {
                group.addTask {
                    do throws(TackError) {
                        let backend = try registry.backend(for: request)
                        if let entry = existing.tools[request.name], !update.includes(request.name),
                           LockMatch(request, backend: backend).matches(entry) {
                            return (request.name, .success(entry))
                        }
                        let fresh = try await resolve(request, installed: installed(request.name), offline: offline, preferInstalled: preferInstalled)
                        // Re-resolved to what is locked already: the entry stays as it is, with
                        // what installs taught it (checksums, hashes), and is no change.
                        if let old = existing.tools[request.name], old.version == fresh.version, old.version.text == fresh.version.text,
                           old.backend == fresh.backend, old.source == fresh.source, old.requested == fresh.requested,
                           fresh.fields.allSatisfy({ old.fields[$0.key] == $0.value }) {
                            var kept = old
                            // `tack update` accepts the publisher's new key: the old signer
                            // goes, and the next install checks the new key's signature.
                            if update.includes(request.name), let key = request.options.signingKey,
                               kept.signers.values.contains(where: { !key.accepts($0) }) {
                                kept.signers = [:]
                            }
                            return (request.name, .success(kept))
                        }
                        return (request.name, .success(fresh))
                    } catch { return (request.name, .failure(error)) }
                }
            }
            for await (name, result) in group {
                switch result {
                case .success(let entry): lock.tools[name] = entry
                case .failure(let e):
                    failures[name] = e
                    // Keep the old entry where resolving failed: a failed update loses nothing.
                    if let old = existing.tools[name] { lock.tools[name] = old }
                }
            }
        }
        var changes: [Change] = []
        for name in Set(lock.tools.keys).union(existing.tools.keys).sorted() {
            let old = existing.tools[name], new = lock.tools[name]
            if old != new { changes.append(Change(tool: name, from: old?.version.text, to: new?.version.text)) }
        }
        return (lock, changes, failures)
    }

    /// Every way `lock` fails to describe `requests`, for `--frozen`.
    public static func differences(_ requests: [ToolRequest], _ lock: Lockfile, registry: BackendRegistry, home: String?, platform: Platform = .current) -> [LockDifference] {
        var out: [LockDifference] = []
        let pinned = Dictionary(requests.filter({ $0.isLockable }).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, r) in pinned.sorted(by: { $0.key < $1.key }) {
            let setBy = r.origin.describe(home: home)
            guard let entry = lock.tools[name] else {
                out.append(.unlocked(tool: name, requirement: r.requirement.description, setBy: setBy))
                continue
            }
            let match = (try? registry.backend(for: r)).map { LockMatch(r, backend: $0) }
                ?? LockMatch(r, backend: r.source.backend, source: r.source.identity ?? "")
            for d in match.disagreements(entry, platform: platform) {
                out.append(.disagrees(tool: name, d, setBy: setBy))
            }
            // --frozen installs only what it can verify.
            if LockMatch.needsChecksum(entry, kind: r.source.kind, platform: platform) {
                out.append(.noChecksum(tool: name, platform: platform.description))
            }
        }
        for name in lock.tools.keys.sorted() where pinned[name] == nil {
            out.append(.unpinned(tool: name))
        }
        return out
    }
}
