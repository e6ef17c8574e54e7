import Foundation
import Git
import TackCore

/// The built-in registry (Resources/registry.yml, compiled into tack) and the user's registries
/// under `$TACK_HOME/registries/<name>` (git repositories with a `registry.yml` at the top).
public enum Registries {
    public static var builtIn: [UInt8] { ToolRegistry.builtInBytes }

    public static func userRegistries(store: Store) -> [String] { ToolRegistry.userRegistries(store: store) }

    static func directory(_ store: Store, _ name: String) -> String { store.root + "/registries/" + name }

    /// The registry's directory name: the repository's name, lowercased (`acme/tools.git` → `tools`).
    public static func name(for url: String) -> String {
        var last = url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "registry"
        if last.hasSuffix(".git") { last.removeLast(4) }
        let cleaned = last.lowercased().filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        return ToolName.isValid(cleaned) ? cleaned : "registry"
    }

    /// Clones `url` into `$TACK_HOME/registries/<name>` (or replaces it, for update): cloned
    /// beside, checked, then renamed into place, so a failed update keeps the old registry.
    public static func fetch(_ url: String, name: String, store: Store, git: any GitRemotes = LibGit2Remotes()) async throws(TackError) {
        let final = directory(store, name)
        let temp = store.root + "/registries/.tmp-\(name)-\(getpid())"
        try? store.fs.remove(temp)
        do { try store.fs.createDirectory(store.root + "/registries") } catch { throw TackError("cannot write to \(store.root): \(error)") }
        do { try await git.clone(url, into: temp) } catch {
            try? store.fs.remove(temp)
            throw TackError("cannot clone the registry \(url): \(error.message)")
        }
        do throws(TackError) {
            guard let bytes = try? store.fs.read(temp + "/registry.yml") else {
                throw TackError("\(url) has no registry.yml at its top; a registry is a git repository with one")
            }
            var check = ToolRegistry(backends: store.backends)
            try check.add(bytes, path: url + ":registry.yml")
            try? store.fs.writeAtomically(temp + "/.tack-registry-url", Array(url.utf8))
        } catch {
            try? store.fs.remove(temp)
            throw error
        }
        let old = final + ".old-\(getpid())"
        if store.fs.info(final) != nil { try? store.fs.move(final, to: old) }
        do { try store.fs.move(temp, to: final) } catch {
            try? store.fs.move(old, to: final)
            throw TackError("cannot move the registry into \(final): \(error.reason)")
        }
        try? store.fs.remove(old)
    }

    public static func url(of name: String, store: Store) -> String? {
        (try? String(contentsOfFile: directory(store, name) + "/.tack-registry-url", encoding: .utf8))
    }
}
