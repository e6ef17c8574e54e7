import ArgumentParser
import TackCore
import TackFront

struct Reshim: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild $TACK_HOME/shims: one entry per binary of every installed tool.",
        discussion: """
            Done after every install and uninstall; run it by hand after moving tack. Put the \
            shims directory on PATH and each shim runs the version pinned for the current \
            directory, or the next command of that name on PATH where nothing pins it.
            """
    )

    func run() throws {
        let settings = try processSettings()
        let store: Store
        do { store = try settings.requireStore() } catch { throw fail(error) }
        guard let front = Front.launcherPath() else { throw fail(TackError("cannot find the tack binary to point shims at")) }
        do {
            let (added, removed) = try Shims.rebuild(store: store, front: front)
            var parts: [String] = []
            if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
            if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
            Output.err("shims in \(Paths.abbreviate(store.shims, home: settings.home)): " + (parts.isEmpty ? "up to date" : parts.joined(separator: "; ")) + "\n")
        } catch { throw fail(error) }
    }
}
