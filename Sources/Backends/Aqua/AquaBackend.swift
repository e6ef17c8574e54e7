import Archive
import BackendKinds
import Foundation
import TackCore

/// Tools from aqua's registry (`aqua: cli/cli`). The registry entry lists nothing but how a
/// version's download is named; the versions are the GitHub releases of the package's
/// repository (its `version_filter` and `version_prefix` applied). Locking a version records
/// the registry read and, for each platform, the URL the entry renders and its SHA-256 — from
/// the publisher's checksum file where the entry names one, else GitHub's digest of a release
/// asset, else the download's own. An install renders the URL again from the same registry
/// (the lock's URL must be it), downloads, checks and unpacks it.
public struct AquaBackend: Backend {
    public let name = "aqua"
    let http: any HTTPClient
    let fs: any FileSystem
    let platform: Platform
    /// The C library a test gives; nil: this machine's, read only when a download is chosen.
    let givenLibC: ReleaseAssetPicker.LibC?
    let mirrors: DownloadMirrors
    let limits: SafeExtractor.Limits
    let environment: [String: String]
    let cache: String
    let retryDelays: [Double]
    /// The copy being made (`tack mirror`), which keeps the pinned registry file.
    var copy: CopyWriter?

    public init(http: any HTTPClient, fs: any FileSystem, cache: String, environment: [String: String], platform: Platform = .current,
                libc: ReleaseAssetPicker.LibC? = nil, mirrors: DownloadMirrors = .none, limits: SafeExtractor.Limits = .standard,
                retryDelays: [Double] = [0.25, 0.5, 1, 2]) {
        self.http = http
        self.fs = fs
        self.cache = cache
        self.environment = environment
        self.platform = platform
        givenLibC = libc
        self.mirrors = mirrors
        self.limits = limits
        self.retryDelays = retryDelays
    }

    /// This machine's C library (reads /etc/os-release and /lib: asked at install, never when
    /// the backend is made, which every command does).
    var libc: ReleaseAssetPicker.LibC { .of(platform, given: givenLibC, fs: fs) }
    var releases: GitHubReleases { GitHubReleases(http: http, mirrors: mirrors, retryDelays: retryDelays) }
    var downloader: Downloader { Downloader(http: http, retryDelays: retryDelays, fs: fs) }
    /// The registries this backend has read (one backend per process).
    let memo = AquaRegistryCache()
    /// Checksum files and releases this backend has fetched and checked.
    let fetched = AquaFetches()
    var registries: AquaRegistrySource {
        AquaRegistrySource(http: http, fs: fs, mirrors: mirrors, environment: environment, cache: cache, retryDelays: retryDelays, memo: memo)
    }

    func package(_ request: ToolRequest, in registry: AquaRegistry) throws(TackError) -> AquaPackage {
        let name = request.source.identity ?? request.name
        guard let package = registry.package(named: name) else {
            throw TackError("aqua's registry \(registry.tag) has no package \(quoted(name)) (set by \(request.origin.describe(home: nil)))")
        }
        return package
    }

    /// The project's own registry file for `request` (`registry:`, beside the file that pins it).
    func registryFile(_ request: ToolRequest) -> String? {
        guard let path = request.options.aqua.registry else { return nil }
        return path.hasPrefix("/") ? path : Paths.join(Paths.dirname(request.origin.file), path)
    }

    /// The tag's version: the tag without the package's `version_prefix` and a `v`.
    static func version(ofTag tag: String, prefix: String?) -> Version? {
        var t = Substring(tag)
        if let prefix, !prefix.isEmpty {
            guard t.hasPrefix(prefix) else { return nil }
            t = t.dropFirst(prefix.count)
        }
        return Version(String(t))
    }

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        let registry: AquaRegistry
        do { registry = try await registries.load(tag: nil, sha256: nil, file: registryFile(request)) } catch {
            throw TackError("cannot read aqua's registry for \(request.name) (\(request.source.identity ?? "")): \(error.message)")
        }
        let package = try package(request, in: registry)
        guard let repository = package.repository else {
            throw TackError("aqua's entry for \(package.name) names no GitHub repository, so tack cannot list its versions")
        }
        let prefix = package.string("version_prefix")
        var filter: AquaExpression?
        if let text = package.string("version_filter") {
            do { filter = try AquaExpression(text) } catch { throw TackError("aqua's version_filter for \(package.name): \(error.message)") }
        }
        var found: [Version: AvailableVersion] = [:]
        for release in try await releases.list(repository) {
            guard let version = Self.version(ofTag: release.tag, prefix: prefix), found[version] == nil else { continue }
            if release.prerelease, request.requirement.exactVersion != version { continue }
            if let filter {
                let semVer = prefix.map { release.tag.hasPrefix($0) ? String(release.tag.dropFirst($0.count)) : release.tag } ?? release.tag
                guard (try? filter.holds(version: release.tag, semVer: semVer)) == true else { continue }
            }
            var available = AvailableVersion(version: version, fields: AquaLockRecord(tag: release.tag, registry: registry.tag, registrySHA256: registry.sha256).fields)
            available.published = release.published
            found[version] = available
        }
        return found.values.sorted { $0.version < $1.version }
    }

    /// The entry's tag, when it names the entry's version.
    func lockedTag(_ record: AquaLockRecord, _ entry: LockedTool, _ package: AquaPackage) throws(TackError) -> String {
        guard let tag = record.tag, ReleaseLockRecord.isTag(tag), Self.version(ofTag: tag, prefix: package.string("version_prefix")) == entry.version else {
            throw TackError("tack.lock's tag of \(entry.name) \(entry.version) is \(quoted(record.tag ?? "")), which does not name that version — nothing was installed; run `tack lock` again")
        }
        return tag
    }

    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var record = AquaLockRecord(entry.fields)
        var sums = entry.checksums
        let missing = platforms.filter { sums[$0.description] == nil }
        guard !missing.isEmpty else { return [:] }
        let registry = try await registries.load(tag: record.registry, sha256: record.registrySHA256, file: registryFile(request))
        let package = try package(request, in: registry)
        let tag = try lockedTag(record, entry, package)
        (record.registry, record.registrySHA256) = (registry.tag, registry.sha256)
        var problems: [String] = []
        // Not published there: nothing to lock for it (an install there says why).
        for p in missing where package.isPublished(version: tag, platform: p) {
            let download: AquaDownload
            do { download = try package.download(version: tag, platform: p, vars: request.options.aqua.vars) } catch {
                problems.append("\(entry.name) \(entry.version) (\(p)): \(error.message)")
                continue
            }
            do throws(TackError) {
                let sum = try await sha256(of: download, repository: package.repository, tag: tag, tool: "\(entry.name) \(entry.version)", platform: p, cache: cache)
                // Each platform's keyless signatures, checked now: they need only the digest.
                let (signers, _) = try await verifyKeyless(download, path: Self.signaturesPath(cache, sum: sum), sum: sum, tool: "\(entry.name) \(entry.version) (\(p))", cache: cache, fresh: true)
                sums[p.description] = sum
                if !signers.isEmpty { record.signedBy[p.description] = signers }
                record.urls[p.description] = download.url
                record.signatures = download.signatures
            } catch {
                problems.append("\(entry.name) \(entry.version) (\(p)): \(error.message)")
            }
        }
        if !problems.isEmpty { throw TackError(problems.joined(separator: "\n")) }
        var fields = record.fields
        fields["sha256"] = .map(sums)
        return fields
    }

    /// A download's SHA-256 with nothing but the publisher's word where possible: the entry's
    /// checksum file (SHA-256), GitHub's digest of a release asset; else the download's own
    /// (checked against a checksum file of another algorithm on the way).
    func sha256(of download: AquaDownload, repository: String?, tag: String, tool: String, platform: Platform, cache: String) async throws(TackError) -> String {
        let published = try await publishedSum(download, tool: tool)
        if let published, published.algorithm == "sha256" { return published.sum }
        if let repository, download.url.hasPrefix("https://github.com/\(repository)/releases/download/"),
           let digest = await release(repository, tag: tag)?.assets.first(where: { $0.name == download.asset })?.sha256 {
            return digest
        }
        let fetched = try await downloader.fetch(mirrors.apply(download.url), expected: nil, tool: tool, platform: platform.description, cache: cache, offline: false) { _ in }
        try check(fetched.path, against: published, tool: tool, url: download.url)
        if let minisign = download.minisign { try await verifyDownload(fetched.path, sum: fetched.sum, url: download.url, signedWith: minisign, tool: tool, cache: cache) }
        return fetched.sum
    }

    /// The release of `tag` as GitHub lists it, asked once per process; nil when GitHub does
    /// not answer (the download is then hashed instead).
    func release(_ repository: String, tag: String) async -> GitHubReleases.Release? {
        if let known = fetched.release("\(repository)@\(tag)") { return known }
        guard let release = try? await releases.release(repository, tag: tag) else { return nil }
        fetched.keepRelease(release, as: "\(repository)@\(tag)")
        return release
    }

    /// The entry's checksum file's hash for the download, and its algorithm. The file is
    /// fetched and its signature checked once per process: a lock for four platforms reads one.
    func publishedSum(_ download: AquaDownload, tool: String) async throws(TackError) -> (sum: String, algorithm: String)? {
        guard let c = download.checksum else { return nil }
        let url = mirrors.apply(c.url)
        let body: [UInt8]
        // Kept with the keys it was checked with.
        let kept = "\(url) \(c.minisign?.publicKey ?? "") \(c.cosign?.keyURL ?? "") \(c.keyless?.key.text ?? "")"
        if let known = fetched.checksumFile(kept) { body = known } else {
            do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url, limit: .checksums) } } catch {
                throw TackError("cannot fetch the checksums of \(tool) from \(Redact.url(url)): \(error.message) — nothing was installed")
            }
            if let minisign = c.minisign { try await verify(body, from: url, signedWith: minisign, tool: tool) }
            if let cosign = c.cosign { try await verify(body, from: url, signedWith: cosign, tool: tool) }
            if let keyless = c.keyless {
                let (path, sum, name) = try keep(body, from: url, tool: tool)
                _ = try await signatures
                    .verify(path, sum: sum, key: keyless.key, signatureURL: mirrors.apply(keyless.url ?? ""), cache: cache, fresh: true, tool: "\(tool)'s checksums",
                            downloadName: name, label: "cosign", policy: "aqua's registry")
            }
            fetched.keepChecksumFile(body, from: kept)
        }
        let file = try AquaChecksumFile(String(decoding: body, as: UTF8.self), format: c.fileFormat, checksumPattern: c.checksumPattern, filePattern: c.filePattern)
        guard let sum = file.hash(for: download.asset, algorithm: c.algorithm) else {
            throw TackError("the checksums of \(tool) at \(Redact.url(url)) list no \(c.algorithm) for \(download.asset) — nothing was installed")
        }
        return (sum, c.algorithm)
    }

    /// How every signature the registry names is checked (keyless ones against the
    /// environment's trusted root).
    var signatures: SignatureCheck {
        SignatureCheck(http: http, downloader: downloader, fs: fs, sigstore: SigstoreTrust(environment: environment, fs: fs), mirrors: mirrors)
    }

    /// The checksum file `body` (from `url`) kept in the download cache for its signature's
    /// check: its path, SHA-256 and file name.
    func keep(_ body: [UInt8], from url: String, tool: String) throws(TackError) -> (path: String, sum: String, name: String) {
        let sum = SHA256Digest.hex(body)
        let path = "\(cache)/downloads/aqua-checksums-\(sum)"
        do {
            try fs.createDirectory("\(cache)/downloads")
            try fs.writeAtomically(path, body, permissions: nil, flush: false)
        } catch { throw TackError("cannot keep the checksums of \(tool) in \(cache)/downloads: \(error)") }
        return (path, sum, String(url.split(separator: "?").first?.split(separator: "/").last ?? ""))
    }

    /// A download against the publisher's minisign signature of it and the key the registry
    /// names, fetched fresh.
    func verifyDownload(_ path: String, sum: String, url: String, signedWith minisign: AquaDownload.Minisign, tool: String, cache: String) async throws(TackError) {
        let key: SigningKey
        do { key = try SigningKey(.minisign, text: minisign.publicKey) } catch { throw TackError("aqua's registry names a minisign key for \(tool) that tack cannot read: \(error.message)") }
        let name = String(url.split(separator: "?").first?.split(separator: "/").last ?? "")
        _ = try await signatures
            .verify(path, sum: sum, key: key, signatureURL: mirrors.apply(minisign.url), cache: cache, fresh: true, tool: tool, downloadName: name)
    }

    /// The checksum file `body` (from `url`) against the publisher's minisign signature and the
    /// key aqua's (pinned) registry names; nothing from the file is used unless it holds.
    func verify(_ body: [UInt8], from url: String, signedWith minisign: AquaDownload.Minisign, tool: String) async throws(TackError) {
        let key: SigningKey
        do { key = try SigningKey(.minisign, text: minisign.publicKey) } catch { throw TackError("aqua's registry names a minisign key for \(tool) that tack cannot read: \(error.message)") }
        let (path, sum, name) = try keep(body, from: url, tool: tool)
        _ = try await signatures
            .verify(path, sum: sum, key: key, signatureURL: mirrors.apply(minisign.url), cache: cache, fresh: true, tool: "\(tool)'s checksums", downloadName: name)
    }

    /// The checksum file `body` against the publisher's keyed cosign signature, with the
    /// public key fetched from where aqua's registry says it is.
    func verify(_ body: [UInt8], from url: String, signedWith cosign: AquaDownload.Cosign, tool: String) async throws(TackError) {
        let keyURL = mirrors.apply(cosign.keyURL)
        let pem: [UInt8]
        do { pem = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(keyURL, limit: .signature) } } catch {
            throw TackError("cannot fetch the cosign key of \(tool) from \(Redact.url(keyURL)): \(error.message) — nothing was installed")
        }
        let key: SigningKey
        do { key = try SigningKey(.cosign, text: String(decoding: pem, as: UTF8.self)) } catch {
            throw TackError("the cosign key of \(tool) at \(Redact.url(keyURL)) is not one tack reads: \(error.message)")
        }
        let (path, sum, name) = try keep(body, from: url, tool: tool)
        _ = try await signatures
            .verify(path, sum: sum, key: key, signatureURL: mirrors.apply(cosign.signatureURL), cache: cache, fresh: true, tool: "\(tool)'s checksums", downloadName: name)
    }

    /// The download's keyless signatures the registry names (a cosign bundle, GitHub's
    /// attestations, SLSA provenance), each checked against the registry's policy: who signed
    /// (joined by `, `), and what could not be checked (provenance in slsa-github-generator's
    /// old format, which carries no transparency log proof). `fresh`: fetched now, never from
    /// the download cache, and not kept (a lock of another platform).
    func verifyKeyless(_ download: AquaDownload, path: String, sum: String, tool: String, cache: String, fresh: Bool, offline: Bool = false) async throws(TackError) -> (String, [String]) {
        var signers: [String] = [], notes: [String] = []
        let name = String(download.url.split(separator: "?").first?.split(separator: "/").last ?? "")
        for k in download.keyless {
            let url = mirrors.apply(k.url ?? "")
            var fetched: [UInt8]?
            if k.kind == "slsa_provenance", !offline, fresh || (try? fs.read(path + ".slsa_provenance" + k.key.scheme.suffix)) == nil {
                let body: [UInt8]
                do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url, limit: .signature) } } catch {
                    throw TackError("cannot download the SLSA provenance of \(tool) (\(Redact.url(url))): \(error.message) — nothing was installed")
                }
                // slsa-github-generator before 2.1 writes a bare DSSE envelope: its log entry
                // must be looked up online, which tack does not do.
                guard SigstoreTrust.isSigstoreBundle(body) else {
                    notes.append("not verified: the SLSA provenance aqua's registry names for \(tool) is in slsa-github-generator's old format (no transparency log proof in it); its checksum is checked")
                    continue
                }
                fetched = body
            }
            let signer = try await signatures.verify(path, sum: sum, key: k.key, signatureURL: url, cache: cache, fresh: fresh, tool: tool, downloadName: name,
                                                label: k.kind, fetched: fetched, policy: "aqua's registry", offline: offline)
            if !signers.contains(signer) { signers.append(signer) }
        }
        return (signers.joined(separator: ", "), notes)
    }

    /// Where a download's keyless signatures are kept (beside a name its SHA-256 gives, so a
    /// lock of another platform, which never downloads it, keeps them too).
    static func signaturesPath(_ cache: String, sum: String) -> String { "\(cache)/downloads/aqua-\(sum.lowercased())" }

    /// `tack lock --verify --offline` (`AquaLockVerification`).
    public func verifyLockOffline(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String])? {
        await AquaLockVerification(backend: self).verifyOffline(entry, for: request, cache: cache)
    }

    /// `tack lock --verify` (`AquaLockVerification`).
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        await AquaLockVerification(backend: self).verify(entry, for: request, scratch: scratch, jobs: jobs)
    }

    /// `tack mirror` (`AquaLockVerification`).
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        await AquaLockVerification(backend: self).carry(entry, for: request, scratch: scratch, jobs: jobs)
    }

    /// The file against a published hash of another algorithm than SHA-256.
    func check(_ path: String, against published: (sum: String, algorithm: String)?, tool: String, url: String) throws(TackError) {
        guard let published, published.algorithm != "sha256" else { return }
        let algorithm: Digest.Algorithm
        switch published.algorithm {
        case "sha512": algorithm = .sha512
        case "sha1": algorithm = .sha1
        default: return  // md5: libcrypto's legacy digest; the locked SHA-256 is the check
        }
        guard let (digest, _) = Hashing.digest(algorithm, file: path) else { throw TackError("cannot read the download of \(tool)") }
        let actual = Hashing.hex(digest)
        guard actual == published.sum else {
            throw TackError("the download of \(tool) from \(Redact.url(url)) does not match the publisher's \(published.algorithm) (\(published.sum)); got \(actual) — nothing was installed")
        }
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "\(job.locked.name) \(job.locked.version)"
        let key = platform.description
        var record = AquaLockRecord(job.locked.fields)
        var sums = job.locked.checksums
        if job.frozen, record.registrySHA256 == nil || sums[key] == nil {
            throw TackError(.noChecksum(tool: tool, of: record.registrySHA256 == nil ? "its registry" : key, remedy: .lock))
        }
        let registry = try await registries.load(tag: record.registry, sha256: record.registrySHA256, file: registryFile(job.request))
        let package = try package(job.request, in: registry)
        let tag = try lockedTag(record, job.locked, package)
        let download = try package.download(version: tag, platform: platform, libc: libc == .musl ? "musl" : "glibc", vars: job.request.options.aqua.vars)
        if let locked = record.urls[key], locked != download.url {
            throw TackError("tack.lock's \(key) URL of \(tool) is \(Redact.url(locked)), but aqua's registry \(registry.tag) says \(Redact.url(download.url)) — nothing was installed; run `tack lock` again")
        }
        var learned: [Learned] = []
        if sums[key] == nil {
            sums[key] = try await sha256(of: download, repository: package.repository, tag: tag, tool: tool, platform: platform, cache: job.cache)
            learned.append(Learned("the checksum of its \(key) download", sums[key] ?? ""))
        }
        guard let expected = sums[key]?.lowercased(), Checksum.isSHA256(expected) else {
            throw TackError("tack.lock's \(key) checksum of \(tool) is not a SHA-256 — nothing was installed; run `tack lock` again")
        }
        let fetched = try await downloader.fetch(mirrors.apply(download.url), expected: (expected, learned.isEmpty ? .lock : .publisher(says: "the publisher says")),
                                                 tool: tool, platform: key, cache: job.cache, offline: job.offline, report: job.report)
        if let minisign = download.minisign {
            job.report(.custom("verifying"))
            try await verifyDownload(fetched.path, sum: fetched.sum, url: download.url, signedWith: minisign, tool: tool, cache: job.cache)
        }
        if !download.keyless.isEmpty { job.report(.custom("verifying")) }
        let (signers, keylessNotes) = try await verifyKeyless(download, path: Self.signaturesPath(job.cache, sum: fetched.sum), sum: fetched.sum, tool: tool, cache: job.cache, fresh: false)
        if let locked = record.signedBy[key], locked != signers {
            throw TackError("tack.lock says \(locked.isEmpty ? "nobody" : locked) signed the \(key) download of \(tool), but its signatures now say \(signers.isEmpty ? "nobody" : signers) — nothing was installed; if the new signer is right, run `tack update \(job.locked.name)`")
        }
        if !signers.isEmpty { record.signedBy[key] = signers }
        let unpacker = DownloadUnpacker(fs: fs, platform: platform, limits: limits)
        if ["gz", "bz2", "xz", "zst"].contains(download.format) {
            let binaries = try unpacker.installCompressed(fetched.path, name: download.files.first?.name ?? job.locked.name, job: job, tool: tool)
            return outcome(binaries: binaries, notes: keylessNotes, record: record, registry: registry, download: download, sums: sums, key: key, learned: learned, tool: tool)
        }
        let archive = download.format != "raw"
        if archive, !["tar.gz", "tgz", "tar.xz", "txz", "tar.bz2", "tbz2", "tbz", "tar.zst", "tzst", "tar", "zip"].contains(download.format) {
            throw TackError("\(tool)'s download is a \(download.format), which tack does not unpack — nothing was installed")
        }
        try DownloadFormat.checkFormat(fetched.path, url: download.url, archive: archive)
        let bins = download.files.map { $0.src == $0.name ? $0.name : "\($0.src)=\($0.name)" }
        let (binaries, notes) = try unpacker.install(fetched.path, url: download.url, bins: archive ? bins : [download.files.first?.name ?? job.locked.name],
                                                     job: job, tool: tool, archive: archive)
        return outcome(binaries: binaries, notes: notes + keylessNotes, record: record, registry: registry, download: download, sums: sums, key: key, learned: learned, tool: tool)
    }

    /// What an install tells the lock and the user.
    func outcome(binaries: [String], notes: [String], record: AquaLockRecord, registry: AquaRegistry, download: AquaDownload, sums: [String: String],
                 key: String, learned: [Learned], tool: String) -> InstallOutcome {
        var record = record
        (record.registry, record.registrySHA256) = (registry.tag, registry.sha256)
        record.urls[key] = download.url
        record.signatures = download.signatures
        var fields = record.fields
        fields["sha256"] = .map(sums)
        let unverified = download.signatures.isEmpty ? [] : ["not verified (keyless): the \(download.signatures.joined(separator: ", ")) aqua's registry names for \(tool); its checksum is checked"]
        var outcome = InstallOutcome(binaries: binaries, lockFields: fields, notes: notes + unverified)
        outcome.learned = learned
        return outcome
    }
}

extension AquaBackend {
    func entry(_ package: AquaPackage, name: String, registry: AquaRegistry) -> CatalogEntry {
        CatalogEntry(name: name, key: "aqua", identity: package.name, description: package.description ?? "", catalog: "aqua's registry \(registry.tag)")
    }

    /// A short name: a package's name or alias, else the one package whose repository has it.
    /// The newest registry, asked once with no retries: a look-up must not make an offline
    /// `tack use` wait.
    var catalogRegistry: AquaRegistrySource {
        var source = registries
        source.retryDelays = []
        return source
    }

    public func catalogEntry(named name: String) async throws(TackError) -> CatalogAnswer? {
        let registry = try await catalogRegistry.load(tag: nil, sha256: nil)
        let (package, candidates) = registry.resolve(name)
        if let package { return .entry(entry(package, name: name, registry: registry)) }
        return candidates.isEmpty ? nil : .ambiguous(candidates)
    }

    public func searchCatalog(_ word: String) async throws(TackError) -> [CatalogEntry] {
        let registry = try await catalogRegistry.load(tag: nil, sha256: nil)
        return registry.search(word).map { entry($0, name: String($0.name.split(separator: "/").last ?? ""), registry: registry) }
    }
}

extension AquaKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        var backend = AquaBackend(http: e.http(), fs: e.fs, cache: e.settings.store?.cache ?? "/nonexistent", environment: e.settings.environment, mirrors: e.mirrors, limits: e.limits)
        backend.copy = e.copy?.writer
        return backend
    }
}
