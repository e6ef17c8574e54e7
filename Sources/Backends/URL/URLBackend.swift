import Archive
import Foundation
import BackendKinds
import TackCore

/// Tools shipped as release archives, bare binaries or Swift artifact bundles on a URL: the URL
/// template rendered for this platform, the download streamed and its SHA-256 checked against
/// the lock (or recorded there the first time), the archive extracted safely, the binaries
/// linked into `bin/` (a bundle's: the variant for this machine's triple).
public struct URLBackend: Backend {
    public let name = "url"
    let http: any HTTPClient
    let platform: Platform
    /// Delays between attempts after a transient failure (server error, timeout, cut connection).
    let retryDelays: [Double]
    /// How large an archive may unpack.
    let limits: SafeExtractor.Limits
    var downloader: Downloader { Downloader(http: http, retryDelays: retryDelays) }

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem
    /// Where a publisher's URLs are fetched from instead (`TACK_PYTHON_MIRROR`, …).
    let mirrors: DownloadMirrors
    /// The trusted root keyless signatures (`signer:`) are checked against.
    let sigstore: SigstoreTrust

    public init(http: any HTTPClient, platform: Platform = .current, retryDelays: [Double] = [0.25, 0.5, 1, 2], limits: SafeExtractor.Limits = .standard,
                mirrors: DownloadMirrors = .none, fs: any FileSystem = LocalFileSystem(), sigstore: SigstoreTrust? = nil) {
        self.fs = fs
        self.sigstore = sigstore ?? SigstoreTrust(rootFile: nil, fs: fs)
        self.mirrors = mirrors
        self.http = http
        self.platform = platform
        self.retryDelays = retryDelays
        self.limits = limits
    }


    /// The URL (from its mirror, if one is set), `bin:` paths and checksum for this platform:
    /// `platforms.<os-arch>` overrides the tool's own fields. `fields`: the version's locked
    /// fields, whose `build` fills `{build}`.
    func target(_ request: ToolRequest, _ version: Version, fields: [String: LockValue] = [:], for platform: Platform? = nil)
        -> (url: String, bin: [String], checksum: String?) {
        let platform = platform ?? self.platform
        let override = request.options.url.platforms[platform.description] ?? [:]
        let extra = Self.templateValues(fields)
        let url = mirrors.apply(platform.render(override["url"] ?? source(of: request), version: version.text, extra: extra))
        // A platform's `bin` is one string: paths separated by spaces.
        let bins = (override["bin"].map { $0.split(separator: " ").map(String.init) } ?? request.options.bin)
            .map { platform.render($0, version: version.text, extra: extra) }
        return (url, bins, override["checksum"] ?? request.options.url.checksum)
    }

    /// What a version's locked fields put in templates: its `build` (python-build-standalone's
    /// release date), checked to be a plain word so a lock cannot steer the URL elsewhere.
    static func templateValues(_ fields: [String: LockValue]) -> [String: String] {
        guard let build = URLLockRecord(fields).build, isPlainWord(build) else { return [:] }
        return ["build": build]
    }

    var signatures: SignatureCheck { SignatureCheck(http: http, downloader: downloader, fs: fs, sigstore: sigstore, mirrors: mirrors) }
    var unpacker: DownloadUnpacker { DownloadUnpacker(fs: fs, platform: platform, limits: limits) }

    /// Where the publisher's signature of the download at `url` is: the key's `url:` template
    /// rendered as the download's, or the download's URL with `.minisig` or `.sig` added.
    func signatureURL(_ key: SigningKey, download url: String, version: Version, fields: [String: LockValue], platform: Platform) -> String {
        guard let template = key.url else { return url + key.scheme.suffix }
        return mirrors.apply(platform.render(template, version: version.text, extra: Self.templateValues(fields)))
    }

    /// Who tack.yml says signs `request`'s downloads: its key or keyless signer, and for
    /// `attested: github` the attestation of the repository whose release the URL downloads.
    func signer(_ request: ToolRequest) throws(TackError) -> SigningKey? {
        guard let key = request.options.url.signingKey else { return nil }
        guard key.scheme == .attestation || key.isProvenance, key.repository == nil else { return key }
        guard let repository = GitHub.repository(ofDownload: source(of: request)) else {
            let instead = key.isProvenance ? "`provenance: { url: …, source: OWNER/REPO }`" : "`attested: { github: OWNER/REPO }`"
            throw TackError("`\(key.isProvenance ? "provenance" : "attested: github")` (\(request.name), set by \(request.origin.describe(home: nil))) needs a download from a GitHub release (https://github.com/OWNER/REPO/releases/download/…) to know the source repository; name it instead: \(instead)")
        }
        return key.attesting(repository)
    }

    /// The error for a lock whose signer is not the key tack.yml names now.
    static func keyChanged(_ tool: String, name: String, platform: String, key: SigningKey, locked: String) -> TackError {
        let named = key.scheme == .sigstore ? "tack.yml allows the signer \(key.text) (issuer \(key.issuer ?? ""))" : "tack.yml names the \(key.scheme.rawValue) key \(key.id)"
        return TackError("\(named) for \(tool), but tack.lock says \(locked) signed its \(platform) download: the publisher's key changed, or someone changed tack.yml or tack.lock — nothing was installed; if the new key is right, run `tack update \(name)`")
    }

    /// Letters, digits, `.`, `_` and `-`, starting with a letter or digit and with no `..`:
    /// never a path segment that climbs (`..`) or names the current one (`.`).
    static func isPlainWord(_ s: String) -> Bool {
        func alnum(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        guard let first = s.utf8.first, alnum(first), s.count <= 64, !s.contains("..") else { return false }
        return s.utf8.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// Whether the tool's URLs name a build beside the version (so even an exact version
    /// needs the index, which says its newest build).
    static func needsBuild(_ request: ToolRequest) -> Bool {
        let opts = request.options.url
        return ([request.source.identity ?? "", opts.checksumsURL ?? ""] + opts.platforms.values.compactMap { $0["url"] }).contains { $0.contains("{build}") }
    }

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        // An exact pin needs no index: the URL names the version (a wrong one fails at download).
        if let v = request.requirement.exactVersion, case .prefix = request.requirement, !Self.needsBuild(request) { return [AvailableVersion(version: v)] }
        return try await available(of: request)
    }

    public func available(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        guard let index = request.options.url.versionIndex, let url = index["url"], let pattern = index["regex"] else {
            if let v = request.requirement.exactVersion { return [AvailableVersion(version: v)] }
            // With nothing to list, a plain version word (`3.0` in .tool-versions) is that
            // exact version, as asdf reads it.
            if case .prefix(let v) = request.requirement, !SwiftToolchain.isSeries(v) { return [AvailableVersion(version: v)] }
            throw TackError(.noVersionIndex(tool: request.name, setBy: request.origin.describe(home: nil)))
        }
        let body: [UInt8]
        let from = mirrors.apply(url)
        do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(from) } } catch {
            throw TackError("cannot list the versions of \(request.name) from \(from): \(error.message)")
        }
        let regex: Regex<AnyRegexOutput>
        do { regex = try Regex(pattern) } catch { throw TackError("`versions.regex` of \(request.name) is not a valid regular expression: \(error)") }
        // The first group is the version; a group named `lts` (node's index) the LTS line; one
        // named `build` the build it comes in (the newest build of a version wins, and goes in
        // the lock so every machine downloads that one); one named `published` when it was
        // published (an ISO 8601 date or time, what `min_release_age` holds back).
        var found: [Version: AvailableVersion] = [:]
        for match in String(decoding: body, as: UTF8.self).matches(of: regex) {
            guard match.output.count > 1, let text = match.output[1].substring, let v = Version(String(text)) else { continue }
            let lts = match.output["lts"]?.substring.map(String.init)
            let rawDate = match.output["published"]?.substring.map(String.init)
            let published = rawDate.flatMap(ReleaseAge.timestamp)
            let unreadable = rawDate != nil && published == nil ? rawDate : nil
            if let build = match.output["build"]?.substring.map(String.init), Self.isPlainWord(build) {
                if let known = found[v].flatMap({ URLLockRecord($0.fields).build }), !Self.newer(build, than: known) { continue }
                var available = AvailableVersion(version: v, fields: URLLockRecord(build: build).fields, lts: lts)
                available.published = published
                available.unreadableDate = unreadable
                found[v] = available
                continue
            }
            if found[v]?.lts == nil {
                var available = AvailableVersion(version: v, lts: lts)
                available.published = published ?? found[v]?.published
                available.unreadableDate = published == nil ? (unreadable ?? found[v]?.unreadableDate) : nil
                found[v] = available
            }
        }
        return found.values.sorted { $0.version < $1.version }
    }

    /// Whether build `a` is newer than `b`: as numbers when both are (dates, counters), else
    /// as text.
    static func newer(_ a: String, than b: String) -> Bool {
        if let x = UInt64(a), let y = UInt64(b) { return x > y }
        return a > b
    }

    /// One platform's download to hash: its platform, URL, the checksum to insist on, and
    /// where that checksum comes from (for the mismatch message).
    struct PlatformDownload: Sendable {
        var platform: Platform
        var url: String
        var expected: String?
        var from = ChecksumOrigin.manifest
        /// The publisher's signature to check, where tack.yml names a key.
        var signature: (key: SigningKey, url: String)?
    }

    /// The checksum the publisher's checksum file gives for `url`'s download, when the entry
    /// names one (`checksums:`); nil when it names none. A file that cannot be fetched, or
    /// lists no line for the download, is an error: the point of it is not to trust the
    /// first download.
    func publisherChecksum(_ request: ToolRequest, _ version: Version, fields: [String: LockValue], platform: Platform, url: String)
        async throws(TackError) -> (sum: String, from: ChecksumOrigin)? {
        guard let template = request.options.url.checksumsURL else { return nil }
        let file = mirrors.apply(platform.render(template, version: version.text, extra: Self.templateValues(fields)))
        let body: [UInt8]
        do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(file, limit: .checksums) } } catch {
            throw TackError("cannot fetch the checksums of \(request.name) \(version) from \(Redact.url(file)): \(error.message) — nothing was installed")
        }
        let name = Self.fileName(url)
        guard let sum = try PublisherChecksums(String(decoding: body, as: UTF8.self)).sum(for: name, path: URL(string: url)?.path) else {
            throw TackError("the checksums of \(request.name) \(version) at \(Redact.url(file)) list nothing for \(name) — nothing was installed")
        }
        return (sum, .publisher(says: "the publisher's checksums (\(Redact.url(file))) say"))
    }

    /// The download's file name: the URL's last path component, `%2B` and the like decoded.
    static func fileName(_ url: String) -> String {
        let path = URL(string: url)?.path ?? url
        return String(path.split(separator: "/").last ?? Substring(path)).removingPercentEncoding ?? String(path.split(separator: "/").last ?? "")
    }

    /// Each download hashed (into `cache`, not installed), at most `jobs` at once, sorted by
    /// platform: its SHA-256, and the id of the key whose signature it carries where tack.yml
    /// names one (checked with a signature fetched now, never from the cache).
    func hash(_ downloads: [PlatformDownload], tool: String, cache: String, jobs: Int) async -> [(PlatformDownload, Result<(sum: String, signer: String?), TackError>)] {
        let backend = self, downloader = self.downloader, signatures = self.signatures
        let results = await Concurrently.map(downloads, jobs: jobs) { d -> (PlatformDownload, Result<(sum: String, signer: String?), TackError>) in
            do throws(TackError) {
                let file = try await downloader.fetch(d.url, expected: d.expected.map { ($0, d.from) }, tool: tool,
                                                      platform: d.platform.description, cache: cache, offline: false) { _ in }
                try DownloadFormat.checkFormat(file.path, url: d.url)
                var signer: String?
                if let (key, url) = d.signature {
                    signer = try await signatures.verify(file.path, sum: file.sum, key: key, signatureURL: url, cache: cache, fresh: true, tool: "\(tool) (\(d.platform))",
                                                         downloadName: Self.fileName(d.url))
                }
                return (d, .success((file.sum, signer)))
            } catch {
                return (d, .failure(error))
            }
        }
        return results.sorted { $0.0.platform.description < $1.0.platform.description }
    }

    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var record = URLLockRecord(entry.fields)
        let tool = "\(entry.name) \(entry.version)"
        let key = try signer(request)
        // Each platform with no checksum yet: its own URL, downloaded and hashed (not installed).
        var missing: [PlatformDownload] = []
        var problems: [String] = []
        for p in platforms where record.sha256[p.description] == nil {
            let (url, _, manifestChecksum) = target(request, entry.version, fields: entry.fields, for: p)
            guard url != "unsupported" else { continue }
            var download = PlatformDownload(platform: p, url: url, expected: manifestChecksum?.lowercased())
            if let key { download.signature = (key, signatureURL(key, download: url, version: entry.version, fields: entry.fields, platform: p)) }
            if download.expected == nil {
                do throws(TackError) {
                    if let published = try await publisherChecksum(request, entry.version, fields: entry.fields, platform: p, url: url) {
                        (download.expected, download.from) = (published.sum, published.from)
                    }
                } catch {
                    problems.append("\(tool) (\(p)): \(error.message)")
                    continue
                }
            }
            missing.append(download)
        }
        if !problems.isEmpty { throw TackError(problems.joined(separator: "\n")) }
        guard !missing.isEmpty else { return [:] }
        for (d, result) in await hash(missing, tool: tool, cache: cache, jobs: jobs) {
            switch result {
            case .success(let (sum, signer)):
                record.sha256[d.platform.description] = sum
                if let signer { record.signedBy[d.platform.description] = signer }
            case .failure(let error): problems.append("no \(d.platform) download of \(tool) at \(Redact.url(d.url)): \(error.message)")
            }
        }
        if !problems.isEmpty { throw TackError(problems.joined(separator: "\n")) }
        return record.fields
    }

    /// `tack lock --verify --offline` (`URLLockOfflineVerification`).
    public func verifyLockOffline(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String])? {
        await URLLockOfflineVerification(backend: self).verify(entry, for: request, cache: cache)
    }

    /// `tack lock --verify` (`URLLockVerification`).
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        await URLLockVerification(backend: self).verify(entry, for: request, scratch: scratch, jobs: jobs)
    }

    /// `tack mirror`: what `tack lock --verify` fetches is what an install fetches on each
    /// platform (the download, its signature or bundle, the attestations), checked as it is kept.
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        let verified = await verifyLock(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "\(job.locked.name) \(job.locked.version)"
        if let build = URLLockRecord(job.locked.fields).build, !Self.isPlainWord(build) {
            throw TackError("tack.lock's build of \(tool) is \(quoted(build)), not a build name — nothing was installed; run `tack lock` again")
        }
        let (url, bins, manifestChecksum) = target(job.request, job.locked.version, fields: job.locked.fields)
        if url == "unsupported" {
            throw TackError("\(job.locked.name) publishes no binary for \(platform) — pin it with `git:` (its repository) to build it here")
        }
        var record = URLLockRecord(job.locked.fields)
        var locked = record.sha256
        let platformKey = platform.description
        let signingKey = try signer(job.request)
        if let signingKey, let signer = signingKey.contradicts(job.locked, platform: platform) {
            throw Self.keyChanged(tool, name: job.locked.name, platform: platformKey, key: signingKey, locked: signer)
        }
        let expected = (locked[platformKey] ?? manifestChecksum)?.lowercased()
        if let expected, !Checksum.isSHA256(expected) {
            throw TackError("the checksum for \(tool) (\(platformKey)) is not a SHA-256: \(quoted(expected))")
        }
        if expected == nil && job.frozen {
            throw TackError(.noChecksum(tool: tool, of: platformKey, remedy: .lock))
        }
        var from: ChecksumOrigin = locked[platformKey] != nil ? .lock : .manifest
        var expectedSum = expected
        // No checksum yet: the publisher's checksum file, where the entry names one, says it
        // (trust on first use only where the publisher publishes none).
        if expectedSum == nil, !job.offline,
           let published = try await publisherChecksum(job.request, job.locked.version, fields: job.locked.fields, platform: platform, url: url) {
            (expectedSum, from) = (published.sum, published.from)
        }
        let fetched = try await downloader.fetch(url, expected: expectedSum.map { ($0, from) }, tool: tool, platform: platform.description, cache: job.cache, offline: job.offline, report: job.report)
        let file = fetched.path
        try DownloadFormat.checkFormat(file, url: url)
        // The publisher's signature, before anything is extracted.
        if let signingKey {
            job.report(.custom("verifying"))
            let where_ = signatureURL(signingKey, download: url, version: job.locked.version, fields: job.locked.fields, platform: platform)
            record.signedBy[platformKey] = try await signatures.verify(file, sum: fetched.sum, key: signingKey, signatureURL: where_, cache: job.cache, tool: tool,
                                                                       downloadName: Self.fileName(url))
        }
        let learned = expected == nil ? [Learned(expectedSum == nil ? "the checksum of its \(platformKey) download"
                                                                    : "the publisher's checksum of its \(platformKey) download", fetched.sum)] : []
        locked[platformKey] = fetched.sum
        let (binaries, notes) = try unpacker.install(file, url: url, bins: bins, job: job, tool: tool)
        record.sha256 = locked
        var outcome = InstallOutcome(binaries: binaries, lockFields: record.fields, notes: notes)
        outcome.learned = learned
        return outcome
    }
}

extension URLKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        URLBackend(http: e.http(), limits: e.limits, mirrors: e.mirrors, fs: e.fs, sigstore: SigstoreTrust(environment: e.settings.environment, fs: e.fs))
    }
}
