import Foundation
import TackCore

/// A copy `tack mirror` made, read by `tack install --from`: the file that answers each URL,
/// each repository's bare copy, the pip and gem files and the builds, each checked against
/// the index as it is read.
public struct CopyReader: Sendable {
    public let root: String
    /// How messages name the copy (its directory, or the `oci://` reference it came from).
    public let label: String
    public let index: CopyIndex
    let fs: any FileSystem

    public init(root: String, label: String? = nil, fs: any FileSystem = LocalFileSystem()) throws(TackError) {
        self.root = root
        self.label = label ?? root
        self.fs = fs
        let path = Paths.child(root, CopyIndex.fileName)
        guard fs.info(path) != nil else {
            throw TackError("\(label ?? root) is not a copy `tack mirror` made (it has no \(CopyIndex.fileName))")
        }
        let bytes: [UInt8]
        do { bytes = try fs.read(path, limit: 256 << 20) } catch { throw TackError("cannot read \(path): \(error)") }
        index = try CopyIndex.decode(bytes, place: label ?? root)
    }

    /// What answers `url`: its file and what the index says of it.
    public func file(for url: String) -> (path: String, blob: CopyIndex.Blob)? {
        index.urls[url].map { (Paths.child(root, CopyIndex.filePath($0.sha256)), $0) }
    }

    /// The bare copy of the repository at `url`.
    public func repository(for url: String) -> String? {
        index.repositories[url].map { Paths.child(root, $0) }
    }

    /// pip's and uv's find-links directory.
    public var wheels: String { Paths.child(root, "wheels") }
    /// The gem files, by name.
    public var gems: String { Paths.child(root, "gems") }

    /// The build kept for `tool` under the cache key `tag`, with its parts' paths.
    public func build(tool: String, tag: String) -> (build: CopyIndex.Build, manifest: String, config: String, layer: String)? {
        guard let b = index.builds["\(tool)/\(tag)"] else { return nil }
        func path(_ blob: CopyIndex.Blob) -> String { Paths.child(root, CopyIndex.filePath(blob.sha256)) }
        return (b, path(b.manifest), path(b.config), path(b.layer))
    }

    /// Why installing `entry` on `platform` from this copy cannot work, before anything is
    /// installed: the copy has no record of it, was made for other platforms, or lacks (or has
    /// a cut-short) file its install needs. Empty when nothing is missing.
    public func lacks(_ entry: LockedTool, platform: String) -> [String] {
        let tool = "\(entry.name) \(entry.version)"
        guard let record = index.tools.first(where: { $0.name == entry.name && $0.version == entry.version.text }) else {
            return ["the copy has nothing for \(tool) — it was made from another tack.lock; make it again with `tack mirror` from this one"]
        }
        guard record.backend == entry.backend, record.source == entry.source else {
            return ["the copy's \(tool) is from \(record.source) (\(record.backend)), but tack.lock's is from \(entry.source) (\(entry.backend)) — make the copy again from this tack.lock"]
        }
        if !index.platforms.isEmpty, !index.platforms.contains(platform) {
            return ["the copy was made for \(index.platforms.joined(separator: ", ")), not \(platform): it has nothing of \(tool) for this machine — run `tack lock --platform \(platform)`, then `tack mirror` again"]
        }
        var missing: [String] = []
        for need in record.needs {
            if let problem = lack(need) { missing.append("\(tool): \(problem)") }
        }
        return missing
    }

    /// Why one need of a tool is not there (or not whole); nil when it is.
    func lack(_ need: String) -> String? {
        func whole(_ path: String, _ blob: CopyIndex.Blob, _ what: String) -> String? {
            guard let info = fs.info(path) else { return "the copy lacks \(what) (\(Paths.basename(path))) — it was copied in part" }
            return info.size == blob.size ? nil : "the copy's \(what) is \(info.size) bytes, not \(blob.size) — it was cut short or damaged"
        }
        if need.hasPrefix("url:") {
            let url = String(need.dropFirst(4))
            guard let (path, blob) = file(for: url) else { return "the copy's index has no file for \(URLRedaction.text(url))" }
            return whole(path, blob, URLRedaction.text(url))
        }
        if need.hasPrefix("git:") {
            let url = String(need.dropFirst(4))
            guard let dir = repository(for: url), fs.isDirectory(dir) else { return "the copy lacks the repository \(URLRedaction.text(url))" }
            return nil
        }
        if need.hasPrefix("wheel:") {
            let name = String(need.dropFirst(6))
            guard let blob = index.wheels[name] else { return "the copy's index has no \(name)" }
            return whole(Paths.child(wheels, name), blob, name)
        }
        if need.hasPrefix("gem:") {
            let name = String(need.dropFirst(4))
            guard let blob = index.gems[name] else { return "the copy's index has no \(name)" }
            return whole(Paths.child(gems, name), blob, name)
        }
        if need.hasPrefix("build:") {
            let key = String(need.dropFirst(6))
            guard let b = index.builds[key] else { return "the copy's index has no build \(key)" }
            for (blob, what) in [(b.manifest, "manifest"), (b.config, "config"), (b.layer, "layer")] {
                if let problem = whole(Paths.child(root, CopyIndex.filePath(blob.sha256)), blob, "the build's \(what)") { return problem }
            }
            return nil
        }
        return nil
    }

    /// Copies the file answering `url` to `destination`, checking it against the index: the
    /// bytes' SHA-256, or why it cannot.
    public func copy(_ url: String, to destination: String) -> Result<String, HTTPFailure> {
        guard let (path, blob) = file(for: url) else { return .failure(notInCopy(url)) }
        try? fs.remove(destination)
        do { try fs.copy(path, to: destination) } catch {
            return .failure(HTTPFailure(.unreadableInCopy(url: URLRedaction.text(url), copy: label, detail: "\(error)")))
        }
        guard let (sum, _) = Hashing.sha256(file: destination) else {
            return .failure(HTTPFailure(.unreadableCopied(destination)))
        }
        guard sum == blob.sha256 else { return .failure(damaged(url, sum, blob)) }
        return .success(sum)
    }

    /// The bytes answering `url`, checked against the index.
    public func bytes(_ url: String, limit: Int) -> Result<[UInt8], HTTPFailure> {
        guard let (path, blob) = file(for: url) else { return .failure(notInCopy(url)) }
        let bytes: [UInt8]
        do { bytes = try fs.read(path, limit: limit) } catch {
            return .failure(HTTPFailure(.unreadableInCopy(url: URLRedaction.text(url), copy: label, detail: "\(error)")))
        }
        let sum = Hashing.sha256(bytes)
        guard sum == blob.sha256 else { return .failure(damaged(url, sum, blob)) }
        return .success(bytes)
    }

    func notInCopy(_ url: String) -> HTTPFailure {
        HTTPFailure(.notInCopy(url: URLRedaction.text(url), copy: label))
    }

    func damaged(_ url: String, _ sum: String, _ blob: CopyIndex.Blob) -> HTTPFailure {
        HTTPFailure(.damagedInCopy(url: URLRedaction.text(url), copy: label, sha256: sum, expected: blob.sha256))
    }
}
