import Archive
import TackCore

/// `tack install --from`'s team cache: the builds the copy holds, by key, checked as a pull
/// from the registry is (a tack install for exactly this key, the digest tack.lock records)
/// and against the copy's index. It takes no pushes.
public struct CarriedBuildCache: BuildCache {
    let copy: CopyReader
    public let platform: [String: String]
    let limits: SafeExtractor.Limits
    let fs: any FileSystem

    public init(copy: CopyReader, platform: [String: String], limits: SafeExtractor.Limits, fs: any FileSystem = LocalFileSystem()) {
        self.copy = copy
        self.platform = platform
        self.limits = limits
        self.fs = fs
    }

    public var pushes: Bool { false }
    public var label: String { "the copy at \(copy.label)" }

    public func lookup(_ key: CacheKey) async throws(TackError) -> String? { copy.build(tool: key.tool, tag: key.tag)?.build.digest }

    public func pull(_ key: CacheKey, recorded: String?, into directory: String, report: @escaping @Sendable (InstallPhase) -> Void) async -> CachePull {
        guard let (build, manifestPath, configPath, layerPath) = copy.build(tool: key.tool, tag: key.tag) else { return .miss }
        guard let manifest = try? fs.read(manifestPath, limit: 4 << 20), "sha256:" + Hashing.sha256(manifest) == build.digest else {
            return .unusable("\(label) holds a damaged manifest for the build of \(key.tool) — copy it again")
        }
        let parts: OCIBuildCache.Parts
        switch OCIBuildCache.parts(key, digest: build.digest, manifest: manifest, recorded: recorded, limits: limits) {
        case .failure(let why): return .unusable(why.message)
        case .success(let p): parts = p
        }
        for (path, digest) in [(configPath, parts.configDigest), (layerPath, parts.layerDigest)] {
            guard let sum = Hashing.sha256(file: path), "sha256:" + sum.hex == digest else {
                return .unusable("\(label) holds a damaged part (\(digest)) of the build of \(key.tool) — copy it again")
            }
        }
        report(.extracting)
        return OCIBuildCache.unpack(.init(digest: build.digest, manifest: manifest, configDigest: parts.configDigest, config: configPath, layer: layerPath),
                                    into: directory, limits: limits, fs: fs)
    }

    public func push(_ key: CacheKey, directory: String, record: LockedTool) async throws(TackError) -> String {
        throw TackError("\(label) is read only")
    }
}
