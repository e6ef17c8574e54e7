import Foundation
import TackCore

/// A copy being made (`tack mirror DIR`): what the recording HTTP client and the backends
/// fetch is kept under the copy's root, and the index says what answers each URL and what each
/// tool needs. Shared by every backend of the process; written whole by `finish`.
public final class CopyWriter: @unchecked Sendable {
    /// The tool whose needs are being carried (`TOOL VERSION`): what the recording client and
    /// the backends add what they keep to. Set for each tool by `carrying(_:_:)`.
    @TaskLocal static var current: String?

    public let root: String
    let fs: any FileSystem
    private let mutex = PThreadMutex()
    private var index: CopyIndex
    /// Whether the copy's directories exist yet (made at the first thing kept, so a command
    /// that fails before it carries anything writes nothing).
    private var made = false

    /// A copy at `root`: an existing copy there is added to (a second lock, a new platform),
    /// anything else that is not an empty directory is refused.
    public init(root: String, fs: any FileSystem = LocalFileSystem()) throws(TackError) {
        self.root = root
        self.fs = fs
        let indexPath = Paths.child(root, CopyIndex.fileName)
        if fs.info(indexPath) != nil {
            let bytes: [UInt8]
            do { bytes = try fs.read(indexPath, limit: 256 << 20) } catch { throw TackError("cannot read \(indexPath): \(error)") }
            index = try CopyIndex.decode(bytes, place: root)
        } else {
            if fs.isDirectory(root), let entries = try? fs.list(root), !entries.isEmpty {
                throw TackError("\(root) is not empty and is not a copy `tack mirror` made — name a new or empty directory")
            }
            index = CopyIndex()
        }
    }

    /// The copy's directories, made once.
    func makeDirectories() throws(TackError) {
        if mutex.locked({ made }) { return }
        for dir in ["", "files", "git", "wheels", "gems"] {
            do { try fs.createDirectory(Paths.child(root, dir)) } catch { throw TackError("cannot create \(Paths.child(root, dir)): \(error)") }
        }
        mutex.locked { made = true }
    }

    /// Runs `body` as the carrying of `tool`: its record replaced by a new one, and everything
    /// kept while it runs added to its needs.
    public func carrying<T>(_ tool: CopyIndex.Tool, _ body: () async -> T) async -> T {
        let id = "\(tool.name) \(tool.version)"
        mutex.locked {
            index.tools.removeAll { "\($0.name) \($0.version)" == id }
            index.tools.append(tool)
        }
        return await CopyWriter.$current.withValue(id) { await body() }
    }

    /// Adds `need` to the tool being carried.
    func need(_ need: String) {
        guard let id = CopyWriter.current else { return }
        mutex.locked {
            guard let i = index.tools.firstIndex(where: { "\($0.name) \($0.version)" == id }), !index.tools[i].needs.contains(need) else { return }
            index.tools[i].needs.append(need)
        }
    }

    /// Says something about the tool being carried that `install --from` repeats.
    public func note(_ text: String) {
        guard let id = CopyWriter.current else { return }
        mutex.locked {
            guard let i = index.tools.firstIndex(where: { "\($0.name) \($0.version)" == id }), !index.tools[i].notes.contains(text) else { return }
            index.tools[i].notes.append(text)
        }
    }

    /// Keeps the file at `path` (SHA-256 `sum`) as the answer to `url`.
    public func keep(url: String, file path: String, sum: String) throws(TackError) {
        let blob = try store(path, sum: sum.lowercased())
        mutex.locked { index.urls[url] = blob }
        need("url:" + url)
    }

    /// Keeps `bytes` as the answer to `url`.
    public func keep(url: String, bytes: [UInt8]) throws(TackError) {
        try makeDirectories()
        let sum = Hashing.sha256(bytes)
        let target = Paths.child(root, CopyIndex.filePath(sum))
        if fs.info(target)?.size != bytes.count {
            do { try fs.writeAtomically(target, bytes, permissions: 0o644, flush: false) } catch { throw TackError("cannot write \(target): \(error)") }
        }
        mutex.locked { index.urls[url] = CopyIndex.Blob(sha256: sum, size: bytes.count) }
        need("url:" + url)
    }

    /// Where the bare copy of the repository at `url` goes (made by the backend's remotes).
    public func repository(for url: String) throws(TackError) -> String {
        try makeDirectories()
        let relative = "git/" + String(Hashing.sha256(Array(url.utf8)).prefix(24)) + ".git"
        mutex.locked { index.repositories[url] = relative }
        need("git:" + url)
        return Paths.child(root, relative)
    }

    /// Keeps a pip distribution under its own name (pip's and uv's find-links directory).
    public func keepWheel(named name: String, file path: String) throws(TackError) {
        let blob = try named("wheels", name, path)
        mutex.locked { index.wheels[name] = blob }
        need("wheel:" + name)
    }

    /// Keeps a gem file under its own name.
    public func keepGem(named name: String, file path: String) throws(TackError) {
        let blob = try named("gems", name, path)
        mutex.locked { index.gems[name] = blob }
        need("gem:" + name)
    }

    /// Keeps a team cache build (its manifest, config and layer) under `tool/tag`.
    public func keepBuild(tool: String, tag: String, digest: String, manifest: [UInt8], config: String, layer: String) throws(TackError) {
        try makeDirectories()
        let manifestSum = Hashing.sha256(manifest)
        let target = Paths.child(root, CopyIndex.filePath(manifestSum))
        do { try fs.writeAtomically(target, manifest, permissions: 0o644, flush: false) } catch { throw TackError("cannot write \(target): \(error)") }
        guard let c = Hashing.sha256(file: config), let l = Hashing.sha256(file: layer) else { throw TackError("cannot read the build of \(tool) fetched from the team cache") }
        let build = CopyIndex.Build(digest: digest, manifest: .init(sha256: manifestSum, size: manifest.count),
                                    config: try store(config, sum: c.hex), layer: try store(layer, sum: l.hex))
        mutex.locked { index.builds["\(tool)/\(tag)"] = build }
        need("build:\(tool)/\(tag)")
    }

    /// Adds the platforms a lock covers.
    public func cover(_ platforms: [String]) {
        mutex.locked { index.platforms = Array(Set(index.platforms + platforms)).sorted() }
    }

    /// Writes the index (last, so a copy cut short reads as what it was before).
    public func finish(made: String) throws(TackError) {
        try makeDirectories()
        let bytes = mutex.locked { () -> [UInt8] in
            index.made = made
            index.tools.sort { ($0.name, $0.version) < ($1.name, $1.version) }
            return index.encoded()
        }
        let path = Paths.child(root, CopyIndex.fileName)
        do { try fs.writeAtomically(path, bytes, permissions: 0o644, flush: true) } catch { throw TackError("cannot write \(path): \(error)") }
    }

    /// What has been carried so far.
    public var snapshot: CopyIndex { mutex.locked { index } }

    /// `path` linked (or copied) to `files/SUM`, once.
    func store(_ path: String, sum: String) throws(TackError) -> CopyIndex.Blob {
        try makeDirectories()
        let target = Paths.child(root, CopyIndex.filePath(sum))
        if let info = fs.info(target) { return .init(sha256: sum, size: info.size) }
        do { try fs.linkOrCopy(path, to: target) } catch {
            if fs.info(target) == nil { throw TackError("cannot keep \(path) in the copy at \(root): \(error)") }
        }
        return .init(sha256: sum, size: fs.info(target)?.size ?? 0)
    }

    /// `path` copied to `dir/name` (a name that is a plain file name only).
    func named(_ dir: String, _ name: String, _ path: String) throws(TackError) -> CopyIndex.Blob {
        try makeDirectories()
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.hasPrefix(".") else {
            throw TackError("\(quoted(name)) is not a file name tack keeps in a copy")
        }
        guard let (sum, size) = Hashing.sha256(file: path) else { throw TackError("cannot read \(path)") }
        let target = Paths.child(root, dir + "/" + name)
        try? fs.remove(target)
        do { try fs.linkOrCopy(path, to: target) } catch { throw TackError("cannot keep \(name) in the copy at \(root): \(error)") }
        return .init(sha256: sum, size: size)
    }
}
