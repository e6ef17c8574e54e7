import ArgumentParser
import TackCore
import TackKit

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove every installed version that no known project still pins.",
        discussion: """
            Known projects are those where `tack install` (or use, lock, update) has run. \
            First, what interrupted or killed installs left behind (temporary install \
            directories, partial downloads, half-made environments) whose tack is gone. A version \
            is kept while a known project's tack.lock, the global manifest's lock, or this \
            directory's pins name it. Then the cache entries no remaining install uses go too: \
            downloads and gems (by checksum), asdf plugin checkouts (by commit) and Python \
            environments (no install shares their files).
            """
    )

    @OptionGroup var dryRunOption: DryRunOption
    var dryRun: Bool { dryRunOption.dryRun }

    func run() throws {
        let project = try Workspace.current()
        let home = project.settings.home
        let would = dryRun ? "would " : ""
        let pruned: Int
        do {
            pruned = try PruneService(project).prune(dryRun: dryRun) { step in
                switch step {
                case .version(let tool, let version): Output.out("\(dryRun ? "would remove" : "removed") \(tool) \(version)\n")
                case .forgotten(let root): Output.out("\(dryRun ? "would forget" : "forgot") \(Paths.abbreviate(root, home: home)), which no longer exists\n")
                case .path(let path, let why): Output.out("\(would)\(dryRun ? "remove" : "removed") \(Paths.abbreviate(path, home: home))\(why)\n")
                }
            }
        } catch { throw fail(error) }
        if pruned == 0 { Output.out("nothing to prune\n") }
    }
}
