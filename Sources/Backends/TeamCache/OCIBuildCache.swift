import Archive
import Foundation
import TackCore

/// The team cache on an OCI registry. One repository per tool (`NAMESPACE/TOOL`), one tag per
/// key (the key's digest). Each build is an OCI image manifest with `artifactType`
/// `application/vnd.tack.install.v1`, a small JSON config (the install's binaries and how it
/// was built), one layer (the install directory as tar + zstd) and the key's fields as
/// annotations, so skopeo and oras can inspect it.
public struct OCIBuildCache: BuildCache {
    public static let artifactType = "application/vnd.tack.install.v1"
    public static let configType = "application/vnd.tack.install.config.v1+json"
    public static let layerZstd = "application/vnd.oci.image.layer.v1.tar+zstd"
    public static let layerGzip = "application/vnd.oci.image.layer.v1.tar+gzip"

    let cache: TeamCache
    let registry: OCIRegistry
    public let platform: [String: String]
    /// Where blobs are staged while they move (the store's cache directory).
    let staging: String
    let limits: SafeExtractor.Limits
    let fs: any FileSystem

    public init(cache: TeamCache, registry: OCIRegistry, platform: [String: String], staging: String, limits: SafeExtractor.Limits,
                fs: any FileSystem = LocalFileSystem()) {
        self.fs = fs
        self.cache = cache
        self.registry = registry
        self.platform = platform
        self.staging = staging
        self.limits = limits
    }

    public var pushes: Bool { cache.push }
    public var label: String { cache.reference.description }

    public func lookup(_ key: CacheKey) async throws(TackError) -> String? {
        do { return try await registry.manifest(cache.reference.repository(for: key.tool), tag: key.tag)?.digest } catch {
            throw TackError(error.message)
        }
    }

    public func pull(_ key: CacheKey, recorded: String?, into directory: String, report: @escaping @Sendable (InstallPhase) -> Void) async -> CachePull {
        let staged: Staged
        switch await stage(key, recorded: recorded, report: report) {
        case .answer(let answer): return answer
        case .staged(let s): staged = s
        }
        defer {
            try? fs.remove(staged.config)
            try? fs.remove(staged.layer)
        }
        report(.extracting)
        return OCIBuildCache.unpack(staged, into: directory, limits: limits, fs: fs)
    }

    /// A build's manifest, config and layer, fetched and checked, its parts in staging files.
    public struct Staged: Sendable {
        public var digest: String
        public var manifest: [UInt8]
        public var configDigest: String
        public var config: String
        public var layer: String
    }

    /// A build staged, or what `pull` answers instead: a miss, or why it is unusable.
    public enum Staging: Sendable {
        case staged(Staged)
        case answer(CachePull)
    }

    /// The build `key` names fetched into staging files (the caller removes them), or what
    /// `pull` answers instead: a miss, or why it is unusable.
    public func stage(_ key: CacheKey, recorded: String?, report: @escaping @Sendable (InstallPhase) -> Void) async -> Staging {
        let repository = cache.reference.repository(for: key.tool)
        let found: (digest: String, bytes: [UInt8])?
        do { found = try await registry.manifest(repository, tag: key.tag) } catch {
            return .answer(.unusable(error.transient ? "the team cache \(label) is unavailable (\(error.message))" : "the team cache \(label) could not be read (\(error.message))"))
        }
        guard let (digest, bytes) = found else { return .answer(.miss) }
        let parts: Parts
        switch OCIBuildCache.parts(key, digest: digest, manifest: bytes, recorded: recorded, limits: limits) {
        case .failure(let why): return .answer(.unusable(why.message))
        case .success(let p): parts = p
        }
        let id = UUID().uuidString
        let configFile = staging + "/oci-\(id).json"
        let layerFile = staging + "/oci-\(id).tar"
        do {
            try fs.createDirectory(staging)
            try await registry.blob(repository, digest: parts.configDigest, to: configFile) { _, _ in }
            report(.downloading(received: 0, total: parts.layerSize.map(Int64.init)))
            try await registry.blob(repository, digest: parts.layerDigest, to: layerFile) { received, total in report(.downloading(received: received, total: total)) }
        } catch let error as RegistryError {
            try? fs.remove(configFile)
            try? fs.remove(layerFile)
            return .answer(.unusable(error.transient ? "the team cache \(label) is unavailable (\(error.message))" : "the team cache \(label) could not be read (\(error.message))"))
        } catch {
            try? fs.remove(configFile)
            try? fs.remove(layerFile)
            return .answer(.unusable("cannot stage the team cache's build in \(staging): \(describe(error))"))
        }
        return .staged(Staged(digest: digest, manifest: bytes, configDigest: parts.configDigest, config: configFile, layer: layerFile))
    }

    /// What a build's manifest names, checked: a tack install for exactly `key`, one config and
    /// one tar layer, not larger than tack unpacks, and the digest `recorded` if there is one.
    public struct Parts: Sendable {
        public var configDigest: String
        public var layerDigest: String
        public var layerSize: Int?
    }

    public static func parts(_ key: CacheKey, digest: String, manifest bytes: [UInt8], recorded: String?, limits: SafeExtractor.Limits) -> Result<Parts, TackError> {
        if let recorded, recorded != digest {
            return .failure(TackError("the team cache's build for this key is now \(digest), but \(recorded) was recorded for it before (in tack.lock, or by an earlier pull or push on this machine) — refused, as a moved tag would be"))
        }
        guard let manifest = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return .failure(TackError("the team cache's manifest \(digest) is not JSON — refused"))
        }
        guard manifest["artifactType"] as? String == OCIBuildCache.artifactType else {
            return .failure(TackError("the team cache's manifest \(digest) is not a tack install (artifactType \(quoted(manifest["artifactType"] as? String ?? "none"))) — refused"))
        }
        let annotations = manifest["annotations"] as? [String: String] ?? [:]
        let mismatches = key.mismatches(annotations)
        guard mismatches.isEmpty else {
            return .failure(TackError("the team cache's manifest \(digest) is for another build (\(mismatches.prefix(3).joined(separator: "; "))) — refused"))
        }
        guard let config = manifest["config"] as? [String: Any], let configDigest = config["digest"] as? String,
              config["mediaType"] as? String == OCIBuildCache.configType,
              let layers = manifest["layers"] as? [[String: Any]], layers.count == 1,
              let layerDigest = layers[0]["digest"] as? String, let layerType = layers[0]["mediaType"] as? String,
              layerType == OCIBuildCache.layerZstd || layerType == OCIBuildCache.layerGzip else {
            return .failure(TackError("the team cache's manifest \(digest) does not have one config and one tar layer — refused"))
        }
        let size = layers[0]["size"] as? Int
        if let size, Int64(size) > limits.maxBytes {
            return .failure(TackError("the team cache's build is \(formatSize(size)), more than tack unpacks (\(limits.describeBytes); TACK_UNPACK_MAX_BYTES raises it) — refused"))
        }
        return .success(Parts(configDigest: configDigest, layerDigest: layerDigest, layerSize: size))
    }

    /// A staged build unpacked into `directory`: what its config says it is.
    public static func unpack(_ staged: Staged, into directory: String, limits: SafeExtractor.Limits, fs: any FileSystem) -> CachePull {
        guard let data = (try? fs.read(staged.config)).map({ Data($0) }),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let binaries = object["binaries"] as? [String], binaries.allSatisfy(BinSpec.isSafeRelativePath) else {
            return .unusable("the team cache's build config \(staged.configDigest) is not what tack writes — refused")
        }
        let built = object["built"] as? [String: String] ?? [:]
        do { _ = try SafeExtractor.extract(staged.layer, into: directory, limits: limits) } catch {
            return .unusable("the team cache's build \(staged.digest) cannot be unpacked: \(error.message) — refused")
        }
        return .hit(digest: staged.digest, binaries: binaries, built: built)
    }

    public func push(_ key: CacheKey, directory: String, record: LockedTool) async throws(TackError) -> String {
        let repository = cache.reference.repository(for: key.tool)
        let id = UUID().uuidString
        let layerFile = staging + "/oci-push-\(id).tar.zst"
        let configFile = staging + "/oci-push-\(id).json"
        defer {
            try? fs.remove(layerFile)
            try? fs.remove(configFile)
        }
        do {
            try fs.createDirectory(staging)
            try InstallPacker.pack(directory, to: layerFile, excluding: [Store.installRecordFile, ".scratch"])
        } catch let error as ArchiveError {
            throw TackError("cannot pack \(directory): \(error.message)")
        } catch { throw TackError("cannot write \(staging): \(describe(error))") }
        guard let (layerSum, layerSize) = Hashing.sha256(file: layerFile) else { throw TackError("cannot read \(layerFile)") }
        let layerDigest = "sha256:" + layerSum

        let config = OCIBuildCache.json(["binaries": record.binaries, "built": record.built, "tool": record.name, "version": record.version.text])
        do { try Data(config).write(to: URL(fileURLWithPath: configFile)) } catch { throw TackError("cannot write \(configFile): \(describe(error))") }
        let configDigest = "sha256:" + Hashing.sha256(config)

        var annotations = key.annotations
        annotations["org.opencontainers.image.title"] = "\(record.name)-\(record.version.text)"
        annotations["dev.tack.tool"] = record.name
        annotations["dev.tack.version"] = record.version.text
        let manifest = OCIBuildCache.json([
            "schemaVersion": 2,
            "mediaType": OCIRegistry.manifestType,
            "artifactType": OCIBuildCache.artifactType,
            "config": ["mediaType": OCIBuildCache.configType, "digest": configDigest, "size": config.count] as [String: Any],
            "layers": [["mediaType": OCIBuildCache.layerZstd, "digest": layerDigest, "size": layerSize,
                        "annotations": ["org.opencontainers.image.title": "\(record.name)-\(record.version.text).tar.zst"]] as [String: Any]],
            "annotations": annotations,
        ])
        do {
            try await registry.pushBlob(repository, file: layerFile, digest: layerDigest, size: layerSize)
            try await registry.pushBlob(repository, file: configFile, digest: configDigest, size: config.count)
            return try await registry.putManifest(repository, tag: key.tag, bytes: manifest)
        } catch { throw TackError(error.message) }
    }

    /// Sorted keys, no escaped slashes: the same object always gives the same bytes (and so
    /// the same digest, whichever machine pushes it).
    static func json(_ object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return [UInt8](data)
    }
}
