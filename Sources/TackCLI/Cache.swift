import ArgumentParser
import Backends
import TackCore
import TackKit

struct Cache: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Share builds through the team cache (an OCI registry).",
        discussion: """
            The team cache is named by `cache: {url: oci://HOST/NAMESPACE, push: true}` in the \
            global manifest (or a trusted tack.yml), or by TACK_CACHE. `tack install` pulls a \
            build whose key matches and builds only when none does. See docs/cache.md.
            """,
        subcommands: [Push.self, Status.self]
    )

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload builds installed here to the team cache.",
            discussion: """
                Pushes the installed build of every pinned tool built from source (git, asdf), or of \
                the tools named. Only builds from the user's own or trusted files are pushed, and \
                never one whose checkout changed while it was built.
                """)
        @Argument(help: "Pinned tools (default: every one built from source).", completion: ToolArgument.completion) var tools: [String] = []

        func validate() throws {
            for t in tools { try ToolArgument(argument: t).check(allowingRequirement: false) }
        }

        func run() async throws {
            let project = try Workspace.current()
            let report: CacheService.PushReport
            do { report = try await CacheService(project).push(only: tools) } catch { throw fail(error) }
            for outcome in report.outcomes {
                switch outcome {
                case .pushed(let label, let digest): Output.err("pushed \(label) to \(report.cache) (\(digest.prefix(19))…)\n")
                case .skipped(let tool, let why, let named): if named { Output.error("\(tool): \(why)") } else { Output.verbose("\(tool): \(why)") }
                case .failed(let label, let message): Output.error("cannot push \(label): \(message)")
                }
            }
            if report.pushed == 0 && report.failed == 0 {
                if let file = report.untrustedFiles.sorted().first {
                    throw fail(TackError(TrustRefusal.pushedBuilds(file: file), home: project.home))
                }
                Output.err("nothing to push: no pinned tool here is an installed build\n")
            }
            if report.failed > 0 { throw ExitCode(1) }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, per pinned tool, whether the team cache has its build, and the key.")
        @Flag(help: "Print JSON: [{tool, version, status, tag, digest, key}].") var json = false

        func run() async throws {
            let project = try Workspace.current()
            let cache: OCIBuildCache, rows: [CacheService.StatusRow]
            do { (cache, rows) = try await CacheService(project).status() } catch { throw fail(error) }
            if json {
                Output.out(JSON.array(rows.map { row in
                    .object([
                        ("tool", .string(row.tool)), ("version", row.version.map(JSON.string) ?? .null), ("status", .string(row.status)),
                        ("tag", row.key.map { .string($0.tag) } ?? .null), ("digest", row.digest.map(JSON.string) ?? .null),
                        ("key", row.key.map { k in .object(k.fields.keys.sorted().map { ($0, .string(k.fields[$0] ?? "")) }) } ?? .null),
                    ])
                }).serialized() + "\n")
                return
            }
            var lines: [String] = []
            for row in rows {
                lines.append("\(row.tool) \(row.version ?? "-")  \(row.status)" + (row.key.map { "  \($0.tag.prefix(12))" } ?? ""))
                if let key = row.key, Output.isVerbose {
                    for f in key.fields.keys.sorted() { lines.append("    \(f) = \(key.fields[f] ?? "")") }
                }
            }
            Output.out("team cache: \(cache.label)\(cache.pushes ? " (push)" : "")\n" + lines.map { $0 + "\n" }.joined())
        }
    }
}
