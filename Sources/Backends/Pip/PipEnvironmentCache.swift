import TackCore

/// Environments kept in `$TACK_HOME/cache/pip-envs/<key>` (moved there when an install is
/// removed, `KeptPart`) and cloned, hard-linked, into an install of exactly the same thing.
struct PipEnvironmentCache {
    let fs: any FileSystem

    /// The cache key: the interpreter (its path and what it resolves to, with its size and
    /// modification time, so an upgraded python is another key), the installer, the pin (the
    /// package, its extras and version, and where it comes from: the set was checked against
    /// resolving exactly that) and every distribution with its hashes.
    /// `pin`: `package[extras]==version` and where it comes from (`PipBackend.pinText`).
    func key(interpreter: String, installer: String, pin: String, pinned: [PipPin]) -> String {
        let real = fs.linkTarget(interpreter).map { $0.hasPrefix("/") ? $0 : Paths.dirname(interpreter) + "/" + $0 } ?? interpreter
        let info = fs.info(real)
        let stamp = "\(info?.mtime ?? 0) \(info?.size ?? 0)"
        let text = (["interpreter \(interpreter) \(real) \(stamp)", "installer \(installer)", "pin " + pin] + pinned.map(\.line).sorted()).joined(separator: "\n")
        return Hashing.sha256(Array(text.utf8))
    }

    /// Clones the cached environment into `venv`; returns the path its scripts name, or nil.
    func reuse(_ key: String, cache: String, into venv: String) -> String? {
        let dir = cache + "/pip-envs/" + key
        guard let prefix = (try? fs.read(dir + "/prefix")).map({ String(decoding: $0, as: UTF8.self) }), !prefix.isEmpty,
              (try? Relocation(fs: fs).cloneTree(dir + "/venv", to: venv)) != nil
        else {
            try? fs.remove(venv)
            return nil
        }
        return prefix
    }

}
