import Archive
import Foundation
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
    var downloader: Downloader { Downloader(http: http, retryDelays: [0.25, 0.5, 1, 2], fs: fs) }

    static let field = "prebuilt"

    /// The bundle's URL for `entry`: the manifest's template with `{version}` and `{tag}`.
    static func url(_ request: ToolRequest, _ entry: LockedTool) -> String? {
        guard request.options.git.prebuilt, let template = request.options.git.bundle else { return nil }
        let tag = GitLockRecord(entry.fields).tag ?? entry.version.text
        return template.replacingOccurrences(of: "{version}", with: entry.version.text).replacingOccurrences(of: "{tag}", with: tag)
    }

    /// At lock time: the lock fields that choose the bundle, or none when there is no bundle
    /// to try, or it does not provide the pinned products (then the tool is built).
    func choose(_ entry: LockedTool, for request: ToolRequest, cache: String) async throws(TackError) -> [String: LockValue] {
        guard entry.fields[Self.field] == nil, let url = Self.url(request, entry) else { return [:] }
        let tool = "\(entry.name) \(entry.version)"
        let file = try await downloader.fetch(url, expected: nil, from: "", tool: tool, platform: platform.description, cache: cache, offline: false) { _ in }
        let scratch = cache + "/.bundle-\(getpid())-\(UUID().uuidString)"
        defer { try? fs.remove(scratch) }
        try fs.makeDirectory(scratch)
        do { _ = try SafeExtractor.extract(file.path, into: scratch, limits: limits) } catch {
            throw TackError("the artifact bundle of \(tool) at \(Redact.url(url)) is not an archive tack can safely extract: \(error.message)")
        }
        let found = try ArtifactBundle.find(in: scratch, fs: fs, tool: tool)
        let provided = Set(found.bundle.executables.map(\.name))
        let wanted = request.options.git.products
        guard wanted.isEmpty ? !provided.isEmpty : Set(wanted).isSubset(of: provided) else { return [:] }
        return [Self.field: .map(["url": url, "sha256": file.sum])]
    }

    /// At install time: the install from the locked bundle, or nil when the lock names none,
    /// the entry now builds, or the bundle has no variant for this machine (then it is built).
    func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome? {
        guard !job.build, case .map(let chosen)? = job.locked.fields[Self.field] else { return nil }
        let tool = "\(job.locked.name) \(job.locked.version)"
        guard let url = Self.url(job.request, job.locked) else { return nil }
        // The lock may only choose the bundle the manifest names, and only by its checksum.
        guard chosen["url"] == url, let sum = chosen["sha256"]?.lowercased(), Checksum.isSHA256(sum) else {
            throw TackError("tack.lock's prebuilt bundle of \(tool) is not the manifest's `artifactbundle:` (\(Redact.url(url))) with a SHA-256 — nothing was installed; run `tack lock` again")
        }
        let file = try await downloader.fetch(url, expected: sum, from: "tack.lock says", tool: tool, platform: platform.description,
                                              cache: job.cache, offline: job.offline, report: job.report)
        job.report(.extracting)
        let files = job.directory + "/files"
        try fs.makeDirectory(files)
        do { _ = try SafeExtractor.extract(file.path, into: files, limits: limits) } catch {
            throw TackError("the artifact bundle of \(tool) is not an archive tack can safely extract: \(error.message) — nothing was installed")
        }
        let found = try ArtifactBundle.find(in: files, fs: fs, tool: tool)
        let names = job.request.options.git.products.isEmpty ? found.bundle.executables.map(\.name) : job.request.options.git.products
        var links: [(command: String, path: String)] = []
        for name in names {
            guard let artifact = found.bundle.artifacts[name], let variant = ArtifactBundle.variant(of: artifact, for: platform) else {
                try? fs.remove(files)
                return nil
            }
            guard BinSpec.isSafeRelativePath(variant.path), ToolName.isValidBinaryName(name) else {
                throw TackError("the artifact bundle of \(tool) names \(quoted(variant.path)) for \(name), a path outside the bundle — nothing was installed")
            }
            links.append((name, found.root.isEmpty ? variant.path : found.root + "/" + variant.path))
        }
        try fs.makeDirectory(job.directory + "/bin")
        var binaries: [String] = []
        for (command, path) in links {
            let full = files + "/" + path
            let real = (full as NSString).resolvingSymlinksInPath
            guard real.hasPrefix((files as NSString).resolvingSymlinksInPath + "/"), ExecutableSearch.isExecutable(full) else {
                throw TackError("the artifact bundle of \(tool) has no executable \(path) — nothing was installed")
            }
            do { try fs.makeLink(job.directory + "/bin/" + command, to: "../files/" + path) } catch {
                throw TackError("cannot link bin/\(command): \(error)")
            }
            binaries.append("bin/" + command)
        }
        var outcome = InstallOutcome(binaries: binaries, metadata: ["prebuilt": url],
                                     unshareable: "a prebuilt bundle, downloaded again faster than pulled")
        outcome.prebuilt = true
        return outcome
    }
}
