import ArgumentParser
import TackCore
import TackFront

struct Outdated: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what `tack update` would change: locked, wanted and latest versions.",
        discussion: """
            `wanted` is the newest version the requirement in tack.yml allows; `latest` the newest \
            release of all. Exits 0 whether or not anything is outdated.
            """
    )

    @Flag(help: "Print a JSON array: tool, current, wanted, latest.")
    var json = false

    struct Row { var tool, current: String?; var wanted, latest: String?; var error: String? }

    func run() async throws {
        let project = try Project.current()
        var rows: [(tool: String, current: String?, wanted: String?, latest: String?)] = []
        var problems = 0
        for (lockPath, requests) in project.groups {
            let lock = lockPath.flatMap { try? project.loadLock($0) } ?? Lockfile()
            for r in requests {
                do throws(TackError) {
                    let backend = try project.registry.backend(for: r)
                    let available = try await backend.versions(of: r).map(\.version)
                    let current = lock.tools[r.name].flatMap { LockPlanner.entry($0, matches: r, backend: backend) ? $0.version.text : nil }
                    rows.append((r.name, current, r.requirement.best(of: available)?.text, Requirement.latest.best(of: available)?.text))
                } catch {
                    Output.error(error.message)
                    problems += 1
                }
            }
        }
        rows.sort { $0.tool < $1.tool }
        let outdated = rows.filter { $0.current != $0.wanted || $0.wanted != $0.latest }
        if json {
            let value = JSON.array(outdated.map { r in
                .object([("tool", .string(r.tool)), ("current", r.current.map(JSON.string) ?? .null),
                         ("wanted", r.wanted.map(JSON.string) ?? .null), ("latest", r.latest.map(JSON.string) ?? .null)])
            })
            Output.out(value.serialized() + "\n")
        } else if outdated.isEmpty {
            if problems == 0 { Output.out("everything is up to date\n") }
        } else {
            let table = [["tool", "current", "wanted", "latest"]] + outdated.map { [$0.tool, $0.current ?? "-", $0.wanted ?? "-", $0.latest ?? "-"] }
            Output.out(renderTable(table))
        }
        if problems > 0 { throw ExitCode(1) }
    }
}

/// Left-aligned columns two spaces apart.
func renderTable(_ rows: [[String]]) -> String {
    guard let width = rows.first?.count else { return "" }
    let widths = (0..<width).map { c in rows.map { $0[c].count }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { i, cell in i == width - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2) }.joined()
    }.joined(separator: "\n") + "\n"
}
