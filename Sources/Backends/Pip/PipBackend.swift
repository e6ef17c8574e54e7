import Foundation
import BackendKinds
import TackCore

/// Python packages (`black: { pip: black, version: ">= 24, < 25" }`): one virtual environment
/// per tool version, the package's console scripts as the tool's binaries.
///
/// With `uv` on PATH it does the work (much faster); else `python -m venv` and pip. Either way
/// the lock records every distribution installed, with its SHA-256, and every install after
/// the first (and every `--frozen` one) installs exactly those with hash checking, so a
/// changed artifact on the index fails the install.
public struct PipBackend: Backend {
    public let name = "pip"
    let runner: any ProcessRunner
    let http: any HTTPClient
    let environment: [String: String]
    /// tack's shims directory, never where an interpreter or uv is taken from: a shim runs
    /// what is pinned for the directory it runs in, which is not the project's here.
    let shims: String?

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem
    /// The copy being made (`tack mirror`): the locked distributions are kept in it.
    var copy: CopyWriter?
    /// The distributions of the copy installed from (`tack install --from`): uv and pip find
    /// them there, and reach no index.
    var carriedWheels: String?

    public init(runner: any ProcessRunner, http: any HTTPClient, environment: [String: String], shims: String?, fs: any FileSystem = LocalFileSystem()) {
        self.fs = fs
        self.runner = runner
        self.http = http
        self.environment = environment
        self.shims = shims
    }

    /// The index and find_links this backend reads.
    var index: PipIndex { PipIndex(http: http, fs: fs, home: environment["HOME"]) }

    // MARK: Versions

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        // An exact pin needs no listing: resolving it finds out whether it exists (and an
        // install locks nothing that did not install), and a failure then lists the versions
        // there are (`existence`).
        if let v = request.requirement.exactVersion, case .prefix = request.requirement { return [AvailableVersion(version: v)] }
        let project = PipName.normalize(source(of: request))
        var files: [String] = []
        if let links = request.options.pip.findLinks {
            files += try await index.listing(index.findLinks(links, request), what: "find_links")
        }
        let indexURL = request.options.pip.indexURL ?? PipIndex.defaultIndex
        files += try await index.listing(PipIndexPage.slash(indexURL) + project + "/", what: "the index", missingIsEmpty: !files.isEmpty)
        let versions = Set(files.compactMap { PipName.distribution($0)?.project == project ? PipName.distribution($0)?.version : nil })
        if versions.isEmpty {
            throw TackError("no distributions of `\(source(of: request))` on \(indexURL)\(request.options.pip.findLinks.map { " or in \($0)" } ?? "") (set by \(request.origin.describe(home: nil)))")
        }
        return versions.compactMap({ Version($0) }).sorted().map { AvailableVersion(version: $0) }
    }

    public func published(_ versions: [AvailableVersion], of request: ToolRequest) async -> [AvailableVersion] {
        let (times, unreadable) = await index.uploadTimes(PipName.normalize(source(of: request)), index: request.options.pip.indexURL ?? PipIndex.defaultIndex)
        return AvailableVersion.dated(versions, times: times, unreadable: unreadable)
    }

    // MARK: Install

    /// The environment uv and pip run in: no outer virtualenv, no prompts, and the system's
    /// certificates (the ones the rest of tack trusts) rather than uv's built-in roots, so a
    /// machine behind a TLS-inspecting proxy works the same for both.
    var toolEnvironment: [String: String] {
        var env = environment
        env["VIRTUAL_ENV"] = nil
        env["PYTHONHOME"] = nil
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        env["PIP_NO_INPUT"] = "1"
        if env["UV_SYSTEM_CERTS"] == nil && env["UV_NATIVE_TLS"] == nil {
            env["UV_SYSTEM_CERTS"] = "1"
            env["UV_NATIVE_TLS"] = "1"
        }
        return env
    }

    /// `--index-url` and `--find-links` as the pin sets them; installing from a copy, the
    /// copy's distributions and no index.
    func sources(_ request: ToolRequest) -> [String] {
        if let carriedWheels { return ["--no-index", "--find-links", carriedWheels] }
        var out: [String] = []
        if let index = request.options.pip.indexURL { out += ["--index-url", index] }
        if let links = request.options.pip.findLinks { out += ["--find-links", index.findLinks(links, request)] }
        return out
    }

    /// `package[extras]==version`, what resolving the tool asks for.
    func wanted(_ request: ToolRequest, _ version: Version) -> String {
        let extras = request.options.pip.extras.isEmpty ? "" : "[" + request.options.pip.extras.joined(separator: ",") + "]"
        return "\(source(of: request))\(extras)==\(version.text)"
    }

    /// The pin as a text: what resolving asks for, and the index and links it asks them of.
    func pinText(_ request: ToolRequest, _ version: Version) -> String {
        ([wanted(request, version)] + sources(request)).joined(separator: " ")
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let request = job.request
        let tool = "\(job.locked.name) \(job.locked.version)"
        let uv = programs.locate("uv")
        // uv queries (and caches) the interpreter itself; pip needs its real path first.
        let python = uv == nil ? try await programs.interpreter(request) : (path: try programs.interpreterPath(request), version: "")
        let venv = job.directory + "/venv"
        // What the lock pins for every platform, and what this one installs of it.
        var locked = try await lockedForThisPlatform(job)
        // A virtualenv made before for exactly this pin, from exactly these distributions and
        // this interpreter (kept in the cache when its install was removed), is cloned (hard
        // links) instead of being made again: `tack install` of a locked tool is then about as
        // fast as `uv tool install` from its warm cache. Its set was resolved or checked here
        // when it was made, so it is not checked again.
        let installer = uv == nil ? "pip" : "uv"
        let cacheKey = locked.pinned.isEmpty ? nil : PipEnvironmentCache(fs: fs).key(interpreter: python.path, installer: installer, pin: pinText(request, job.locked.version), pinned: locked.pinned)
        if let cacheKey, let cachedPrefix = PipEnvironmentCache(fs: fs).reuse(cacheKey, cache: job.cache, into: venv) {
            job.report(.custom("from the environment cache"))
            return try finish(job, venv: venv, prefix: cachedPrefix, python: python, lockFields: locked.lockFields(locked.pinned), cacheKey: cacheKey)
        }
        // The lock's set for this platform must be what resolving the pin gives, held to the
        // locked versions: an extra distribution (a `.pth` that runs at every start) or a
        // missing one is a lock written for something else.
        if !locked.pinned.isEmpty && !locked.resolvedHere {
            job.report(.custom("checking the locked distributions"))
            let resolved = try await resolvedSet(request, version: job.locked.version, python: python.path, uv: uv, constraints: locked.everything, job: job)
            try Self.check(locked.pinned, against: resolved, tool: tool, name: job.locked.name)
        }
        job.report(.custom("creating a virtual environment"))
        var installSources = sources(request)
        if let uv, locked.pinned.isEmpty {
            // A first install: uv resolves for the interpreter the environment is made from
            // (the same markers) while the environment is made, so neither waits for the other.
            async let made = Self.outcome { () async throws(TackError) in
                try await run(uv, ["venv", "--quiet", "--python", python.path, venv], job, toolEnvironment, "create a virtual environment for \(tool)")
                // uv asks a new environment's python what it is (a python start) and keeps the
                // answer in its cache: asked now, while the resolution waits on the index, the
                // install after it starts no python. Only a speed-up, so a failure is ignored.
                _ = try? await run(uv, ["pip", "freeze", "--quiet", "--python", venv + "/bin/python"], job, toolEnvironment, "inspect the environment of \(tool)")
            }
            let resolved = await Self.outcome { () async throws(TackError) in try await resolveUnlocked(job, python: python.path, uv: uv, venv: venv) }
            try await made.get()
            (locked.pinned, installSources) = try resolved.get()
        } else {
            if let uv {
                try await run(uv, ["venv", "--quiet", "--python", python.path, venv], job, toolEnvironment, "create a virtual environment for \(tool)")
            } else {
                try await run(python.path, ["-m", "venv", "--without-pip", venv], job, toolEnvironment, "create a virtual environment for \(tool) (is python3-venv installed?)")
            }
            if locked.pinned.isEmpty {
                (locked.pinned, installSources) = try await resolveUnlocked(job, python: python.path, uv: uv, venv: venv)
            }
        }
        try await installPinned(locked.pinned, job: job, python: python.path, uv: uv, venv: venv, sources: installSources)
        let key = cacheKey ?? PipEnvironmentCache(fs: fs).key(interpreter: python.path, installer: installer, pin: pinText(request, job.locked.version), pinned: locked.pinned)
        return try finish(job, venv: venv, prefix: job.directory, python: python, lockFields: locked.lockFields(locked.pinned), cacheKey: key)
    }

    /// What tack.lock pins of a pip tool: every platform's distributions, this platform's
    /// selection of them (resolved here and merged in when the lock has none for it yet),
    /// and the lock fields an install records.
    struct LockedSet {
        var everything: [PipPin]
        var selection: PlatformSelection
        var pinned: [PipPin]
        var resolvedHere = false

        func lockFields(_ installed: [PipPin]) -> [String: LockValue] {
            PackageSet.lockFields(PipLockRecord(selection.isRecorded ? everything : installed).fields, selection: selection)
        }
    }

    func lockedForThisPlatform(_ job: InstallJob) async throws(TackError) -> LockedSet {
        let set = PackageSet(job.locked, noun: "distributions")
        let everything = try PipLockRecord(job.locked.fields).distributions(of: set.tool)
        var locked = LockedSet(everything: everything, selection: PlatformSelection(job.locked), pinned: everything)
        let here = try await set.forThisPlatform(&locked.selection, job: job, recorded: { names in
            let wanted = Set(names)
            return everything.filter { wanted.contains($0.name) }
        }, name: \.name) { () async throws(TackError) in
            try await PipPlatformLocking(backend: self).resolve(job.request, version: job.locked.version, for: .current, constraints: everything, scratch: job.scratch)
        }
        guard let here else { return locked }
        locked.pinned = here.pins
        if here.resolvedHere {
            locked.resolvedHere = true
            locked.everything = try PipPin.merge(everything, here.pins, tool: set.tool, platform: .current)
        }
        return locked
    }

    /// Refuses a locked set that is not what resolving the pin gives (`resolved`).
    static func check(_ pinned: [PipPin], against resolved: [String: String], tool: String, name: String) throws(TackError) {
        let have = Dictionary(pinned.map { (PipName.normalize($0.name), $0.version) }, uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        for n in have.keys.sorted() where resolved[n] == nil {
            problems.append("\(n) \(have[n] ?? "") is not something \(tool) needs")
        }
        for n in resolved.keys.sorted() where have[n] == nil {
            problems.append("\(n) \(resolved[n] ?? ""), which \(tool) needs, is missing")
        }
        for n in have.keys.sorted() where resolved[n] != nil && resolved[n] != have[n] {
            problems.append("\(n) is locked at \(have[n] ?? ""), but resolving gives \(resolved[n] ?? "")")
        }
        if !problems.isEmpty {
            throw TackError("tack.lock's distributions for \(tool) are not what its pin resolves to: \(problems.joined(separator: "; ")) — nothing was installed; run `tack update \(name)` to lock it again")
        }
    }

    /// A tool whose lock records no distributions yet: resolved now (uv), or downloaded and
    /// hashed (pip); the distributions, and the sources to install them from.
    func resolveUnlocked(_ job: InstallJob, python: String, uv: String?, venv: String) async throws(TackError) -> ([PipPin], [String]) {
        let request = job.request
        let set = PackageSet(job.locked, noun: "distributions"), tool = set.tool
        try set.requireRecorded(job)
        job.report(.custom("resolving"))
        let wanted = self.wanted(request, job.locked.version)
        let target = ["--python", venv + "/bin/python"], sources = self.sources(request)
        var pinned: [PipPin], installSources = sources
        if let uv {
            let input = job.scratch + "/requirements.in", output = job.scratch + "/requirements.txt"
            try write(input, wanted + "\n")
            // For the interpreter the environment is made from: the same markers, and one uv
            // already knows (a new environment's would be asked again).
            do {
                try await run(uv, ["pip", "compile", "--quiet", "--generate-hashes", "--no-header", "--no-annotate", "--python", python]
                    + (job.offline ? ["--offline"] : []) + sources + [input, "-o", output], job, toolEnvironment, "resolve \(tool)")
            } catch {
                throw await existence(request, job.locked.version) ?? error
            }
            pinned = PipPin.parseRequirements(text(output))
        } else {
            if job.offline { throw TackError("TACK_OFFLINE is set, and without uv pip cannot install \(tool) from its cache — put uv on PATH, or unset TACK_OFFLINE") }
            let dists = job.scratch + "/dists"
            // pip runs from the base interpreter into the venv (`pip --python`, pip 22.3 and later).
            do {
                try await run(python, ["-m", "pip"] + target + ["download", "--quiet", "--dest", dists] + sources + [wanted], job, toolEnvironment, "download \(tool)")
            } catch {
                throw await existence(request, job.locked.version) ?? error
            }
            pinned = try PipPin.hashes(ofDownloadsIn: dists, fs: fs)
            installSources = ["--no-index", "--find-links", dists]
        }
        let package = source(of: request)
        try set.requireSelected(pinned.contains { PipName.normalize($0.name) == PipName.normalize(package) }, package: package)
        return (pinned, installSources)
    }

    /// Installs exactly `pinned` (hashes required, no dependencies of their own) into the venv.
    func installPinned(_ pinned: [PipPin], job: InstallJob, python: String, uv: String?, venv: String, sources: [String]) async throws(TackError) {
        let tool = "\(job.locked.name) \(job.locked.version)"
        job.report(.custom("installing"))
        let requirements = job.scratch + "/locked.txt"
        try write(requirements, pinned.map(\.line).joined(separator: "\n") + "\n")
        let target = ["--python", venv + "/bin/python"]
        if let uv {
            // Every file is named with its hash, so uv's cache answers as well as the index:
            // from the cache alone first (no round trip to the index for each distribution),
            // then, for what it lacks, from the index.
            let install = ["pip", "install", "--quiet", "--require-hashes", "--no-deps"] + target + sources
            if job.offline {
                try await run(uv, install + ["--offline", "-r", requirements], job, toolEnvironment, "install \(tool)")
            } else if (try? await run(uv, install + ["--offline", "-r", requirements], job, toolEnvironment, "install \(tool)")) == nil {
                try await run(uv, install + ["-r", requirements], job, toolEnvironment, "install \(tool)")
            }
        } else {
            try await run(python, ["-m", "pip"] + target + ["install", "--quiet", "--require-hashes", "--no-deps", "--no-compile"] + sources + ["-r", requirements], job, toolEnvironment, "install \(tool)")
        }
    }

    /// The distributions (normalized name → version) that installing `request` at `version`
    /// needs on this machine, every one in `constraints` held to its locked version: uv's
    /// resolution, or pip's dry run.
    func resolvedSet(_ request: ToolRequest, version: Version, python: String, uv: String?, constraints: [PipPin], job: InstallJob) async throws(TackError) -> [String: String] {
        let tool = "\(request.name) \(version)"
        let input = job.scratch + "/check.in", held = job.scratch + "/check-constraints.txt", output = job.scratch + "/check.txt"
        try write(input, wanted(request, version) + "\n")
        try write(held, constraints.map { "\($0.name)==\($0.version)\n" }.joined())
        var out: [String: String] = [:]
        if let uv {
            try await run(uv, ["pip", "compile", "--quiet", "--no-header", "--no-annotate", "--python", python]
                + (job.offline ? ["--offline"] : []) + sources(request) + ["--constraint", held, input, "-o", output], job, toolEnvironment, "resolve \(tool) to check tack.lock")
            for p in PipPin.parseRequirements(text(output)) { out[PipName.normalize(p.name)] = p.version }
            return out
        }
        if job.offline { throw TackError("TACK_OFFLINE is set, and without uv pip cannot resolve \(tool) from its cache to check tack.lock — put uv on PATH, or unset TACK_OFFLINE") }
        try await run(python, ["-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed", "--report", output, "-c", held] + sources(request) + ["-r", input], job, toolEnvironment, "resolve \(tool) to check tack.lock")
        guard let data = try? fs.read(output, limit: Int.max),
              let report = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
              let install = report["install"] as? [[String: Any]] else {
            throw TackError("cannot read pip's resolution of \(tool) (its --report) to check tack.lock")
        }
        for item in install {
            guard let meta = item["metadata"] as? [String: Any], let name = meta["name"] as? String, let v = meta["version"] as? String else { continue }
            out[PipName.normalize(name)] = v
        }
        return out
    }

    /// The scripts pointed at the final place, the package's commands linked into bin/, and
    /// what the install records: with the environment's key (`cacheKey`), the environment is
    /// moved into the cache when the install is removed (`KeptPart`).
    func finish(_ job: InstallJob, venv: String, prefix: String, python: (path: String, version: String), lockFields: [String: LockValue], cacheKey: String?) throws(TackError) -> InstallOutcome {
        let package = source(of: job.request)
        try Relocation(fs: fs).rewriteScripts(in: venv + "/bin", from: prefix, to: job.destination)
        let scripts = try PipSitePackages(fs: fs).consoleScripts(venv: venv, package: package)
        try PackageSet.requireSomething(scripts, package: "\(package) \(job.locked.version)", programs: "console scripts")
        let binaries = try Relocation(fs: fs).link(scripts, from: "venv/bin", in: job.directory)
        // What the venv was made from, as its pyvenv.cfg says.
        var cfg: [String: String] = [:]
        for line in text(venv + "/pyvenv.cfg").split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            cfg[line[..<eq].trimmingCharacters(in: .whitespaces)] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        let version = cfg["version_info"] ?? cfg["version"] ?? python.version
        var outcome = InstallOutcome(
            binaries: binaries,
            metadata: ["python": "\(cfg["executable"] ?? cfg["home"] ?? python.path) (\(version))", "installer": cfg["uv"].map { "uv " + $0 } ?? "pip"],
            lockFields: lockFields)
        // Kept when the install is removed, not copied now: a first install pays nothing for it.
        outcome.kept = cacheKey.flatMap { KeptPart(part: "venv", cacheEntry: "pip-envs/" + $0) }
        return outcome
    }

    /// Why resolving `version` failed when the reason is that the index has no such version:
    /// the error any resolution gives, naming the nearest versions; nil when it has it (or
    /// cannot be listed), and the resolver's own error stands.
    func existence(_ request: ToolRequest, _ version: Version) async -> TackError? {
        var listed = request
        listed.requirement = .latest
        guard let available = try? await versions(of: listed), !available.contains(where: { $0.version.text == version.text }) else { return nil }
        var wanted = request
        wanted.requirement = .prefix(version)
        return LockPlanner.noVersion(wanted, among: available, at: source(of: request))
    }

    /// `body`'s value or its error, as a value (what `async let` of typed-throwing work holds).
    static func outcome<T: Sendable>(_ body: () async throws(TackError) -> T) async -> Result<T, TackError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    func run(_ program: String, _ args: [String], _ job: InstallJob, _ env: [String: String], _ what: String) async throws(TackError) {
        _ = try await runner.runChecked(program, args, doing: what, directory: job.scratch, environment: env)
    }

    /// A file's text, or "" when it cannot be read.
    func text(_ path: String) -> String {
        (try? fs.read(path, limit: Int.max)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A scratch file for uv or pip (requirements, constraints): read at once and thrown away
    /// with the scratch directory, so not flushed.
    func write(_ path: String, _ text: String) throws(TackError) {
        do { try fs.writeAtomically(path, Array(text.utf8), permissions: nil, flush: false) } catch { throw TackError.cannotWrite(path, error) }
    }

    /// Where python and uv are, and what the interpreter is (`PipPrograms`).
    var programs: PipPrograms { PipPrograms(runner: runner, environment: environment, shims: shims, fs: fs) }

    // MARK: Every platform

    /// `tack lock` for platforms the entry does not cover yet (`PipPlatformLocking`).
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        try await PipPlatformLocking(backend: self).complete(entry, for: request, cache: cache, platforms: platforms)
    }

    /// `tack lock --verify` (`PipLockVerification`).
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        await PipLockVerification(index: index, http: http, fs: fs).verify(entry, for: request, scratch: scratch, jobs: jobs)
    }

    /// `tack mirror`: every distribution tack.lock pins for the platforms it covers, found on
    /// the index and checked as `tack lock --verify` does, kept in the copy by file name (the
    /// find-links directory `tack install --from` points uv and pip at).
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        guard let copy else { return nil }
        var verification = PipLockVerification(index: index, http: http, fs: fs)
        verification.copy = copy
        let verified = await verification.verify(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }

}

extension PipKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        var backend = PipBackend(runner: e.runner(), http: e.http(), environment: e.interpreters, shims: e.settings.store?.shims, fs: e.fs)
        backend.copy = e.copy?.writer
        backend.carriedWheels = e.copy?.reader?.wheels
        return backend
    }
}
