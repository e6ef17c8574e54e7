/// The team cache's build digest first seen for each key on this machine
/// (`$TACK_HOME/state/cache-digests`, `TAG DIGEST` a line): a later pull that finds another
/// build under a key this machine has seen is refused, as a moved git tag is. Installs never
/// write it into tack.lock, so pulling and pushing leave no lock change on any machine; a
/// `cache:` digest a lock records (by hand, or from an older tack) is honoured first.
public struct CacheDigests: Sendable {
    let file: StateFile

    public init(store: Store) { file = StateFile(store.state + "/cache-digests", fs: store.fs) }

    /// The digest first seen here for the key's tag, or nil.
    public func digest(for tag: String) -> String? {
        for line in file.lines() {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == tag { return String(parts[1]) }
        }
        return nil
    }

    /// Records `digest` for `tag` unless a digest is recorded for it already (the first one
    /// seen stays). Best effort: a store that cannot be written pins nothing more.
    public func remember(_ tag: String, _ digest: String) {
        guard Checksum.isSHA256(tag), digest.hasPrefix("sha256:"), Checksum.isSHA256(String(digest.dropFirst(7))) else { return }
        try? file.update { (lines) throws(TackError) in
            if lines.contains(where: { $0.hasPrefix(tag + " ") }) { return (lines, ()) }
            return ((lines + ["\(tag) \(digest)"]).sorted(), ())
        }
    }
}
