import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackKit

struct Outdated: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what `tack update` would change: locked, wanted and latest versions.",
        discussion: """
            `current` is the version locked (or, after a requirement changed, the one still \
            installed); `wanted` the newest version the requirement in tack.yml allows; `latest` \
            the newest release of all. For a `ref:` pin (a branch, tag or commit), `current` is the locked \
            commit and `wanted` the commit the ref names now. Exits 0 whether or not anything is \
            outdated.
            """
    )

    @Flag(help: "Print a JSON array: tool, current, wanted, latest.")
    var json = false

    func run() async throws {
        let project = try Workspace.current()
        var rows: [(tool: String, current: String?, wanted: String?, latest: String?, followsRef: Bool, heldBack: [String])] = []
        // `min_release_age`: versions younger than it are never wanted, and shown held back.
        let now = Int64(time(nil))
        func young(_ v: AvailableVersion) -> Bool { v.published.map { project.releaseAge?.holdsBack($0, now: now) ?? false } ?? false }
        var problems = 0
        for (lockPath, requests) in project.groups {
            let lock = lockPath.flatMap { try? project.loadLock($0) } ?? Lockfile()
            for r in requests {
                do throws(TackError) {
                    let backend = try project.registry.backend(for: r)
                    let locked = lock.tools[r.name].flatMap { LockMatch(r, backend: backend).matches($0) ? $0 : nil }
                    if case .ref(let ref) = r.requirement {
                        // What `tack update` would move to: the commit the ref names now.
                        let named = try await backend.resolve(ref: ref, of: r)
                        let latest = try? await backend.available(of: r).map(\.version)
                        let kind = r.source.kind
                        let namedEntry = LockPlanner.entry(r, backend: backend, found: named)
                        rows.append((r.name, locked.flatMap { Outdated.short(kind?.revision($0)) }, Outdated.short(kind?.revision(namedEntry)), latest.flatMap { Requirement.latest.best(of: $0)?.text }, true, []))
                        continue
                    }
                    var available = try await backend.available(of: r)
                    if project.releaseAge != nil { available = await backend.published(available, of: r) }
                    // What runs now: the locked version, or (after the requirement changed) the
                    // one the lock still names, while it is installed.
                    var current = locked?.version.text
                    if current == nil, let previous = lock.tools[r.name], project.store.installedEntry(r.name, previous.version) != nil {
                        current = previous.version.text
                    }
                    let held = available.filter(young)
                    let allowed = available.filter { !young($0) }
                    rows.append((r.name, current, r.requirement.best(of: allowed)?.version.text, Requirement.latest.best(of: available.map(\.version))?.text, false,
                                 held.map(\.version.text)))
                } catch {
                    Output.error(error.message)
                    problems += 1
                }
            }
        }
        rows.sort { $0.tool < $1.tool }
        // A ref pin is behind only when its ref has moved (a release is not what it follows).
        let outdated = rows.filter { $0.current != $0.wanted || (!$0.followsRef && $0.wanted != $0.latest) }
        if json {
            let value = JSON.array(outdated.map { r in
                .object([("tool", .string(r.tool)), ("current", r.current.map(JSON.string) ?? .null),
                         ("wanted", r.wanted.map(JSON.string) ?? .null), ("latest", r.latest.map(JSON.string) ?? .null)]
                         + (r.heldBack.isEmpty ? [] : [("held_back", .array(r.heldBack.map(JSON.string)))]))
            })
            Output.out(value.serialized() + "\n")
        } else if outdated.isEmpty {
            if problems == 0 { Output.out("everything is up to date\n") }
        } else {
            let table = [["tool", "current", "wanted", "latest"]] + outdated.map { row -> [String] in
                var latest = row.latest ?? "-"
                if let l = row.latest, row.heldBack.contains(l), let age = project.releaseAge { latest += " (held back: younger than \(age.text))" }
                return [row.tool, row.current ?? "-", row.wanted ?? "-", latest]
            }
            Output.out(renderTable(table))
        }
        if problems > 0 { throw ExitCode(1) }
    }
}

extension Outdated {
    /// A ref pin's commit, shortened as git shows it (12 digits).
    static func short(_ commit: String?) -> String? { commit.map { String($0.prefix(12)) } }
}

/// Left-aligned columns two spaces apart.
func renderTable(_ rows: [[String]]) -> String {
    guard let width = rows.first?.count else { return "" }
    let widths = (0..<width).map { c in rows.map { $0[c].count }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { i, cell in i == width - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2) }.joined()
    }.joined(separator: "\n") + "\n"
}
