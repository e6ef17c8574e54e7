import ArgumentParser
import TackCore
import TackFront

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove every installed version that no known project still pins.",
        discussion: """
            Known projects are those where `tack install` (or use, lock, update) has run. A version \
            is kept while a known project's tack.lock, the global manifest's lock, or this \
            directory's pins name it.
            """
    )

    @Flag(help: "Only list what would be removed.")
    var dryRun = false

    func run() throws {
        let project = try Project.current()
        let settings = project.settings
        var keep: Set<String> = []
        var locks = project.knownProjects().map { Paths.join($0, Lockfile.fileName) }
        if let global = settings.globalManifest { locks.append(Paths.join(Paths.dirname(global), Lockfile.fileName)) }
        for path in locks where settings.fs.isFile(path) {
            guard let lock = try? Lockfile.load(path, fs: settings.fs) else {
                throw fail(TackError("cannot read \(path), so tack cannot tell what it pins — fix it or remove that project, then prune again"))
            }
            for (name, t) in lock.tools { keep.insert("\(name)@\(t.version.text)") }
        }
        if let current = try? project.resolution.current(settings: settings) {
            for t in current { if let v = t.version { keep.insert("\(t.tool)@\(v)") } }
        }
        var removed = 0
        for tool in project.store.installedTools() {
            for v in project.store.installedVersions(tool) where !keep.contains("\(tool)@\(v.text)") {
                if dryRun {
                    Output.out("would remove \(tool) \(v)\n")
                } else {
                    do { try Remover(store: project.store).remove(tool, v) } catch { throw fail(error) }
                    Output.out("removed \(tool) \(v)\n")
                }
                removed += 1
            }
        }
        if removed == 0 { Output.out("nothing to prune\n") }
        if removed > 0 && !dryRun { reshim(project) }
    }
}
