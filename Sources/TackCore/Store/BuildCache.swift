/// Where finished builds are shared (the team cache): the installer asks it for a build
/// before building, and offers it what it built.
public protocol BuildCache: Sendable {
    /// The platform half of every key (`BuildPlatform`).
    var platform: [String: String] { get }
    /// Whether builds made here are uploaded.
    var pushes: Bool { get }
    /// Where the cache is, for messages (`oci://ghcr.io/acme/tack-cache`).
    var label: String { get }
    /// Fills `directory` with the build `key` names, when the cache has one. `recorded` is the
    /// manifest digest tack.lock holds for this key, if any: another digest is refused.
    func pull(_ key: CacheKey, recorded: String?, into directory: String, report: @escaping @Sendable (InstallPhase) -> Void) async -> CachePull
    /// Uploads the install in `directory` (its record: binaries, build facts) under `key`;
    /// returns the manifest digest.
    func push(_ key: CacheKey, directory: String, record: LockedTool) async throws(TackError) -> String
    /// Whether the cache has a build for `key`: its manifest digest, or nil.
    func lookup(_ key: CacheKey) async throws(TackError) -> String?
}

public enum CachePull: Sendable {
    /// The build is in place: what its record said, and the manifest digest it came from.
    case hit(digest: String, binaries: [String], built: [String: String])
    case miss
    /// The cache could not be used (down, refused, a digest other than the lock's): build
    /// locally, and say this.
    case unusable(String)
}

extension LockedTool {
    /// The manifest digest tack.lock records for a cache key, if any.
    public func cachedDigest(_ tag: String) -> String? {
        guard case .map(let m)? = fields[CacheKey.lockField] else { return nil }
        return m[tag]
    }

    /// The `cache` field with `tag → digest` added.
    public func addingCachedDigest(_ tag: String, _ digest: String) -> LockValue {
        var m: [String: String] = [:]
        if case .map(let existing)? = fields[CacheKey.lockField] { m = existing }
        m[tag] = digest
        return .map(m)
    }
}
