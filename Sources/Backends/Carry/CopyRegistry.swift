import Foundation
import TackCore

/// A copy on an OCI registry (`oci://HOST/REPO[:TAG]`, tag `latest` when none is given): one
/// artifact (`artifactType` `application/vnd.tack.copy.v1`) whose config is the copy's index
/// and whose layers are its files, each titled with its path in the copy
/// (`org.opencontainers.image.title`), as ORAS lays out a directory — so `oras pull` unpacks
/// it too. Pulled into the download cache, by manifest digest, before an install reads it.
public struct CopyRegistry: Sendable {
    public static let artifactType = "application/vnd.tack.copy.v1"
    public static let indexType = "application/vnd.tack.copy.index.v1+json"
    public static let fileType = "application/octet-stream"

    /// Where the copy is: the registry and repository, and the tag.
    public struct Reference: Sendable, Equatable, CustomStringConvertible {
        public var repository: CacheReference
        public var tag: String

        /// `oci://HOST/REPO[:TAG]`, or nil.
        public init?(_ text: String) {
            guard text.hasPrefix("oci://") else { return nil }
            var rest = String(text.dropFirst(6))
            var tag = "latest"
            if let slash = rest.firstIndex(of: "/"), let colon = rest[slash...].lastIndex(of: ":") {
                tag = String(rest[rest.index(after: colon)...])
                rest = String(rest[..<colon])
            }
            guard Self.isTag(tag), let repository = CacheReference("oci://" + rest) else { return nil }
            self.repository = repository
            self.tag = tag
        }

        /// The OCI distribution spec's tag grammar.
        static func isTag(_ tag: String) -> Bool {
            guard let first = tag.unicodeScalars.first, tag.utf8.count <= 128, first != ".", first != "-" else { return false }
            return tag.unicodeScalars.allSatisfy { ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value >= 0x41 && $0.value <= 0x5A) || ($0.value >= 0x61 && $0.value <= 0x7A) || "._-".unicodeScalars.contains($0) }
        }

        public var description: String { "\(repository):\(tag)" }
        /// Plain HTTP only for a registry on this machine, as Docker allows.
        var scheme: String { repository.isLoopback ? "http" : "https" }
    }

    let registry: OCIRegistry
    let reference: Reference
    let fs: any FileSystem

    public init(_ reference: Reference, transport: any HTTPTransport, credentials: @escaping @Sendable () async -> RegistryCredential?, fs: any FileSystem = LocalFileSystem()) {
        self.reference = reference
        self.registry = OCIRegistry(host: reference.repository.registry, scheme: reference.scheme, transport: transport, credentials: credentials)
        self.fs = fs
    }

    /// Uploads the copy at `root` (its index last, as the config): the manifest's digest.
    public func push(_ root: String) async throws(TackError) -> String {
        let repository = reference.repository.namespace
        let index = Paths.child(root, CopyIndex.fileName)
        guard let (indexSum, indexSize) = Hashing.sha256(file: index) else { throw TackError("\(root) has no \(CopyIndex.fileName) to push") }
        var layers: [[String: Any]] = []
        for relative in fs.walk(root).sorted() where relative != CopyIndex.fileName {
            let path = Paths.child(root, relative)
            guard fs.info(path)?.kind == .file, let (sum, size) = Hashing.sha256(file: path) else { continue }
            do { try await registry.pushBlob(repository, file: path, digest: "sha256:" + sum, size: size) } catch {
                throw TackError("cannot push \(relative) to \(reference): \(error.message)")
            }
            layers.append(["mediaType": Self.fileType, "digest": "sha256:" + sum, "size": size, "annotations": ["org.opencontainers.image.title": relative]])
        }
        do { try await registry.pushBlob(repository, file: index, digest: "sha256:" + indexSum, size: indexSize) } catch {
            throw TackError("cannot push the copy's index to \(reference): \(error.message)")
        }
        let manifest: [String: Any] = [
            "schemaVersion": 2, "mediaType": OCIRegistry.manifestType, "artifactType": Self.artifactType,
            "config": ["mediaType": Self.indexType, "digest": "sha256:" + indexSum, "size": indexSize] as [String: Any],
            "layers": layers,
            "annotations": ["org.opencontainers.image.created": MirrorClock.now(), "dev.tack.version": TackVersion.current],
        ]
        let bytes = (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])).map { [UInt8]($0) } ?? []
        do { return try await registry.putManifest(repository, tag: reference.tag, bytes: bytes) } catch {
            throw TackError("cannot push the copy's manifest to \(reference): \(error.message)")
        }
    }

    /// The copy downloaded into `cache/copies/DIGEST` (each file checked against its digest;
    /// one pulled before is used as it is): the directory.
    public func pull(into cache: String) async throws(TackError) -> String {
        let repository = reference.repository.namespace
        let found: (digest: String, bytes: [UInt8])?
        do { found = try await registry.manifest(repository, tag: reference.tag) } catch {
            throw TackError("cannot read the copy \(reference): \(error.message)")
        }
        guard let (digest, bytes) = found else { throw TackError("\(reference) has no copy (the registry has no such tag) — push one with `tack mirror \(reference)`") }
        guard let manifest = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
              manifest["artifactType"] as? String == Self.artifactType,
              let config = manifest["config"] as? [String: Any], let configDigest = config["digest"] as? String,
              let layers = manifest["layers"] as? [[String: Any]] else {
            throw TackError("\(reference) is not a copy `tack mirror` pushed (its manifest \(digest) is not a tack copy)")
        }
        let root = Paths.child(cache, "copies/" + digest.replacingOccurrences(of: "sha256:", with: ""))
        if fs.info(Paths.child(root, ".complete")) != nil { return root }
        let partial = root + ".partial-\(getpid())"
        try? fs.remove(partial)
        do {
            try fs.createDirectory(partial)
            for layer in layers {
                guard let d = layer["digest"] as? String, let title = (layer["annotations"] as? [String: String])?["org.opencontainers.image.title"],
                      Self.isSafe(title) else {
                    throw TackError("\(reference) names a file tack will not write (a path outside the copy, or none) — refused")
                }
                let path = Paths.child(partial, title)
                try fs.createDirectory(Paths.dirname(path))
                try await registry.blob(repository, digest: d, to: path) { _, _ in }
            }
            try await registry.blob(repository, digest: configDigest, to: Paths.child(partial, CopyIndex.fileName)) { _, _ in }
            // A repository's directories that hold no file (a registry keeps files only).
            let index = try CopyIndex.decode(try fs.read(Paths.child(partial, CopyIndex.fileName), limit: 256 << 20), place: reference.description)
            for dir in index.repositories.values where Self.isSafe(dir) {
                for sub in ["objects", "refs/heads", "refs/tags"] { try fs.createDirectory(Paths.child(partial, dir + "/" + sub)) }
            }
            try fs.writeAtomically(Paths.child(partial, ".complete"), [], permissions: 0o644, flush: false)
            try? fs.remove(root)
            try fs.move(partial, to: root)
        } catch let error as TackError {
            try? fs.remove(partial)
            throw error
        } catch let error as RegistryError {
            try? fs.remove(partial)
            throw TackError("cannot pull the copy \(reference): \(error.message)")
        } catch {
            try? fs.remove(partial)
            throw TackError("cannot write the copy \(reference) into \(cache): \(error)")
        }
        return root
    }

    /// A relative path of plain components (no `..`, `.` or empty ones), not the index's.
    public static func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.hasPrefix("/") && !parts.isEmpty && parts.count <= 16
            && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("\\") }
            && path != CopyIndex.fileName
    }
}

/// The time a copy is made, for its index and manifest.
public enum MirrorClock {
    public static func now() -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date())
    }
}
