import ArgumentParser
import TackCore
import TackKit

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find tools by name (or description) in tack's registry, yours and aqua's.",
        discussion: """
            Each line is a tool's short name, the source that pins it and what it is; \
            `tack use NAME@VERSION` pins it.

            Examples:
              tack search terraform      terraform  aqua: hashicorp/terraform  Terraform enables you to …
              tack search "json processor"
            """
    )

    @Argument(help: "A word of the name or description (case does not matter).")
    var word: String

    func validate() throws {
        if word.isEmpty || word.contains(where: { $0.isNewline || $0.isControl }) { throw ValidationError("give a word to search for") }
    }

    func run() async throws {
        let workspace = try Workspace.current()
        let (entries, problems) = await CatalogService(workspace.context).search(word, workspace: workspace)
        if entries.isEmpty {
            let why = problems.isEmpty ? "nothing in the catalogs matches \(Terminal.word(word))" : "cannot search \(problems.joined(separator: "; "))"
            Output.error(why)
            throw ExitCode(1)
        }
        for problem in problems { Output.err("tack: warning: cannot search \(Terminal.escapeControls(problem))\n") }
        let width = min(entries.map(\.name.count).max() ?? 0, 30)
        for e in entries.sorted(by: { ($0.name, $0.identity) < ($1.name, $1.identity) }) {
            let name = Terminal.escapeControls(e.name) + String(repeating: " ", count: max(0, width - e.name.count))
            let description = Terminal.escapeControls(e.description.count > 100 ? String(e.description.prefix(99)) + "…" : e.description)
            Output.out("\(name)  \(e.key): \(Terminal.escapeControls(e.identity))  \(description)\n")
        }
    }
}
