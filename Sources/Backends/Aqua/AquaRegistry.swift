import BackendKinds
import Foundation
import TackCore
import YAML

/// An aqua registry file read: its packages by name and alias, the file's SHA-256 and the tag
/// it was published at (`v4.99.1`, or `local` for `TACK_AQUA_REGISTRY`).
public struct AquaRegistry: Sendable {
    public let packages: [AquaPackage]
    public let tag: String
    public let sha256: String
    let index: [String: Int]

    public init(_ bytes: [UInt8], tag: String, sha256: String, source: String) throws(TackError) {
        let root: Node?
        do { root = try YAMLParser.parse(bytes, aliases: true) } catch {
            throw TackError("\(source):\(error.mark.line):\(error.mark.column): \(error.message)")
        }
        guard case .mapping(let top, _)? = root, case .sequence(let items, _)? = top.first(where: { $0.key.value == "packages" })?.value else {
            throw TackError("\(source) is not an aqua registry (no `packages:` list)")
        }
        var packages: [AquaPackage] = []
        var index: [String: Int] = [:]
        for item in items {
            guard let package = try? AquaPackage(item) else { continue }
            let at = packages.count
            packages.append(package)
            for name in [package.name] + package.aliases where !name.isEmpty && index[name] == nil { index[name] = at }
        }
        self.packages = packages
        self.index = index
        self.tag = tag
        self.sha256 = sha256
    }

    /// The package of that name (or alias).
    public func package(named name: String) -> AquaPackage? { index[name].map { packages[$0] } }

    /// What a short name (`terraform`) means: a package's name or alias, else the one package
    /// whose repository is called that; several such: the candidates.
    public func resolve(_ short: String) -> (package: AquaPackage?, candidates: [String]) {
        if let exact = package(named: short) { return (exact, []) }
        let byRepo = packages.filter { $0.string("repo_name") == short || $0.name.split(separator: "/").last.map(String.init) == short }
        if byRepo.count == 1, let only = byRepo.first { return (only, []) }
        return (nil, byRepo.map(\.name).sorted())
    }

    /// Packages whose name, aliases or description contain `word` (case-insensitive).
    public func search(_ word: String) -> [AquaPackage] {
        let w = word.lowercased()
        return packages.filter { p in ([p.name] + p.aliases + [p.description ?? ""]).contains { $0.lowercased().contains(w) } }
    }
}

/// Registries read in this process, by where they came from: a lock of ten aqua tools reads
/// (and parses) the file once, not twenty times.
final class AquaRegistryCache: @unchecked Sendable {
    private let lock = NSLock()
    private var loaded: [String: AquaRegistry] = [:]

    init() {}

    func registry(_ key: String) -> AquaRegistry? { lock.withLock { loaded[key] } }
    func keep(_ registry: AquaRegistry, as keys: [String]) { lock.withLock { for key in keys { loaded[key] = registry } } }
}

/// What a process fetched for aqua's entries and checked, kept by URL: a checksum file whose
/// signature held (one per release, whatever the platforms a lock covers), and a release's
/// assets as GitHub lists them.
final class AquaFetches: @unchecked Sendable {
    private let lock = NSLock()
    private var checksums: [String: [UInt8]] = [:]
    private var releases: [String: GitHubReleases.Release] = [:]

    init() {}

    func checksumFile(_ url: String) -> [UInt8]? { lock.withLock { checksums[url] } }
    func keepChecksumFile(_ body: [UInt8], from url: String) { lock.withLock { checksums[url] = body } }
    func release(_ key: String) -> GitHubReleases.Release? { lock.withLock { releases[key] } }
    func keepRelease(_ release: GitHubReleases.Release, as key: String) { lock.withLock { releases[key] = release } }
}

/// Where the registry comes from: `TACK_AQUA_REGISTRY` (a path or URL, tag `local`), else
/// aqua-registry's `registry.yaml` at a release tag (the newest, unless the lock names one),
/// downloaded once per tag into `$TACK_HOME/cache/aqua/`.
struct AquaRegistrySource: Sendable {
    static let repository = "aquaproj/aqua-registry"
    let http: any HTTPClient
    let fs: any FileSystem
    let mirrors: DownloadMirrors
    let environment: [String: String]
    let cache: String
    var retryDelays: [Double] = [0.25, 0.5, 1, 2]
    var memo = AquaRegistryCache()

    /// The registry at `tag` (nil: the newest, or `TACK_AQUA_REGISTRY`'s), and when `sha256` is
    /// given, only if the file has that SHA-256.
    func load(tag: String?, sha256: String?, file: String? = nil) async throws(TackError) -> AquaRegistry {
        let custom = environment["TACK_AQUA_REGISTRY"].flatMap { $0.isEmpty ? nil : $0 }
        let key = file.map { "file:" + $0 } ?? custom.map { "custom:" + $0 } ?? "tag:" + (tag == "local" ? "newest" : tag ?? "newest")
        if let known = memo.registry(key), sha256 == nil || known.sha256 == sha256 { return known }
        let registry = try await read(tag: tag, sha256: sha256, file: file)
        memo.keep(registry, as: [key, "tag:" + registry.tag])
        return registry
    }

    func read(tag: String?, sha256: String?, file: String?) async throws(TackError) -> AquaRegistry {
        let (bytes, actualTag, source): ([UInt8], String, String)
        if let file {
            do { (bytes, actualTag, source) = (try fs.read(file, limit: 256 << 20), "local", file) } catch { throw TackError("cannot read the aqua registry \(file): \(error)") }
        } else {
            (bytes, actualTag, source) = try await fetch(tag: tag)
        }
        let sum = SHA256Digest.hex(bytes)
        if let sha256, sum != sha256 {
            throw TackError(.registryChanged(tag: actualTag, source: source, actual: sum, locked: sha256))
        }
        return try AquaRegistry(bytes, tag: actualTag, sha256: sum, source: source)
    }

    /// Where the registry file of `tag` is published.
    static func url(tag: String) -> String { "https://github.com/\(repository)/raw/\(tag)/registry.yaml" }

    func fetch(tag: String?) async throws(TackError) -> (bytes: [UInt8], tag: String, source: String) {
        let downloader = Downloader(http: http, retryDelays: retryDelays, fs: fs)
        if let custom = environment["TACK_AQUA_REGISTRY"], !custom.isEmpty {
            if custom.hasPrefix("http://") || custom.hasPrefix("https://") {
                do { return (try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(custom, limit: .index) }, "local", Redact.url(custom)) } catch {
                    throw TackError("cannot read TACK_AQUA_REGISTRY (\(Redact.url(custom))): \(error.message)")
                }
            }
            do { return (try fs.read(custom, limit: 256 << 20), "local", custom) } catch { throw TackError("cannot read TACK_AQUA_REGISTRY (\(custom)): \(error)") }
        }
        var wanted = tag
        if wanted == nil || wanted == "local" {
            wanted = try await GitHubReleases(http: http, mirrors: mirrors, retryDelays: retryDelays).latest(Self.repository).tag
        }
        guard let wanted, ReleaseLockRecord.isTag(wanted), !wanted.contains("/") else { throw TackError("\(quoted(tag ?? "")) is not a tag of aqua's registry") }
        let cached = "\(cache)/aqua/registry-\(wanted).yaml"
        if let bytes = try? fs.read(cached, limit: 256 << 20) { return (bytes, wanted, cached) }
        let url = mirrors.apply(Self.url(tag: wanted))
        let bytes: [UInt8]
        do { bytes = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url, limit: .index) } } catch {
            throw TackError("cannot download aqua's registry \(wanted) from \(Redact.url(url)): \(error.message)")
        }
        do {
            try fs.createDirectory("\(cache)/aqua")
            try fs.writeAtomically(cached, bytes, permissions: nil, flush: false)
        } catch { throw TackError("cannot keep aqua's registry in \(cache)/aqua: \(error)") }
        return (bytes, wanted, url)
    }
}
