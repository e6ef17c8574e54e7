import ArgumentParser
import TackCore
import TackFront

struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove one installed version of a tool.",
        discussion: "Example: tack uninstall swiftlint@0.54.1"
    )

    @Argument(help: "tool@version", completion: ToolArgument.completion)
    var target: String

    func validate() throws {
        _ = try parsed()
    }

    func parsed() throws -> (String, Version) {
        let arg = try ToolArgument.parse(target)
        let parts = target.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, let version = Version(word: parts[1]), version.text == parts[1] else {
            throw ValidationError("\(ToolArgument.shown(target)) names no exact version — write tool@version, like \(arg.name)@0.54.1 (`tack ls \(arg.name)` lists what is installed)")
        }
        return (arg.name, version)
    }

    func run() throws {
        let (tool, version) = try parsed()
        let settings = try processSettings()
        let store: Store
        do { store = try settings.requireStore() } catch { throw fail(error) }
        // Commands of a tool still pinned here keep their shims, which then say it is not
        // installed and what to run, instead of the shell's "command not found".
        var keep: Set<String> = []
        if let pin = try? Resolver(settings).resolve().pin(tool), LockPlanner.isLockable(pin.request),
           case .list(let bins)? = store.installedEntry(tool, version)?.fields["binaries"] {
            keep = Set(bins.map(Paths.basename))
        }
        do { try Remover(store: store).remove(tool, version) } catch { throw fail(error) }
        if let front = Front.launcherPath() { _ = try? Shims.rebuild(store: store, front: front, keeping: keep) }
        Output.err("uninstalled \(tool) \(version)\n")
    }
}

/// Removes installs atomically: renamed out of sight first (under the install lock), then deleted.
struct Remover {
    let store: Store
    func remove(_ tool: String, _ version: Version) throws(TackError) {
        let dir = store.installDirectory(tool, version)
        guard store.fs.isDirectory(dir) else {
            let others = store.installedVersions(tool).map(\.text)
            throw TackError("\(tool) \(version) is not installed" + (others.isEmpty ? " — `tack ls` lists what is" : " (installed: \(others.joined(separator: ", "))) — uninstall one of those"))
        }
        do { try store.fs.createDirectory(store.state + "/locks") } catch { throw TackError("cannot write to \(store.root): \(error)") }
        let lock = try FileLock(path: store.state + "/locks/\(tool)@\(version.text).lock")
        lock.lock()
        defer { lock.unlock() }
        let trash = store.toolDirectory(tool) + "/.old-\(version.text)-removing"
        try? store.fs.remove(trash)
        guard PosixRename.rename(dir, trash) else { throw TackError("cannot remove \(dir): permission denied or busy") }
        try? store.fs.remove(trash)
        // Every other build of that version goes with it.
        try? store.fs.remove(store.variantsDirectory(tool, version))
        if ((try? store.fs.list(store.toolDirectory(tool) + "/.variants")) ?? []).isEmpty { try? store.fs.remove(store.toolDirectory(tool) + "/.variants") }
        if store.installedVersions(tool).isEmpty, ((try? store.fs.list(store.toolDirectory(tool))) ?? []).isEmpty {
            try? store.fs.remove(store.toolDirectory(tool))
        }
    }
}
