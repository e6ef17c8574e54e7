import Archive
import Foundation
import BackendKinds
import TackCore

/// A git tool's releases published as Swift artifact bundles (`artifactbundle:` beside
/// `git:`): at lock time the bundle of the locked version is chosen when it provides the
/// pinned products (its URL and SHA-256 go in tack.lock, so every machine makes the same
/// choice); at install time it is downloaded, checked against the lock, and its variant for
/// this machine linked, instead of building. `prebuilt: false` or `tack install --build`
/// builds instead.
struct PrebuiltBundle {
    let http: any HTTPClient
    let fs: any FileSystem
    let platform: Platform
    let limits: SafeExtractor.Limits
    let mirrors: DownloadMirrors
    var downloader: Downloader { Downloader(http: http, retryDelays: [0.25, 0.5, 1, 2], fs: fs) }

    static let field = "prebuilt"

    /// The bundle's URL for `entry`: the manifest's template with `{version}` and `{tag}`.
    static func url(_ request: ToolRequest, _ entry: LockedTool) -> String? {
        guard request.options.git.prebuilt, let template = request.options.git.bundle else { return nil }
        let tag = GitLockRecord(entry.fields).tag ?? entry.version.text
        return template.replacingOccurrences(of: "{version}", with: entry.version.text).replacingOccurrences(of: "{tag}", with: tag)
    }

    /// Where a GitHub repository's release bundles may come from (what a lock may name for a
    /// `github:` Swift package with no `artifactbundle:`); nil for other sources, or when the
    /// entry builds with its own command or says `prebuilt: false`.
    static func releasePrefix(_ request: ToolRequest) -> String? {
        guard request.options.git.prebuilt, request.options.git.bundle == nil, request.options.git.build == nil,
              let repo = GitHub.repository(ofGitURL: request.source.identity ?? "") else { return nil }
        return "https://github.com/\(repo)/releases/download/"
    }

    /// What GitHub says of the release for `entry`'s tag.
    enum Release {
        /// Its `*.artifactbundle.zip` asset.
        case bundle(String)
        /// No such release, or one without a bundle: the tool is built (the lock says so).
        case none(String)
        /// GitHub did not answer (offline, rate limit): nothing is recorded, the next lock asks again.
        case unknown
    }

    func release(_ request: ToolRequest, _ entry: LockedTool) async -> Release {
        guard let prefix = Self.releasePrefix(request), let repo = GitHub.repository(ofGitURL: request.source.identity ?? ""),
              let tag = GitLockRecord(entry.fields).tag else { return .unknown }
        let api = mirrors.apply("https://api.github.com/repos/\(repo)/releases/tags/\(tag)")
        // One try, no retries: an offline machine or a rate limit must not slow every lock;
        // an unanswered question is asked again at the next lock.
        let body: [UInt8]
        do { body = try await http.get(api) } catch {
            return error.status == 404 ? .none("\(repo) has no release for \(tag)") : .unknown
        }
        guard let release = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let assets = release["assets"] as? [[String: Any]] else { return .unknown }
        let urls = assets.compactMap { $0["browser_download_url"] as? String }
            .filter { Self.isReleaseBundle($0, prefix: prefix) }
        return urls.sorted().first.map { .bundle($0) } ?? .none("the \(tag) release of \(repo) has no artifact bundle")
    }

    /// Whether `url` may be the lock's bundle for `request`: the manifest's, or an asset of
    /// the pinned GitHub repository's releases.
    static func allowed(_ url: String, _ request: ToolRequest, _ entry: LockedTool) -> Bool {
        if let manifest = Self.url(request, entry) { return url == manifest }
        guard let prefix = releasePrefix(request) else { return false }
        return isReleaseBundle(url, prefix: prefix)
    }

    /// `PREFIX/TAG/NAME.artifactbundle.zip`: one release's bundle under the repository's
    /// downloads, with no segment that climbs, hides a dot in an escape, or adds a query.
    static func isReleaseBundle(_ url: String, prefix: String) -> Bool {
        guard url.hasPrefix(prefix), url.lowercased().hasSuffix(".artifactbundle.zip") else { return false }
        let segments = url.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        return segments.count == 2 && segments.allSatisfy { segment in
            guard let first = segment.first, first.isLetter || first.isNumber else { return false }
            return !segment.contains("..") && !segment.contains { "%?#\\".contains($0) }
        }
    }

    /// At lock time: the lock fields that choose the bundle, or none when there is no bundle
    /// to try, or it does not provide the pinned products (then the tool is built).
    func choose(_ entry: LockedTool, for request: ToolRequest, cache: String) async throws(TackError) -> [String: LockValue] {
        guard entry.fields[Self.field] == nil else { return [:] }
        var chosen = Self.url(request, entry)
        if chosen == nil {
            switch await release(request, entry) {
            case .bundle(let url): chosen = url
            case .none(let why): return [Self.field: .map(["none": why])]
            case .unknown: return [:]
            }
        }
        guard let url = chosen else { return [:] }
        let tool = "\(entry.name) \(entry.version)"
        // A bundle that cannot be fetched chooses nothing (the tool is built, and the next lock
        // tries again); one that is not a bundle tack can read is recorded as built.
        guard let file = try? await downloader.fetch(mirrors.apply(url), expected: nil, tool: tool, platform: platform.description,
                                                     cache: cache, offline: false, report: { _ in }) else { return [:] }
        let scratch = try lockScratchDirectory(in: cache)
        defer { try? fs.remove(scratch) }
        let found: ArtifactBundle.Found
        do {
            _ = try SafeExtractor.extract(file.path, into: scratch, limits: limits)
            found = try ArtifactBundle.find(in: scratch, fs: fs, tool: tool)
        } catch let error as TackError {
            return [Self.field: .map(["none": "its artifact bundle cannot be used: \(error.message)"])]
        } catch {
            return [Self.field: .map(["none": "its artifact bundle is not an archive tack can safely extract: \(error)"])]
        }
        let provided = Set(found.bundle.executables.map(\.name))
        let wanted = request.options.git.products
        guard wanted.isEmpty ? !provided.isEmpty : Set(wanted).isSubset(of: provided) else {
            let missing = wanted.isEmpty ? "any executable" : wanted.filter { !provided.contains($0) }.joined(separator: ", ")
            return [Self.field: .map(["none": "its artifact bundle lacks \(missing)"])]
        }
        return [Self.field: .map(["url": url, "sha256": file.sum])]
    }

    /// `tack mirror`: the bundle the lock chooses (`chosen`), fetched and checked against its
    /// SHA-256.
    func carry(_ chosen: [String: String], tool: String, scratch: String) async throws(TackError) {
        guard let url = chosen["url"], let sum = chosen["sha256"], Checksum.isSHA256(sum) else {
            throw TackError("tack.lock's prebuilt bundle of \(tool) has no URL and SHA-256 — run `tack lock` again")
        }
        let file = try await downloader.fetch(mirrors.apply(url), expected: (sum.lowercased(), .lock), tool: tool, platform: "every platform",
                                              cache: scratch, offline: false) { _ in }
        try? fs.remove(file.path)
    }

    /// At install time: the install from the locked bundle, or nil when the lock names none,
    /// the entry now builds, or the bundle has no variant for this machine (then it is built).
    /// Whether the lock chooses a bundle this install would take.
    func chosen(_ job: InstallJob) -> Bool {
        guard !job.build, job.request.options.git.prebuilt, case .map(let chosen)? = job.locked.fields[Self.field] else { return false }
        return chosen["none"] == nil
    }

    func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome? {
        guard chosen(job), case .map(let chosen)? = job.locked.fields[Self.field] else { return nil }
        let tool = "\(job.locked.name) \(job.locked.version)"
        // The lock may only choose the bundle the manifest names (or, for a `github:` Swift
        // package, one of its releases' bundles), and only by its checksum.
        guard let url = chosen["url"], Self.allowed(url, job.request, job.locked), let sum = chosen["sha256"]?.lowercased(), Checksum.isSHA256(sum) else {
            let allowed = Self.url(job.request, job.locked).map { "the manifest's `artifactbundle:` (\(Redact.url($0)))" }
                ?? Self.releasePrefix(job.request).map { "a bundle of the repository's releases (\($0)…)" } ?? "a bundle the manifest allows"
            throw TackError("tack.lock's prebuilt bundle of \(tool) is not \(allowed) with a SHA-256 — nothing was installed; run `tack lock` again")
        }
        let file = try await downloader.fetch(mirrors.apply(url), expected: (sum, .lock), tool: tool, platform: platform.description,
                                              cache: job.cache, offline: job.offline, report: job.report)
        job.report(.extracting)
        let files = job.directory + "/files"
        try fs.makeDirectory(files)
        let notes: [String]
        do { notes = ExtractionNotes.of(try SafeExtractor.extract(file.path, into: files, limits: limits), tool: tool) } catch {
            throw TackError("the artifact bundle of \(tool) is not an archive tack can safely extract: \(error.message) — nothing was installed")
        }
        let found = try ArtifactBundle.find(in: files, fs: fs, tool: tool)
        let names = job.request.options.git.products.isEmpty ? found.bundle.executables.map(\.name) : job.request.options.git.products
        guard case .success(let paths) = try found.bundle.variantPaths(names.map { ($0, $0) }, root: found.root, for: platform, tool: tool) else {
            // No variant for this machine: it is built here instead.
            try? fs.remove(files)
            return nil
        }
        try fs.makeDirectory(job.directory + "/bin")
        var binaries: [String] = []
        for (command, path) in paths {
            binaries.append(try InstallLinks.link(command, to: path, directory: job.directory, files: files, fs: fs,
                                                  missing: "the artifact bundle of \(tool) has no executable \(path) — nothing was installed"))
        }
        var outcome = InstallOutcome(binaries: binaries, metadata: ["prebuilt": url], notes: notes,
                                     unshareable: "a prebuilt bundle, downloaded again faster than pulled")
        outcome.prebuilt = true
        return outcome
    }
}
