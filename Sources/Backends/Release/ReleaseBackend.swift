import Archive
import BackendKinds
import TackCore

/// Tools from a GitHub repository's releases (`release: owner/repo`). Versions are the
/// release tags' (`GitHubReleases`); locking a version records its tag and, for each platform,
/// the asset it downloads (`ReleaseAssetPicker`, or `asset:`) with its SHA-256 — from GitHub's
/// digest or the release's checksum file where they give one, so no other platform's asset is
/// downloaded — and an install downloads this platform's asset from
/// `https://github.com/OWNER/REPO/releases/download/TAG/ASSET` (`TACK_GITHUB_DOWNLOADS`
/// stands in for it), checks it against the lock and unpacks it as a url tool's.
///
/// The lock chooses nothing the manifest does not allow: the repository is the manifest's,
/// the tag must name the locked version, the asset must be a plain file name that reads as
/// this platform's (and contain `asset:` where the manifest gives one).
public struct ReleaseBackend: Backend {
    public let name = "release"
    let http: any HTTPClient
    let fs: any FileSystem
    let platform: Platform
    /// The C library a test gives; nil: this machine's, read only when a download is chosen.
    let givenLibC: ReleaseAssetPicker.LibC?
    let mirrors: DownloadMirrors
    let limits: SafeExtractor.Limits
    let retryDelays: [Double]

    public init(http: any HTTPClient, fs: any FileSystem, platform: Platform = .current, libc: ReleaseAssetPicker.LibC? = nil,
                mirrors: DownloadMirrors = .none, limits: SafeExtractor.Limits = .standard, retryDelays: [Double] = [0.25, 0.5, 1, 2]) {
        self.http = http
        self.fs = fs
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

    func repository(_ request: ToolRequest) -> String { request.source.identity ?? "" }

    /// The releases' versions, newest tag first for a version two tags name; a prerelease
    /// only when the pin names exactly its version.
    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        var found: [Version: AvailableVersion] = [:]
        for release in try await releases.list(repository(request)) {
            guard let version = release.version, found[version] == nil else { continue }
            if release.prerelease, request.requirement.exactVersion != version { continue }
            var available = AvailableVersion(version: version, fields: ReleaseLockRecord(tag: release.tag).fields)
            available.published = release.published
            found[version] = available
        }
        return found.values.sorted { $0.version < $1.version }
    }

    /// Each platform's asset and SHA-256 that the entry lacks.
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var record = ReleaseLockRecord(entry.fields)
        var sums = entry.checksums
        let missing = platforms.filter { record.assets[$0.description] == nil || sums[$0.description] == nil }
        guard !missing.isEmpty else { return [:] }
        let tag = try lockedTag(record, entry)
        let release = try await releases.release(repository(request), tag: tag)
        var problems: [String] = []
        for p in missing {
            do throws(TackError) {
                let (asset, sum) = try await choose(release, for: request, entry.version, platform: p, cache: cache)
                record.assets[p.description] = asset
                sums[p.description] = sum
            } catch {
                problems.append("\(entry.name) \(entry.version) (\(p)): \(error.message)")
            }
        }
        if !problems.isEmpty { throw TackError(problems.joined(separator: "\n")) }
        var fields = record.fields
        fields["sha256"] = .map(sums)
        return fields
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "\(job.locked.name) \(job.locked.version)"
        let key = platform.description
        var record = ReleaseLockRecord(job.locked.fields)
        var sums = job.locked.checksums
        let tag = try lockedTag(record, job.locked)
        var learned: [Learned] = []
        if record.assets[key] == nil || sums[key] == nil {
            if job.frozen {
                throw TackError(.noChecksum(tool: tool, of: "its \(key) asset", remedy: .lock))
            }
            if job.offline { throw TackError("tack.lock has no \(key) asset of \(tool), and choosing one needs GitHub — go online, or lock on a machine that is") }
            let release = try await releases.release(repository(job.request), tag: tag)
            let (asset, sum) = try await choose(release, for: job.request, job.locked.version, platform: platform, libc: libc, cache: job.cache)
            record.assets[key] = asset
            sums[key] = sum
            learned.append(Learned("the \(key) asset of its release and its checksum", "\(asset) \(sum)"))
        }
        guard let asset = record.assets[key], allows(asset, for: job.request, job.locked.version, tag: tag, platform: platform),
              let url = record.downloadURL(repository: repository(job.request), platform: key) else {
            throw TackError("tack.lock's \(key) asset of \(tool) is \(quoted(record.assets[key] ?? "")), which is not a download of \(platform) in the \(repository(job.request)) \(tag) release the manifest allows — nothing was installed; run `tack lock` again")
        }
        let expected = sums[key]?.lowercased()
        guard let expected, Checksum.isSHA256(expected) else {
            throw TackError("tack.lock's \(key) checksum of \(tool) is not a SHA-256: \(quoted(sums[key] ?? "")) — nothing was installed; run `tack lock` again")
        }
        let from: ChecksumOrigin = learned.isEmpty ? .lock : .publisher(says: "GitHub or the release's checksums say")
        let fetched = try await downloader.fetch(mirrors.apply(url), expected: (expected, from), tool: tool, platform: key, cache: job.cache,
                                                 offline: job.offline, report: job.report)
        let unpacker = DownloadUnpacker(fs: fs, platform: platform, limits: limits)
        let bins = job.request.options.bin.map { platform.render($0, version: job.locked.version.text, extra: ["tag": tag]) }
        let binaries: [String], notes: [String]
        if case .compressed = AssetName(asset, project: "").format {
            let name = bins.first.map { BinSpec.split($0).name } ?? job.locked.name
            (binaries, notes) = (try unpacker.installCompressed(fetched.path, name: name, job: job, tool: tool), [])
        } else {
            try DownloadFormat.checkFormat(fetched.path, url: url)
            (binaries, notes) = try unpacker.install(fetched.path, url: url, bins: bins, job: job, tool: tool)
        }
        var fields = record.fields
        fields["sha256"] = .map(sums)
        var outcome = InstallOutcome(binaries: binaries, lockFields: fields, notes: notes)
        outcome.learned = learned
        return outcome
    }

    /// The entry's tag, when it names the entry's version.
    func lockedTag(_ record: ReleaseLockRecord, _ entry: LockedTool) throws(TackError) -> String {
        guard let tag = record.tag, ReleaseLockRecord.isTag(tag), Version(tag: tag) == entry.version else {
            throw TackError("tack.lock's release tag of \(entry.name) \(entry.version) is \(quoted(record.tag ?? "")), which does not name that version — nothing was installed; run `tack lock` again")
        }
        return tag
    }

    /// `asset:` for `platform`, rendered.
    func assetPattern(_ request: ToolRequest, _ version: Version, tag: String, platform: Platform) -> String? {
        request.options.release.asset.map {
            platform.render($0, version: version.text, extra: ["tag": tag, "goarch": platform.arch == "x86_64" ? "amd64" : platform.arch])
        }
    }

    /// Whether the lock may name `asset` for `platform`: a file name that reads as that
    /// platform's download, containing the manifest's `asset:` where it gives one.
    func allows(_ asset: String, for request: ToolRequest, _ version: Version, tag: String, platform: Platform) -> Bool {
        guard ReleaseLockRecord.isAssetName(asset) else { return false }
        if let pattern = assetPattern(request, version, tag: tag, platform: platform) {
            return asset == pattern || asset.lowercased().contains(pattern.lowercased())
        }
        let project = String(repository(request).split(separator: "/").last ?? "")
        let read = AssetName(asset, project: project.lowercased())
        return read.format.rank > 0 && (read.os == platform.os || (read.os == nil && read.arch == platform.arch))
            && (read.arch == nil || read.arch == platform.arch || read.arch == "universal")
    }

    /// `platform`'s asset of `release` and its SHA-256: GitHub's digest, else the release's
    /// checksum file's line for it, else the SHA-256 of the download (into `cache`).
    func choose(_ release: GitHubReleases.Release, for request: ToolRequest, _ version: Version, platform: Platform, libc: ReleaseAssetPicker.LibC = .gnu,
                cache: String) async throws(TackError) -> (asset: String, sha256: String) {
        let repo = repository(request)
        let names = release.assets.map(\.name)
        var pool = names
        if let pattern = assetPattern(request, version, tag: release.tag, platform: platform) {
            if names.contains(pattern) { pool = [pattern] } else { pool = names.filter { $0.lowercased().contains(pattern.lowercased()) } }
            guard !pool.isEmpty else {
                throw TackError("the \(repo) \(release.tag) release has no asset named or containing \(quoted(pattern)) (`asset:` for \(platform)); it has \(names.prefix(12).joined(separator: ", "))")
            }
        }
        let name: String
        switch ReleaseAssetPicker(project: String(repo.split(separator: "/").last ?? ""), platform: platform, libc: libc).pick(pool) {
        case .success(let chosen): name = chosen
        case .failure(let failure): throw TackError(failure.message(tool: request.name, release: "\(repo) \(release.tag)"))
        }
        guard let url = ReleaseLockRecord(tag: release.tag, assets: ["p": name]).downloadURL(repository: repo, platform: "p") else {
            throw TackError("the \(repo) \(release.tag) release's asset \(quoted(name)) cannot be downloaded by its name")
        }
        if let digest = release.assets.first(where: { $0.name == name })?.sha256 { return (name, digest) }
        let tool = "\(request.name) \(version)"
        for file in ReleaseAssetPicker.checksumFiles(for: name, in: names) {
            guard let listURL = ReleaseLockRecord(tag: release.tag, assets: ["p": file]).downloadURL(repository: repo, platform: "p") else { continue }
            let body: [UInt8]
            do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(mirrors.apply(listURL), limit: .checksums) } } catch {
                throw TackError("cannot fetch the checksums of \(tool) from \(Redact.url(mirrors.apply(listURL))): \(error.message)")
            }
            // A bare hash counts only in the asset's own file (`ASSET.sha256`), never in a list.
            let checksums = PublisherChecksums(String(decoding: body, as: UTF8.self))
            let own = file.lowercased().hasPrefix(name.lowercased() + ".")
            if own || checksums.entries.contains(where: { Paths.basename($0.listed) == name }), let sum = try checksums.sum(for: name) { return (name, sum) }
        }
        // Nothing published: the download's own SHA-256, locked (trust on first use).
        let fetched = try await downloader.fetch(mirrors.apply(url), expected: nil, tool: tool, platform: platform.description, cache: cache,
                                                 offline: false) { _ in }
        // A compressed program is checked once decompressed, at install.
        if case .compressed = AssetName(name, project: "").format {} else { try DownloadFormat.checkFormat(fetched.path, url: url) }
        return (name, fetched.sum)
    }

    /// `tack lock --verify`: each platform's asset downloaded again (never from the cache) and
    /// compared with the SHA-256 tack.lock records.
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let record = ReleaseLockRecord(entry.fields)
        let sums = entry.checksums
        let tool = "\(entry.name) \(entry.version)"
        var problems: [String] = []
        var downloads: [(platform: String, url: String)] = []
        for key in sums.keys.sorted() {
            guard let url = record.downloadURL(repository: repository(request), platform: key) else {
                problems.append("\(tool) (\(key)): tack.lock names no asset of it that tack can download")
                continue
            }
            downloads.append((key, url))
        }
        let downloader = self.downloader, mirrors = self.mirrors, fs = self.fs
        let results = await Concurrently.map(downloads, jobs: jobs) { d -> Result<String, TackError> in
            do throws(TackError) {
                let fetched = try await downloader.fetch(mirrors.apply(d.url), expected: nil, tool: tool, platform: d.platform, cache: scratch, offline: false) { _ in }
                try? fs.remove(fetched.path)
                return .success(fetched.sum)
            } catch { return .failure(error) }
        }
        var checked = 0
        for (d, result) in zip(downloads, results) {
            switch result {
            case .success(let sum):
                checked += 1
                let locked = sums[d.platform]?.lowercased() ?? ""
                if sum != locked { problems.append("\(tool) (\(d.platform)): tack.lock says \(locked), but \(Redact.url(d.url)) now serves \(sum)") }
            case .failure(let error): problems.append("\(tool) (\(d.platform)): \(error.message)")
            }
        }
        return (checked, problems)
    }

    /// `tack mirror`: each platform's asset, as `tack lock --verify` fetches and checks it.
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        let verified = await verifyLock(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }
}

extension ReleaseKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        ReleaseBackend(http: e.http(), fs: e.fs, mirrors: e.mirrors, limits: e.limits)
    }
}
