/// Which manifests may apply `env` and run `bootstrap.run`: trust is given per file, keyed by
/// its absolute path and the SHA-256 of its content, so any change needs trust again. It is kept
/// in `$TACK_HOME/state/trust`, never in a project file.
public struct TrustStore: Sendable {
    public let store: Store
    public init(store: Store) { self.store = store }

    /// The file trust is kept in.
    public var path: String { store.state + "/trust" }

    /// `sha256  path` lines.
    func entries() -> [(hash: String, path: String)] {
        guard let bytes = try? store.fs.read(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]).trimmingSpaces)
        }
    }

    public func isTrusted(_ file: String, hash: String) -> Bool {
        entries().contains { $0.path == file && $0.hash == hash }
    }

    public func trust(_ file: String, hash: String) throws(TackError) {
        try write(entries().filter { $0.path != file } + [(hash, file)])
    }

    /// Returns whether the file was trusted.
    @discardableResult
    public func untrust(_ file: String) throws(TackError) -> Bool {
        let all = entries()
        let kept = all.filter { $0.path != file }
        try write(kept)
        return kept.count != all.count
    }

    func write(_ entries: [(hash: String, path: String)]) throws(TackError) {
        let text = entries.sorted { $0.path < $1.path }.map { "\($0.hash)  \($0.path)\n" }.joined()
        do {
            try store.fs.createDirectory(store.state)
            try store.fs.writeAtomically(path, Array(text.utf8))
        } catch { throw TackError("cannot write \(path): \(error)") }
    }
}
