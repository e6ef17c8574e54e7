import Archive
import Foundation
import BackendKinds
import TackCore

/// Swift toolchains from swift.org: releases from its release list
/// (`/api/v1/install/releases.json`), snapshots from its per-branch lists
/// (`/api/v1/install/dev/<branch>/<platform>.json`), archives from download.swift.org's
/// layout. `TACK_SWIFT_MIRROR` replaces both hosts with one base URL.
///
/// Linux: the platform's `.tar.gz`, its SHA-256 checked against the lock, then its `.sig`
/// against swift.org's keys (or `TACK_SWIFT_KEYRING`). macOS: the `.pkg`, its signature
/// checked with `pkgutil --check-signature`, expanded without the installer. The archive's
/// top directory must be the toolchain's; every executable in its `usr/bin` gets a shim.
public struct SwiftBackend: Backend {
    public let name = "swift"
    let http: any HTTPClient
    let runner: any ProcessRunner
    let platform: Platform
    let environment: [String: String]
    /// The text of /etc/os-release (Linux), which says which swift.org platform this is.
    let osRelease: String
    let retryDelays: [Double]
    let limits: SafeExtractor.Limits
    let mirrors: DownloadMirrors

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem

    public init(http: any HTTPClient, runner: any ProcessRunner, environment: [String: String], platform: Platform = .current,
                osRelease: String? = nil, retryDelays: [Double] = [0.25, 0.5, 1, 2], limits: SafeExtractor.Limits = .standard, fs: any FileSystem = LocalFileSystem(),
                mirrors: DownloadMirrors? = nil) {
        self.fs = fs
        self.mirrors = mirrors ?? DownloadMirrors(environment: environment)
        self.http = http
        self.runner = runner
        self.environment = environment
        self.platform = platform
        self.osRelease = osRelease ?? ((try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "")
        self.retryDelays = retryDelays
        self.limits = limits
    }

    var downloader: Downloader { Downloader(http: http, retryDelays: retryDelays) }

    public func source(of request: ToolRequest) -> String { SwiftToolchain.source }

    /// Where release lists are read: swift.org, or its mirror (`TACK_SWIFT_MIRROR`, a rule of
    /// `DownloadMirrors` like every other).
    var siteURL: String { mirrors.base(Self.site) }
    /// Where archives are downloaded: download.swift.org, or its mirror.
    var downloadURL: String { mirrors.base(Self.downloads) }
    /// The mirror in force, if any.
    var mirror: String? { siteURL == Self.site && downloadURL == Self.downloads ? nil : siteURL }
    static let site = "https://www.swift.org"
    static let downloads = "https://download.swift.org"

    // MARK: Versions

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        if case .prefix(let v) = request.requirement, case .snapshot(let branch, _)? = SwiftToolchain.name(v) {
            return try await snapshots(branch: branch, request: request)
        }
        // The tag is derived from the version, never taken from the list (which `target`
        // checks before anything is downloaded).
        return try await releaseList.releases().map { release in
            var available = AvailableVersion(version: release.version, fields: ["tag": .string(SwiftToolchain.releaseTag(release.version))])
            available.sdks = SwiftSDK.all.map(\.name).filter { release.sdks[$0] != nil }
            return available
        }
    }

    /// Releases, and snapshots when the request names a snapshot series (`ls-remote --snapshots`).
    public func available(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        try await versions(of: request)
    }

    /// swift.org's lists of releases and snapshots (`SwiftReleaseList`).
    var releaseList: SwiftReleaseList {
        SwiftReleaseList(downloader: downloader, http: http, siteURL: siteURL, source: mirror == nil ? "swift.org" : "TACK_SWIFT_MIRROR")
    }

    func snapshots(branch: String, request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        let target = try swiftPlatform(request, available: nil)
        return try await releaseList.snapshots(branch: branch, identifier: target.identifier, arch: target.arch)
    }

    // MARK: Platform

    /// The swift.org platform to install for: the pin's `platform:`, macOS, or this Linux
    /// distribution. `available` (a release's platforms) checks that a build exists.
    func swiftPlatform(_ request: ToolRequest, available: [String: [String]]?, version: Version? = nil) throws(TackError) -> SwiftPlatform {
        let arch = SwiftPlatform.arch(of: platform)
        let tool = version.map { "swift \($0)" } ?? "swift"
        let chosen = request.options.toolchainPlatform
        let machine = SwiftPlatform.forMachine(platform, osRelease: osRelease, chosen: chosen)
        // Without a release's platforms: this machine's, as far as it can be told.
        guard let available else {
            guard let machine else { throw unknownDistribution(tool) }
            return machine
        }
        if let machine, machine.isMacOS { return machine }
        if let machine, let chosen {
            guard available[chosen]?.contains(arch) ?? false else {
                throw TackError("\(tool) has no \(chosen) build for \(arch) (platform: \(chosen), set by \(request.origin.describe(home: nil))); swift.org builds it for \(Self.list(available, arch: arch))")
            }
            return machine
        }
        let candidates = SwiftPlatform.candidates(osRelease: osRelease)
        if let id = candidates.first(where: { available[$0]?.contains(arch) ?? false }) {
            return SwiftPlatform(identifier: id, arch: arch)
        }
        let this = candidates.first ?? "this distribution"
        throw TackError("\(tool) has no build for \(this) on \(arch); swift.org builds it for \(Self.list(available, arch: arch)) — choose one with `swift: { version: \(version?.text ?? "…"), platform: NAME }` in tack.yml (set by \(request.origin.describe(home: nil)))")
    }

    func unknownDistribution(_ tool: String) -> TackError {
        TackError("tack cannot tell which swift.org platform this Linux is (/etc/os-release names none it knows) — choose one with `swift: { version: …, platform: ubuntu2204 }` in tack.yml")
    }

    static func list(_ platforms: [String: [String]], arch: String) -> String {
        let names = platforms.filter { $0.key != "macos" && $0.value.contains(arch) }.keys.sorted()
        return names.isEmpty ? "no Linux platform on \(arch)" : names.joined(separator: ", ")
    }

    /// Where one toolchain's archive lives, below the download host.
    struct Target {
        var platform: SwiftPlatform
        var tag: String
        var archive: String
        var path: String
    }

    func target(_ locked: LockedTool, _ request: ToolRequest) async throws(TackError) -> Target {
        let v = locked.version
        var tag = SwiftLockRecord(locked.fields).tag ?? SwiftToolchain.releaseTag(v)
        guard tag.hasPrefix("swift-"), Version(word: tag) != nil else { throw TackError("tack.lock's tag for swift \(v) is not a swift.org tag: \(quoted(tag))") }
        // The tag is derived from the version: a lock that names another toolchain's tag
        // (another signed release) is refused, never installed under this version's name.
        guard SwiftToolchain.tag(tag, names: v) else {
            throw TackError("tack.lock's tag for swift \(v) is \(quoted(tag)), which names another toolchain — nothing was installed; run `tack lock` again")
        }
        let p: SwiftPlatform
        let branchDirectory: String
        switch SwiftToolchain.name(v) {
        case .snapshot(let branch, _?)?:
            p = try swiftPlatform(request, available: nil, version: v)
            branchDirectory = SwiftToolchain.snapshotDirectory(branch: branch)
        case .release?:
            // The lock already says which archive this platform uses: no list needed.
            if let recorded = lockedPath(locked, platform: try? swiftPlatform(request, available: nil, version: v)) {
                return recorded
            }
            let all = try await releaseList.releases()
            guard let release = all.first(where: { $0.version.text == v.text }) ?? all.first(where: { $0.version == v }) else { throw TackError("swift.org lists no Swift \(v) release — run `tack ls-remote swift` for the versions it has") }
            p = try swiftPlatform(request, available: release.platforms, version: v)
            guard SwiftToolchain.tag(release.tag, names: v) else {
                throw TackError("\(siteURL) lists swift \(v) with the tag \(quoted(release.tag)), which names another toolchain — nothing was installed; is \(mirror == nil ? "swift.org" : "TACK_SWIFT_MIRROR") right?")
            }
            tag = release.tag
            branchDirectory = SwiftToolchain.releaseDirectory(v)
        default:
            throw TackError("`\(v)` is not a Swift toolchain name; write a release like 6.0.3 or a snapshot like main-snapshot-2024-08-30")
        }
        let archive = "\(tag)-\(p.archiveSuffix).\(p.archiveExtension)"
        return Target(platform: p, tag: tag, archive: archive, path: "\(branchDirectory)/\(p.directory)/\(tag)/\(archive)")
    }

    /// The archive the lock records for `platform`, when it records one.
    func lockedPath(_ locked: LockedTool, platform: SwiftPlatform?) -> Target? {
        let record = SwiftLockRecord(locked.fields)
        guard let platform, let path = record.path[platform.description], let tag = record.tag else { return nil }
        let parts = path.split(separator: "/")
        // `<branch dir>/<platform dir>/<tag>/<archive>`, each a plain name.
        guard parts.count == 4, parts.allSatisfy({ $0 != ".." && $0 != "." && Version(word: String($0)) != nil }),
              SwiftToolchain.tag(tag, names: locked.version), parts[0] == SwiftToolchain.branchDirectory(locked.version) ?? "",
              parts[1] == platform.directory, parts[2] == tag,
              parts[3] == "\(tag)-\(platform.archiveSuffix).\(platform.archiveExtension)" else { return nil }
        return Target(platform: platform, tag: tag, archive: String(parts[3]), path: path)
    }

    // MARK: Install

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "swift \(job.locked.version)"
        let t = try await target(job.locked, job.request)
        let key = t.platform.description
        var record = SwiftLockRecord(job.locked.fields)
        let expected = record.sha256[key]?.lowercased()
        if let expected, !Checksum.isSHA256(expected) {
            throw TackError("the checksum for \(tool) (\(key)) is not a SHA-256: \(quoted(expected))")
        }
        if expected == nil && job.frozen {
            throw TackError(.noChecksum(tool: tool, of: key, remedy: .installOnce))
        }
        let url = downloadURL + "/" + t.path
        // The SHA-256 first (a lock's checksum is checked before anything else is believed),
        // then the signature.
        let file = try await downloader.fetch(url, expected: expected.map { ($0, .lock) }, tool: tool, platform: key, cache: job.cache, offline: job.offline, report: job.report)
        job.report(.custom("verifying"))
        let signer: String
        if t.platform.isMacOS {
            signer = try await signatures.checkPackageSignature(file.path, tool: tool)
        } else {
            signer = try await signatures.checkSignature(file.path, url: url, tool: tool)
        }
        if let lockedSigner = record.signedBy[key], lockedSigner.uppercased() != signer.uppercased() {
            throw TackError("\(tool) (\(key)) is signed by \(OpenPGP.spaced(signer)), but tack.lock says \(OpenPGP.spaced(lockedSigner)) signed it — nothing was installed")
        }
        job.report(.extracting)
        var notes: [String] = []
        let top = try t.platform.isMacOS ? expandPackage(file.path, job: job, tool: tool, notes: &notes) : extract(file.path, target: t, job: job, tool: tool, notes: &notes)
        try SwiftPMWrapper(fs: fs).install(usrBin: job.directory + "/" + top + "/usr/bin", top: top, tool: tool)
        let binaries = try linkBinaries(top: top, job: job, tool: tool)
        try await checkIdentity(top: top, target: t, job: job, tool: tool)
        let learned = expected == nil ? [Learned("the checksum and signer of its \(key) archive", file.sum)] : []
        record.record(key, sha256: file.sum, signer: signer, archive: t.archive, path: t.path)
        record.tag = t.tag
        var outcome = InstallOutcome(binaries: binaries, metadata: ["platform": key], lockFields: record.fields, notes: notes)
        outcome.learned = learned
        return outcome
    }

    // MARK: Every platform

    /// This backend as it installs on `other`: macOS's package for a Mac; for Linux the pin's
    /// `platform:`, else this machine's distribution when it runs Linux.
    func on(_ other: Platform) -> SwiftBackend {
        SwiftBackend(http: http, runner: runner, environment: environment, platform: other,
                     osRelease: Platform.machine.os == "linux" ? osRelease : "", retryDelays: retryDelays, limits: limits, fs: fs)
    }

    /// The archive `platform` installs, with a message that says how to name a Linux
    /// distribution when this machine cannot tell.
    func target(_ entry: LockedTool, _ request: ToolRequest, for platform: Platform) async throws(TackError) -> Target {
        let there = on(platform)
        if platform.os == "linux", request.options.toolchainPlatform == nil, SwiftPlatform.candidates(osRelease: there.osRelease).isEmpty {
            throw TackError("swift.org builds a toolchain for each Linux distribution, and tack cannot tell from this machine which one \(platform) runs — name it with `swift: { version: \(entry.version), platform: ubuntu2204 }` in tack.yml (set by \(request.origin.describe(home: nil)))")
        }
        return try await there.target(entry, request)
    }

    /// What signed a downloaded archive: the OpenPGP key of a Linux archive's `.sig` (checked
    /// here, on any machine), or a macOS package's certificate (checked by pkgutil on a Mac;
    /// elsewhere read from the package, for a Mac to check when it installs).
    func signer(of file: String, target t: Target, url: String, tool: String) async throws(TackError) -> String {
        guard t.platform.isMacOS else { return try await signatures.checkSignature(file, url: url, tool: tool) }
        if Platform.machine.os == "darwin" { return try await signatures.checkPackageSignature(file, tool: tool) }
        do { return Hashing.sha256(try XarPackage.signingCertificate(file)).uppercased() } catch {
            throw TackError("\(tool): \(error.message) — tack locks no toolchain whose signer it cannot name")
        }
    }

    /// Each target's archive downloaded into `cache` (at most `jobs` at once), with its SHA-256
    /// and its signer; `keep: false` removes each download once it is checked.
    func downloadAndCheck(_ targets: [Target], tool: String, into cache: String, keep: Bool, jobs: Int) async -> [Result<(sum: String, signer: String), TackError>] {
        await Concurrently.map(targets, jobs: jobs) { t -> Result<(sum: String, signer: String), TackError> in
            let url = downloadURL + "/" + t.path
            let label = "\(tool) (\(t.platform))"
            do throws(TackError) {
                let file = try await downloader.fetch(url, expected: nil, tool: label, platform: t.platform.description, cache: cache, offline: false) { _ in }
                defer { if !keep { try? fs.remove(file.path) } }
                return .success((file.sum, try await signer(of: file.path, target: t, url: url, tool: label)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `tack lock` for the platforms whose archive the entry does not record yet: each
    /// downloaded (through the download cache, at most `jobs` at once), its signature checked,
    /// and its archive, path, SHA-256 and signer recorded.
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var record = SwiftLockRecord(entry.fields)
        // An install's new entry (no platform to complete): the install records the archive
        // it downloads and verifies (and learns an SDK another project installed). `tack lock`
        // (this platform among `platforms`) records it here, so the lock alone is enough for
        // a frozen install.
        if record.sha256.isEmpty && platforms.isEmpty { return [:] }
        // The SDKs serve every platform: one archive each, locked once.
        let sdks = try await lockSDKs(entry, cache: cache)
        let tool = "swift \(entry.version)"
        var targets: [Target] = []
        for platform in platforms {
            let t = try await target(entry, request, for: platform)
            guard record.sha256[t.platform.description] == nil, !targets.contains(where: { $0.platform == t.platform }) else { continue }
            targets.append(t)
        }
        guard !targets.isEmpty else { return sdks }
        let results = await downloadAndCheck(targets, tool: tool, into: cache, keep: true, jobs: jobs)
        var problems: [String] = []
        for (t, result) in zip(targets, results) {
            switch result {
            case .failure(let error): problems.append(error.message)
            case .success(let (sum, signer)):
                record.record(t.platform.description, sha256: sum, signer: signer, archive: t.archive, path: t.path)
            }
        }
        guard problems.isEmpty else { throw TackError(problems.joined(separator: "\n")) }
        record.tag = targets[0].tag
        return record.fields.merging(sdks) { _, sdk in sdk }
    }

    /// `tack lock --verify`: every platform's archive downloaded again (never from the cache),
    /// its SHA-256 and signer compared with the lock's.
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let toolchains = await verifyToolchains(entry, scratch: scratch, jobs: jobs)
        let sdks = await verifySDKs(entry, scratch: scratch)
        return (toolchains.checked + sdks.checked, toolchains.problems + sdks.problems)
    }

    /// `tack mirror`: every platform's archive and signature, and each SDK's, as `tack lock
    /// --verify` fetches and checks them (an install from the copy needs no release list).
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        let verified = await verifyLock(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }

    func verifyToolchains(_ entry: LockedTool, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let record = SwiftLockRecord(entry.fields)
        guard !record.sha256.isEmpty else { return (0, []) }
        let sums = record.sha256, signers = record.signedBy
        let tool = "swift \(entry.version)"
        if let tag = record.tag, !SwiftToolchain.tag(tag, names: entry.version) {
            return (0, ["\(tool): tack.lock's tag is \(quoted(tag)), which names another toolchain — run `tack lock` to write it again"])
        }
        var problems: [String] = []
        var targets: [Target] = []
        for key in sums.keys.sorted() {
            let platform = Self.swiftPlatform(key: key)
            guard let platform, let t = lockedPath(entry, platform: platform) else {
                problems.append("\(tool): tack.lock records a checksum for \(key) but no archive path for it — run `tack lock` to write it again")
                continue
            }
            targets.append(t)
        }
        let results = await downloadAndCheck(targets, tool: tool, into: scratch + "/swift", keep: false, jobs: jobs)
        var checked = 0
        for (t, result) in zip(targets, results) {
            let key = t.platform.description
            switch result {
            case .failure(let error): problems.append("cannot verify \(tool) (\(key)): \(error.message)")
            case .success(let (sum, signer)):
                checked += 1
                if let locked = sums[key], !Checksum.same(locked, sum) {
                    problems.append("\(tool) (\(key)): tack.lock says \(locked), but \(downloadURL)/\(t.path) now serves \(sum)")
                } else if let locked = signers[key], locked.uppercased() != signer.uppercased() {
                    problems.append("\(tool) (\(key)): signed by \(OpenPGP.spaced(signer)) now, but tack.lock says \(OpenPGP.spaced(locked))")
                }
            }
        }
        return (checked, problems)
    }

    /// The swift.org platform a lock key names: `osx`, `ubuntu22.04`, `debian12-aarch64`.
    static func swiftPlatform(key: String) -> SwiftPlatform? {
        if key == "osx" { return SwiftPlatform(identifier: "macos", arch: "universal") }
        let aarch64 = key.hasSuffix("-aarch64")
        let name = aarch64 ? String(key.dropLast("-aarch64".count)) : key
        guard SwiftPlatform.isValidIdentifier(name) else { return nil }
        return SwiftPlatform(identifier: SwiftPlatform.identifier(name), arch: aarch64 ? "aarch64" : "x86_64")
    }

    /// Who signed a download (`SwiftSignatures`).
    var signatures: SwiftSignatures { SwiftSignatures(downloader: downloader, http: http, runner: runner, environment: environment, fs: fs) }

    /// The archive extracted into `files/`; its one top directory must be the toolchain's.
    /// What the user should know of it (setuid bits removed) goes into `notes`.
    func extract(_ file: String, target t: Target, job: InstallJob, tool: String, notes: inout [String]) throws(TackError) -> String {
        let files = job.directory + "/files"
        try fs.makeDirectory(files)
        do { notes += ExtractionNotes.of(try SafeExtractor.extract(file, into: files, limits: limits), tool: tool) } catch {
            throw TackError("the archive of \(tool) (\(t.archive)) cannot be extracted: \(error.message) — nothing was installed")
        }
        let expected = "\(t.tag)-\(t.platform.archiveSuffix)"
        let top = (try? fs.list(files)) ?? []
        guard top == [expected] else {
            throw TackError("the archive of \(tool) holds \(top.isEmpty ? "nothing" : top.sorted().prefix(3).joined(separator: ", ")), not the toolchain directory \(expected) — nothing was installed")
        }
        return "files/" + expected
    }

    /// A macOS `.pkg` (a xar archive) expanded without the installer: its payload (a
    /// compressed cpio archive) extracted into `files/<tag>.xctoolchain`.
    func expandPackage(_ file: String, job: InstallJob, tool: String, notes: inout [String]) throws(TackError) -> String {
        let expanded = job.scratch + "/pkg"
        try fs.makeDirectory(expanded)
        do { _ = try SafeExtractor.extract(file, into: expanded, limits: limits) } catch {
            throw TackError("the package of \(tool) cannot be expanded: \(error.message) — nothing was installed")
        }
        let payloads = fs.walk(expanded).filter { Paths.basename($0) == "Payload" }.sorted()
        guard let payload = payloads.first else { throw TackError("the package of \(tool) has no Payload — nothing was installed") }
        let top = "files/" + job.locked.version.text + ".xctoolchain"
        try fs.makeDirectory(job.directory + "/" + top)
        do { notes += ExtractionNotes.of(try SafeExtractor.extract(expanded + "/" + payload, into: job.directory + "/" + top, limits: limits), tool: tool) } catch {
            throw TackError("the payload of \(tool)'s package cannot be extracted: \(error.message) — nothing was installed")
        }
        // The payload may hold the toolchain at its top or inside `…xctoolchain/`.
        if fs.info(job.directory + "/" + top + "/usr/bin/swift") != nil { return top }
        let inner = fs.walk(job.directory + "/" + top)
            .filter { $0.hasSuffix("/usr/bin/swift") }.sorted { $0.count < $1.count }.first
        guard let inner else { throw TackError("the package of \(tool) holds no usr/bin/swift — nothing was installed") }
        return top + "/" + String(inner.dropLast("/usr/bin/swift".count))
    }

    /// A release's `swift --version` names its tag (`Swift version 6.0.3 (swift-6.0.3-RELEASE)`):
    /// a signed archive of another release under this version's name is refused.
    func checkIdentity(top: String, target t: Target, job: InstallJob, tool: String) async throws(TackError) {
        guard case .release? = SwiftToolchain.name(job.locked.version) else { return }
        let swift = job.directory + "/" + top + "/usr/bin/swift"
        let out: ProcessOutput
        do { out = try await runner.run(swift, ["--version"], directory: job.scratch, environment: environment) } catch {
            throw TackError("cannot run the swift of \(tool) to check its version: \(error.message) — nothing was installed")
        }
        guard out.status == 0, out.output.contains("(\(t.tag))") else {
            let said = out.output.split(separator: "\n").first.map(String.init) ?? ""
            throw TackError("the archive of \(tool) holds another toolchain: its `swift --version` says \(quoted(said)), not \(t.tag) — nothing was installed")
        }
    }

    /// `bin/<name>` for every executable in the toolchain's `usr/bin`.
    func linkBinaries(top: String, job: InstallJob, tool: String) throws(TackError) -> [String] {
        let usrBin = job.directory + "/" + top + "/usr/bin"
        guard fs.isExecutable(usrBin + "/swift") else {
            throw TackError("the archive of \(tool) has no usr/bin/swift — nothing was installed")
        }
        try fs.makeDirectory(job.directory + "/bin")
        var out: [String] = []
        for name in (try? fs.list(usrBin)) ?? [] {
            // A regular executable file (a link to one counts), never a directory.
            guard ToolName.isValidBinaryName(name), !name.hasPrefix("."), fs.isExecutable(usrBin + "/" + name) else { continue }
            do { try fs.makeLink(job.directory + "/bin/" + name, to: "../" + top + "/usr/bin/" + name) } catch {
                throw TackError("cannot link bin/\(name): \(error)")
            }
            out.append("bin/" + name)
        }
        return out
    }
}

extension SwiftKind: BackendMaking {
    /// The toolchain's own downloads run with the process's PATH, not the pinned interpreters'.
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        SwiftBackend(http: e.http(), runner: e.runner(), environment: e.settings.environment, limits: e.limits, fs: e.fs, mirrors: e.mirrors)
    }
}
