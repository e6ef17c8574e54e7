import Archive
import Foundation
import Git
import BackendKinds
import TackCore

/// Tools from git repositories: tags listed with libgit2 without cloning; the resolved tag
/// fetched and checked out; a Swift package's products built with `swift build`, or a
/// `build:` command run, and the binaries copied into the install.
public struct GitBackend: Backend {
    public let name = "git"
    let runner: any ProcessRunner
    let environment: [String: String]
    let git: any GitRemotes

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem

    /// Where each fetch is said, for `-v`.
    let trace: Trace
    /// A release's artifact bundle, tried before building (nil: no HTTP, always build).
    let prebuilt: PrebuiltBundle?
    /// The copy being made (`tack mirror`), which keeps a bare copy of the repository.
    var copy: CopyWriter?

    public init(runner: any ProcessRunner, environment: [String: String], git: any GitRemotes = LibGit2Remotes(), fs: any FileSystem = LocalFileSystem(),
                trace: Trace = .off, http: (any HTTPClient)? = nil, platform: Platform = .current, limits: SafeExtractor.Limits = .standard,
                mirrors: DownloadMirrors = .none) {
        self.fs = fs
        self.trace = trace
        prebuilt = http.map { PrebuiltBundle(http: $0, fs: fs, platform: platform, limits: limits, mirrors: mirrors) }
        self.runner = runner
        self.environment = environment
        self.git = git
    }


    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        let url = source(of: request)
        let tags: [RemoteTag]
        do { tags = try await git.listTags(url) } catch { throw TackError("cannot list the tags of \(url): \(error.message)") }
        var byVersion: [Version: AvailableVersion] = [:]
        for tag in tags {
            guard let v = Version(tag.name) else { continue }
            // `1.2.0` and `v1.2.0` name one version; prefer the tag written without `v`.
            if let existing = byVersion[v], let t = GitLockRecord(existing.fields).tag, !t.hasPrefix("v") { continue }
            byVersion[v] = AvailableVersion(version: v, fields: GitLockRecord(commit: tag.commit, tag: tag.name).fields)
        }
        return byVersion.values.sorted { $0.version < $1.version }
    }

    public func resolve(ref: String, of request: ToolRequest) async throws(TackError) -> AvailableVersion {
        let url = source(of: request)
        if ref.count == 40, ref.allSatisfy(\.isHexDigit) {
            return AvailableVersion(version: RefVersion.version(commit: ref.lowercased()), fields: GitLockRecord(commit: ref.lowercased(), ref: ref).fields)
        }
        let refs: [RemoteTag]
        do { refs = try await git.listRefs(url) } catch { throw TackError("cannot list the branches and tags of \(url): \(error.message)") }
        guard let match = refs.first(where: { $0.name == "refs/tags/\(ref)" }) ?? refs.first(where: { $0.name == "refs/heads/\(ref)" }) else {
            throw TackError("\(url) has no branch or tag `\(ref)` (set by \(request.origin.describe(home: nil)))")
        }
        return AvailableVersion(version: RefVersion.version(commit: match.commit), fields: GitLockRecord(commit: match.commit, ref: ref).fields)
    }

    /// What the lock chooses, checked against the pin before anything is built or pulled
    /// from the team cache: under a version pin the tag must name the locked version and point
    /// at the locked commit; under a `ref:` pin the commit must be the one a commit ref names,
    /// or one the branch or tag reaches.
    public func checkPin(_ locked: LockedTool, for request: ToolRequest, scratch: String) async throws(TackError) {
        try await checkout(locked, for: request, into: scratch + "/pin-check", checkout: false)
        try? fs.remove(scratch + "/pin-check")
    }

    /// Fetches the commit `locked` names into `src` (checked out when `checkout`), refusing
    /// one the pin's tag or ref does not name. The pin decides which rule applies, never a
    /// field of the lock.
    func checkout(_ locked: LockedTool, for request: ToolRequest, into src: String, checkout: Bool) async throws(TackError) {
        let url = source(of: request)
        trace("fetching \(Redact.url(url) == "the URL" ? url : Redact.url(url)) for \(locked.name) \(locked.version)")
        let tool = "\(locked.name) \(locked.version)"
        let record = GitLockRecord(locked.fields)
        guard let commit = record.fullCommit else {
            throw TackError("tack.lock has no commit for \(tool); run `tack lock` again")
        }
        if case .ref(let ref) = request.requirement {
            if Git.isCommitID(ref) {
                guard ref.lowercased() == commit.lowercased() else {
                    throw TackError("tack.lock names commit \(commit) for \(tool), but the pin names commit \(ref.lowercased()) — nothing was installed; run `tack lock` to lock the pin again")
                }
                do { _ = try await git.checkout(url, ref: ref.lowercased(), into: src) } catch {
                    throw TackError("cannot fetch commit \(ref) of \(url): \(error.message)")
                }
                return
            }
            do { try await git.fetch(url, commit: commit, reachableFrom: .ref(ref), into: src, checkout: checkout) } catch {
                throw TackError("cannot install commit \(commit) of \(url) for \(tool) (ref: \(ref)): \(error.message) — nothing was installed; if \(ref) was rewritten, run `tack update \(locked.name)`")
            }
            return
        }
        guard let tag = record.tag else {
            throw TackError("tack.lock has no tag for \(tool); run `tack lock` again")
        }
        guard let tagged = Version(tag), tagged == locked.version, !tag.hasPrefix("refs/") else {
            throw TackError("tack.lock's tag \(quoted(tag)) for \(tool) does not name version \(locked.version) — nothing was installed; run `tack lock` again")
        }
        if !checkout {
            // The tag's commit, as the server lists it now.
            let refs: [RemoteTag]
            do { refs = try await git.listTags(url) } catch { throw TackError("cannot list the tags of \(url): \(error.message)") }
            guard let now = refs.first(where: { $0.name == tag }) else {
                throw TackError(.tagGone(tool: tool, tag: tag, repository: url))
            }
            guard now.commit.lowercased() == commit.lowercased() else {
                throw TackError(.tagMoved(tool: tool, tag: tag, repository: url, now: now.commit, locked: commit))
            }
            return
        }
        let fetched: String
        do { fetched = try await git.checkout(url, ref: "refs/tags/" + tag, into: src) } catch {
            throw TackError("cannot fetch tag \(tag) of \(url): \(error.message)")
        }
        if fetched.lowercased() != commit.lowercased() {
            throw TackError(.tagMoved(tool: tool, tag: tag, repository: url, now: fetched, locked: commit))
        }
    }

    /// The lock's choice of a prebuilt artifact bundle (`artifactbundle:` beside `git:`).
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        try await prebuilt?.choose(entry, for: request, cache: cache) ?? [:]
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        if let prebuilt, prebuilt.chosen(job) {
            // The lock's tag names the bundle (`{tag}`): it is checked against the repository
            // first, as a build checks it, so a lock cannot rename it to reach another bundle.
            try await checkPin(job.locked, for: job.request, scratch: job.scratch)
            if let outcome = try await prebuilt.install(job) { return outcome }
        }
        let url = source(of: job.request)
        let tool = "\(job.locked.name) \(job.locked.version)"
        job.report(.fetching)
        // Built where it will live: the sources at the install's own `src/`, since what a build
        // compiles in (a package's #filePath, protoc's include directory) must still be there
        // when it runs. The installer holds this version's lock and moved any earlier install
        // aside, so the place is free; the sources then move into the temporary directory,
        // which the installer renames to that very place.
        let inPlace = job.destination != job.directory && fs.info(job.destination + "/" + Store.installRecordFile) == nil
        let src = inPlace ? job.destination + "/src" : job.scratch + "/src"
        if inPlace { try? fs.remove(job.destination) }  // an interrupted build's leftovers
        defer { if inPlace { try? fs.remove(job.destination) } }
        try await checkout(job.locked, for: job.request, into: src, checkout: true)
        try fs.makeDirectory(job.directory + "/bin")
        let outcome: InstallOutcome
        if let build = job.request.options.git.build {
            outcome = try await runBuildCommand(build, job: job, src: src, tool: tool)
        } else {
            guard fs.info(src + "/Package.swift") != nil else {
                throw TackError("\(url) at \(job.locked.version) is not a Swift package (no Package.swift); give \(job.locked.name) a `build:` command and `bin:` paths")
            }
            outcome = try await buildSwiftPackage(job: job, src: src, tool: tool)
        }
        if inPlace { try keepSources(src, in: job.directory + "/src") }
        return outcome
    }

    /// A build from the team cache made at another path: usable only when none of its
    /// binaries' data (`LoadedData`: not its debug information) names the sources where it
    /// was built (`…/installs/TOOL/…/src/…`, a path a build compiled in: a binary's strings
    /// have their length, so it cannot be rewritten).
    /// Paths into the build products (a resource bundle's fallback path) do not count: the
    /// products are not kept anyway. One that does is built here instead.
    public func relocate(_ job: InstallJob, built: [String: String]) throws(TackError) {
        let marker = Array("/installs/\(job.locked.name)/".utf8)
        for entry in (try? fs.list(job.directory + "/bin")) ?? [] {
            let path = job.directory + "/bin/" + entry
            guard fs.info(path)?.kind == .file, let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe),
                  let sections = LoadedData.sections(of: [UInt8](data)) else { continue }
            for section in sections {
                if let named = Self.foreignSourcePath(in: Array(section), marker: marker, destination: job.destination) {
                    throw TackError("its \(entry) names the sources where it was built (\(named))")
                }
            }
        }
    }

    /// The first path in `bytes` into the kept sources of an install other than
    /// `destination` (`<install>/src/…`, not its `.build/` products but its dependencies'
    /// checkouts), or nil.
    static func foreignSourcePath(in bytes: [UInt8], marker: [UInt8], destination: String) -> String? {
        func isPathByte(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }
        var i = 0
        while i + marker.count <= bytes.count {
            guard bytes[i] == marker[0], Array(bytes[i..<(i + marker.count)]) == marker else { i += 1; continue }
            var start = i, end = i + marker.count
            while start > 0, isPathByte(bytes[start - 1]) { start -= 1 }
            while end < bytes.count, isPathByte(bytes[end]) { end += 1 }
            let path = String(decoding: bytes[start..<end], as: UTF8.self)
            i = end
            guard let r = path.range(of: "/src/") else { continue }
            let rest = path[r.upperBound...]
            if rest.hasPrefix(".build/") && !rest.hasPrefix(".build/checkouts/") { continue }
            if String(path[..<r.lowerBound]) != destination { return path }
        }
        return nil
    }

    /// The checkout a build used, kept for what the build compiled in: without its git
    /// directory and build products (the dependencies' checkouts stay: they are sources too).
    func keepSources(_ src: String, in kept: String) throws(TackError) {
        try? fs.remove(src + "/.git")
        let build = src + "/.build"
        for entry in (try? fs.list(build)) ?? [] where entry != "checkouts" { try? fs.remove(build + "/" + entry) }
        guard rename(src, kept) == 0 else {
            throw TackError("cannot keep the sources of the build in \(kept): \(String(cString: strerror(errno)))")
        }
    }

    func buildSwiftPackage(job: InstallJob, src: String, tool: String) async throws(TackError) -> InstallOutcome {
        job.report(.building)
        var products = job.request.options.git.products
        let buildDir = src + "/.build"
        // The executable products the package declares (its manifest, not every executable
        // target SwiftPM would build): what is built when `products:` names none, and what a
        // named product must be, checked before anything is built.
        let out = try await runner.run("swift", ["package", "--package-path", src, "--scratch-path", buildDir, "dump-package"], directory: src, environment: environment)
        guard out.status == 0 else { throw TackError("cannot read the Swift package of \(tool) (swift package dump-package exited \(out.status)):\n\(out.tail())") }
        let declared = Self.executableProducts(out.output)
        if products.isEmpty {
            products = declared
            guard !products.isEmpty else { throw TackError("the Swift package of \(tool) declares no executable products") }
        }
        for product in products where !declared.contains(product) {
            let list = declared.isEmpty ? "it declares none" : "its executable products are: \(declared.joined(separator: ", "))"
            throw TackError("the Swift package of \(tool) has no executable product \(quoted(product)) (named by `products:`); \(list) — nothing was installed")
        }
        for product in products {
            guard ToolName.isValidBinaryName(product) else { throw TackError("`\(product)` is not a valid product name") }
            let report = job.report
            let out = try await runner.run(
                "swift", ["build", "-c", "release", "--product", product, "--package-path", src, "--scratch-path", buildDir],
                directory: src, environment: environment
            ) { line in
                if let step = InstallPhase.swiftBuildStep(line) { report(.buildStep(step)) }
            }
            guard out.status == 0 else {
                throw TackError("building \(product) of \(tool) failed (swift build exited \(out.status)):\n\(out.tail())")
            }
        }
        let binPath = try await runner.run("swift", ["build", "-c", "release", "--package-path", src, "--scratch-path", buildDir, "--show-bin-path"], directory: src, environment: environment)
        let bin = binPath.output.split(separator: "\n").last.map(String.init) ?? ""
        job.report(.copying)
        var binaries: [String] = []
        for product in products {
            try fs.copyReplacing(bin + "/" + product, to: job.directory + "/bin/" + product)
            binaries.append("bin/" + product)
        }
        // Resource bundles sit beside the executable that loads them.
        for entry in (try? fs.list(bin)) ?? [] where entry.hasSuffix(".resources") || entry.hasSuffix(".bundle") {
            try fs.copyReplacing(bin + "/" + entry, to: job.directory + "/bin/" + entry)
        }
        let version = try await runner.run("swift", ["--version"], directory: src, environment: environment)
        // What was built and what the package declares: the install serves any pin whose
        // products come to the same (naming the only executable, or naming none).
        var metadata = ["swift": Self.toolchainLine(version.output), "products": products.sorted().joined(separator: ", "),
                        "declared": declared.sorted().joined(separator: ", ")]
        if let target = Self.targetLine(version.output) { metadata["swift-target"] = target }
        return InstallOutcome(binaries: binaries, metadata: metadata, unshareable: Self.changedSource(src))
    }

    /// Why a build whose checkout changed while it ran must not be shared, or nil.
    static func changedSource(_ src: String) -> String? {
        guard let changed = try? GitRepository.open(src).modifiedFiles() else { return "its checkout cannot be read after the build" }
        guard !changed.isEmpty else { return nil }
        let shown = changed.prefix(3).joined(separator: ", ") + (changed.count > 3 ? ", …" : "")
        return "the build changed files of its checkout (\(shown))"
    }

    public func buildInputs(_ request: ToolRequest, _ locked: LockedTool, destination: String, built: [String: String]?) async throws(TackError) -> [String: String]? {
        guard let commit = GitLockRecord(locked.fields).commit else { return nil }
        var inputs = ["backend": name, "source": source(of: request), "commit": commit]
        if let build = request.options.git.build {
            inputs["build"] = build
            inputs["bin"] = request.options.bin.joined(separator: "\n")
            return inputs
        }
        inputs["products"] = request.options.git.products.sorted().joined(separator: ",")
        if let built {
            guard let swift = built["swift"], let target = built["swift-target"] else {
                throw TackError("the install of \(locked.name) \(locked.version) does not record its Swift toolchain's target (built by an older tack) — run `tack install --rebuild \(locked.name)` first")
            }
            inputs["toolchain"] = swift
            inputs["target"] = target
        } else {
            let out: ProcessOutput
            do { out = try await runner.run("swift", ["--version"], directory: "/", environment: environment) } catch {
                throw TackError("cannot identify the Swift toolchain (\(error.message))")
            }
            guard out.status == 0, let target = Self.targetLine(out.output) else {
                throw TackError("cannot identify the Swift toolchain (`swift --version` exited \(out.status))")
            }
            inputs["toolchain"] = Self.toolchainLine(out.output)
            inputs["target"] = target
        }
        return inputs
    }

    /// `x86_64-unknown-linux-gnu` from `swift --version`'s `Target:` line.
    public static func targetLine(_ output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Target:") }) else { return nil }
        let target = line.dropFirst("Target:".count).trimmingCharacters(in: .whitespaces)
        return target.isEmpty ? nil : target
    }

    func runBuildCommand(_ build: String, job: InstallJob, src: String, tool: String) async throws(TackError) -> InstallOutcome {
        job.report(.building)
        var env = environment
        env["PREFIX"] = job.directory
        env["TACK_INSTALL_DIR"] = job.directory
        let out = try await runner.run("/bin/sh", ["-c", build], directory: src, environment: env)
        guard out.status == 0 else { throw TackError("the build command of \(tool) failed (exit \(out.status)):\n\(out.tail())") }
        job.report(.copying)
        guard !job.request.options.bin.isEmpty else {
            throw TackError("\(job.locked.name) has a `build:` command but no `bin:` paths naming what it builds")
        }
        var binaries: [String] = []
        for spec in job.request.options.bin {
            // `path` or `path=name`, as for url tools.
            let (rendered, name) = BinSpec.split(spec.replacingOccurrences(of: "{version}", with: job.locked.version.text))
            guard BinSpec.isSafeRelativePath(rendered), ToolName.isValidBinaryName(name) else {
                throw TackError("`bin: \(spec)` of \(job.locked.name) must be a path inside the checkout")
            }
            guard fs.isExecutable(src + "/" + rendered) else {
                throw TackError("the build of \(tool) did not produce \(rendered) (named by `bin:`)")
            }
            try fs.copyReplacing(src + "/" + rendered, to: job.directory + "/bin/" + name)
            binaries.append("bin/" + name)
        }
        return InstallOutcome(binaries: binaries, unshareable: Self.changedSource(src))
    }

    /// `Swift version 6.3.1 (swift-6.3.1-RELEASE)` from `swift --version`.
    public static func toolchainLine(_ output: String) -> String {
        let line = output.split(separator: "\n").first { $0.contains("Swift version") }.map(String.init) ?? "unknown"
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// The executable products in `swift package dump-package` output.
    static func executableProducts(_ json: String) -> [String] {
        guard let start = json.firstIndex(of: "{"),
              let object = try? JSONSerialization.jsonObject(with: Data(json[start...].utf8)) as? [String: Any],
              let products = object["products"] as? [[String: Any]] else { return [] }
        return products.compactMap { p in
            guard let type = p["type"] as? [String: Any], type["executable"] != nil else { return nil }
            return p["name"] as? String
        }.sorted()
    }
}

extension GitKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        var backend = GitBackend(runner: e.runner(), environment: e.interpreters, git: e.git, fs: e.fs, trace: e.trace, http: e.http(), limits: e.limits, mirrors: e.mirrors)
        backend.copy = e.copy?.writer
        return backend
    }
}

extension GitBackend {
    /// `tack mirror`: a bare copy of the repository (every branch and tag, so the lock's tag or
    /// ref is checked against the copy as against the remote), and the prebuilt bundle the lock
    /// chooses. A build from the team cache is carried beside it by `tack mirror` itself.
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        guard let copy else { return nil }
        let url = source(of: request), tool = "\(entry.name) \(entry.version)"
        let dir: String
        do { dir = try copy.repository(for: url) } catch { return (0, ["\(entry.name) \(entry.version): \(error.message)"]) }
        do { try await git.mirror(url, into: dir) } catch {
            return (0, ["\(tool): cannot copy \(URLRedaction.text(url)): \(error.message)"])
        }
        guard let prebuilt, case .map(let chosen)? = entry.fields[PrebuiltBundle.field], chosen["none"] == nil else { return (1, []) }
        do { try await prebuilt.carry(chosen, tool: tool, scratch: scratch) } catch { return (1, ["\(tool): \(error.message)"]) }
        return (2, [])
    }
}

extension GitLockRecord {
    /// The commit, when it is a full commit id (what a lock may name).
    var fullCommit: String? { commit.flatMap { Git.isCommitID($0) ? $0 : nil } }
}
