#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// `$TACK_HOME/shims`: one symlink per binary of every installed tool, pointing at the `tack`
/// front end, which runs the version pinned for the current directory. Each link is made
/// under a temporary name and renamed into place, so the directory never holds a half-made shim.
public enum Shims {
    /// The command names every complete install provides.
    public static func commands(in store: Store) -> Set<String> {
        var names: Set<String> = []
        for tool in store.installedTools() {
            for entry in store.installedEntries(tool) {
                guard entry.recordsBinaries else { continue }
                let bins = entry.binaries
                for b in bins { names.insert(Paths.basename(b)) }
            }
        }
        return names.filter(isShimName)
    }

    /// A command that may have a shim: a plain file name, never one of tack's own.
    static func isShimName(_ name: String) -> Bool {
        ToolName.isValidBinaryName(name) && !["tack", "tack-cli", "tack-shim", "tack-front"].contains(name)
    }

    /// Makes the shims directory hold exactly one link to `front` per command (and per
    /// command in `keeping`, whose tool is uninstalled but still pinned). Returns the commands
    /// added and removed.
    @discardableResult
    public static func rebuild(store: Store, front: String, keeping: Set<String> = []) throws(TackError) -> (added: [String], removed: [String]) {
        let dir = store.shims
        do { try store.fs.createDirectory(dir) } catch { throw TackError("cannot create \(dir): \(error)") }
        let wanted = commands(in: store).union(keeping.filter(isShimName))
        let present = Set(((try? store.fs.list(dir)) ?? []).filter { !$0.hasPrefix(".") })
        var added: [String] = []
        for name in wanted.sorted() {
            let path = dir + "/" + name
            if store.fs.linkTarget(path) == front { continue }
            let temp = dir + "/.\(name).tmp-\(getpid())"
            try? store.fs.remove(temp)
            do {
                try store.fs.makeLink(temp, to: front)
                try store.fs.move(temp, to: path)
            } catch {
                try? store.fs.remove(temp)
                throw TackError("cannot write the shim \(path): \(error.reason)")
            }
            if !present.contains(name) { added.append(name) }
        }
        let removed = present.subtracting(wanted).sorted()
        for name in removed { try? store.fs.remove(dir + "/" + name) }
        return (added, removed)
    }
}
