import Foundation
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

    public init(runner: any ProcessRunner, http: any HTTPClient, environment: [String: String], shims: String?, fs: any FileSystem = LocalFileSystem()) {
        self.fs = fs
        self.runner = runner
        self.http = http
        self.environment = environment
        self.shims = shims
    }


    static let defaultIndex = "https://pypi.org/simple"

    // MARK: Versions

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        // An exact pin needs no listing: resolving it finds out whether it exists (and an
        // install locks nothing that did not install), and a failure then lists the versions
        // there are (`existence`).
        if let v = request.requirement.exactVersion, case .prefix = request.requirement { return [AvailableVersion(version: v)] }
        let project = Self.normalize(source(of: request))
        var files: [String] = []
        if let links = request.options.pip.findLinks {
            files += try await listing(findLinks(links, request), what: "find_links")
        }
        let index = request.options.pip.indexURL ?? Self.defaultIndex
        files += try await listing(Self.slash(index) + project + "/", what: "the index", missingIsEmpty: !files.isEmpty)
        let versions = Set(files.compactMap { Self.distribution($0)?.project == project ? Self.distribution($0)?.version : nil })
        if versions.isEmpty {
            throw TackError("no distributions of `\(source(of: request))` on \(index)\(request.options.pip.findLinks.map { " or in \($0)" } ?? "") (set by \(request.origin.describe(home: nil)))")
        }
        return versions.compactMap({ Version($0) }).sorted().map { AvailableVersion(version: $0) }
    }

    public func published(_ versions: [AvailableVersion], of request: ToolRequest) async -> [AvailableVersion] {
        let (published, unreadable) = await uploadTimes(Self.normalize(source(of: request)), index: request.options.pip.indexURL ?? Self.defaultIndex)
        return versions.map { v in
            var available = v
            available.published = available.published ?? published[v.version.text]
            if available.published == nil { available.unreadableDate = unreadable[v.version.text] }
            return available
        }
    }

    /// When each version was first uploaded, from the index's JSON API where it has one
    /// (PyPI's `/pypi/<project>/json`, beside `/simple`): what `min_release_age` holds back, as
    /// uv's `--exclude-newer` reads the same times. Empty where the index has no such API.
    /// Each version's first upload, and the versions whose upload times are there but
    /// unreadable (each with one of them, for the warning).
    func uploadTimes(_ project: String, index: String) async -> (times: [String: Int64], unreadable: [String: String]) {
        var root = index
        while root.hasSuffix("/") { root.removeLast() }
        guard root.hasSuffix("/simple"), root.contains("://") else { return ([:], [:]) }
        root.removeLast("/simple".count)
        guard let body = try? await http.get(root + "/pypi/" + project + "/json"),
              let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let releases = json["releases"] as? [String: Any] else { return ([:], [:]) }
        var out: [String: Int64] = [:], unreadable: [String: String] = [:]
        for (version, files) in releases {
            guard let v = Version(version) else { continue }
            let raw = (files as? [[String: Any]] ?? []).compactMap { $0["upload_time_iso_8601"].map { "\($0)" } }
            let times = raw.compactMap(ReleaseAge.timestamp)
            if let first = times.min() { out[v.text] = first } else if let shown = raw.first { unreadable[v.text] = shown }
        }
        return (out, unreadable)
    }

    /// File names a PEP 503 page (or a local directory) offers; yanked files are left out.
    func listing(_ location: String, what: String, missingIsEmpty: Bool = false) async throws(TackError) -> [String] {
        try await files(at: location, what: what, missingIsEmpty: missingIsEmpty).filter { !$0.yanked }.map(\.name)
    }

    /// One file an index page or a find_links directory offers.
    struct IndexFile: Sendable, Equatable {
        var name: String
        /// Its URL, or its path for a directory.
        var location: String
        /// The SHA-256 the page declares for it (`#sha256=…`), if it does.
        var declared: String?
        var yanked = false
    }

    /// The files a PEP 503 page (or a local directory) offers, yanked ones included and marked.
    func files(at location: String, what: String, missingIsEmpty: Bool = false) async throws(TackError) -> [IndexFile] {
        if location.hasPrefix("/") {
            guard let names = try? fs.list(location) else {
                throw TackError("cannot read \(what) \(location)")
            }
            return names.sorted().map { IndexFile(name: $0, location: location + "/" + $0) }
        }
        let body: [UInt8]
        do { body = try await http.get(location) } catch {
            if error.status == 404 && missingIsEmpty { return [] }
            if error.status == 404 { throw TackError("\(location) does not exist (404): is the package name right?") }
            throw TackError("cannot read \(what) \(location): \(error.message)")
        }
        return Self.files(String(decoding: body, as: UTF8.self), base: location)
    }

    /// `find_links` as pip takes it: a URL, or a directory (relative to the manifest).
    func findLinks(_ value: String, _ request: ToolRequest) -> String {
        if value.hasPrefix("file://") { return String(value.dropFirst("file://".count)) }
        if value.contains("://") { return value }
        if value.hasPrefix("/") { return value }
        if value.hasPrefix("~/"), let home = environment["HOME"] { return home + value.dropFirst(1) }
        return Paths.normalize(Paths.join(Paths.dirname(request.origin.file), value))
    }

    /// The file names linked from an HTML page, without yanked ones.
    static func links(_ html: String) -> [String] {
        files(html, base: "").filter { !$0.yanked }.map(\.name)
    }

    /// The files linked from an HTML page, their URLs resolved against `base`.
    static func files(_ html: String, base: String) -> [IndexFile] {
        var out: [IndexFile] = []
        let baseURL = URL(string: base)
        for match in html.matches(of: #/<a\s([^>]*)>/#.ignoresCase()) {
            let attributes = String(match.output.1)
            // Attribute names are case-insensitive in HTML (`HREF=`), as the tag's is.
            guard let href = attributes.firstMatch(of: #/href\s*=\s*"([^"]*)"/#.ignoresCase())?.output.1
                ?? attributes.firstMatch(of: #/href\s*=\s*'([^']*)'/#.ignoresCase())?.output.1 else { continue }
            var url = String(href).replacingOccurrences(of: "&amp;", with: "&")
            var declared: String?
            if let hash = url.firstIndex(of: "#") {
                let fragment = url[url.index(after: hash)...]
                if fragment.hasPrefix("sha256="), Checksum.isSHA256(String(fragment.dropFirst(7))) { declared = fragment.dropFirst(7).lowercased() }
                url = String(url[..<hash])
            }
            let name = url.split(separator: "/").last.map(String.init) ?? url
            let location = URL(string: url, relativeTo: baseURL)?.absoluteString ?? url
            out.append(IndexFile(name: name.removingPercentEncoding ?? name, location: location, declared: declared, yanked: attributes.lowercased().contains("data-yanked")))
        }
        return out
    }

    /// PEP 503 normalization: `Foo.Bar_baz` → `foo-bar-baz`.
    static func normalize(_ name: String) -> String {
        var out = ""
        var pendingDash = false
        for c in name.lowercased() {
            if c == "-" || c == "_" || c == "." {
                pendingDash = true
                continue
            }
            if pendingDash && !out.isEmpty { out.append("-") }
            pendingDash = false
            out.append(c)
        }
        return out
    }

    /// The project and version a distribution's file name says (a wheel or an sdist).
    static func distribution(_ file: String) -> (project: String, version: String)? {
        if file.hasSuffix(".whl") {
            let parts = file.dropLast(4).split(separator: "-")
            guard parts.count >= 5 else { return nil }
            return (normalize(String(parts[0])), String(parts[1]))
        }
        for suffix in [".tar.gz", ".zip", ".tar.bz2", ".tgz"] where file.hasSuffix(suffix) {
            let stem = String(file.dropLast(suffix.count))
            // The name may hold dashes; the version is after the last one.
            guard let dash = stem.lastIndex(of: "-") else { return nil }
            return (normalize(String(stem[..<dash])), String(stem[stem.index(after: dash)...]))
        }
        return nil
    }

    static func slash(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    // MARK: Install

    /// One locked distribution: `name==version` and the hashes any of its files may have.
    struct Pinned: Equatable {
        var name: String
        var version: String
        var hashes: [String]
        var line: String { "\(name)==\(version) " + hashes.map { "--hash=sha256:\($0)" }.joined(separator: " ") }
    }

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

    /// `--index-url` and `--find-links` as the pin sets them.
    func sources(_ request: ToolRequest) -> [String] {
        var out: [String] = []
        if let index = request.options.pip.indexURL { out += ["--index-url", index] }
        if let links = request.options.pip.findLinks { out += ["--find-links", findLinks(links, request)] }
        return out
    }

    /// `package[extras]==version`, what resolving the tool asks for.
    func wanted(_ request: ToolRequest, _ version: Version) -> String {
        let extras = request.options.pip.extras.isEmpty ? "" : "[" + request.options.pip.extras.joined(separator: ",") + "]"
        return "\(source(of: request))\(extras)==\(version.text)"
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let request = job.request
        let tool = "\(job.locked.name) \(job.locked.version)"
        let uv = locate("uv")
        // uv queries (and caches) the interpreter itself; pip needs its real path first.
        let python = uv == nil ? try await interpreter(request) : (path: try interpreterPath(request), version: "")
        let venv = job.directory + "/venv"
        // What the lock pins for every platform, and what this one installs of it.
        var locked = try await lockedForThisPlatform(job)
        // A virtualenv made before for exactly this pin, from exactly these distributions and
        // this interpreter (kept in the cache when its install was removed), is cloned (hard
        // links) instead of being made again: `tack install` of a locked tool is then about as
        // fast as `uv tool install` from its warm cache. Its set was resolved or checked here
        // when it was made, so it is not checked again.
        let installer = uv == nil ? "pip" : "uv"
        let cacheKey = locked.pinned.isEmpty ? nil : environmentKey(interpreter: python.path, installer: installer, request: request, version: job.locked.version, pinned: locked.pinned)
        if let cacheKey, let cachedPrefix = reuseEnvironment(cacheKey, cache: job.cache, into: venv) {
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
        let key = cacheKey ?? environmentKey(interpreter: python.path, installer: installer, request: request, version: job.locked.version, pinned: locked.pinned)
        return try finish(job, venv: venv, prefix: job.directory, python: python, lockFields: locked.lockFields(locked.pinned), cacheKey: key)
    }

    /// What tack.lock pins of a pip tool: every platform's distributions, this platform's
    /// selection of them (resolved here and merged in when the lock has none for it yet),
    /// and the lock fields an install records.
    struct LockedSet {
        var everything: [Pinned]
        var selection: PlatformSelection
        var pinned: [Pinned]
        var resolvedHere = false

        func lockFields(_ installed: [Pinned]) -> [String: LockValue] {
            guard selection.isRecorded else { return PipLockRecord(installed).fields }
            return PipLockRecord(everything).fields.merging([PlatformSelection.field: selection.lockValue]) { $1 }
        }
    }

    func lockedForThisPlatform(_ job: InstallJob) async throws(TackError) -> LockedSet {
        let tool = "\(job.locked.name) \(job.locked.version)"
        let everything = try PipLockRecord(job.locked.fields).distributions(of: "\(job.locked.name) \(job.locked.version)")
        var set = LockedSet(everything: everything, selection: PlatformSelection(job.locked), pinned: everything)
        guard set.selection.isRecorded else { return set }
        let here = Platform.current
        if let names = set.selection.names(for: here) {
            let wanted = Set(names)
            set.pinned = everything.filter { wanted.contains($0.name) }
        } else if job.frozen {
            throw TackError("tack.lock locks the distributions of \(tool) for \(set.selection.covered.sorted().joined(separator: ", ")), not \(here), and --frozen installs only what it can verify — run `tack lock --platform \(here)` (on any machine) and commit tack.lock; nothing was installed")
        } else {
            job.report(.custom("resolving for \(here)"))
            set.pinned = try await resolve(job.request, version: job.locked.version, for: here, constraints: everything, scratch: job.scratch)
            set.resolvedHere = true
            set.everything = try Self.merge(everything, set.pinned, tool: tool, platform: here)
            set.selection.set(set.pinned.map(\.name), for: here)
        }
        return set
    }

    /// Refuses a locked set that is not what resolving the pin gives (`resolved`).
    static func check(_ pinned: [Pinned], against resolved: [String: String], tool: String, name: String) throws(TackError) {
        let have = Dictionary(pinned.map { (normalize($0.name), $0.version) }, uniquingKeysWith: { a, _ in a })
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
    func resolveUnlocked(_ job: InstallJob, python: String, uv: String?, venv: String) async throws(TackError) -> ([Pinned], [String]) {
        let request = job.request
        let tool = "\(job.locked.name) \(job.locked.version)"
        if job.frozen {
            throw TackError("tack.lock records no distributions for \(tool), and --frozen installs only what it records — run `tack install` without --frozen once")
        }
        job.report(.custom("resolving"))
        let wanted = self.wanted(request, job.locked.version)
        let target = ["--python", venv + "/bin/python"], sources = self.sources(request)
        var pinned: [Pinned], installSources = sources
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
            pinned = Self.parseRequirements(text(output))
        } else {
            if job.offline { throw TackError("TACK_OFFLINE is set, and without uv pip cannot install \(tool) from its cache — put uv on PATH, or unset TACK_OFFLINE") }
            let dists = job.scratch + "/dists"
            // pip runs from the base interpreter into the venv (`pip --python`, pip 22.3 and later).
            do {
                try await run(python, ["-m", "pip"] + target + ["download", "--quiet", "--dest", dists] + sources + [wanted], job, toolEnvironment, "download \(tool)")
            } catch {
                throw await existence(request, job.locked.version) ?? error
            }
            pinned = try hashDownloads(dists)
            installSources = ["--no-index", "--find-links", dists]
        }
        let package = source(of: request)
        guard pinned.contains(where: { Self.normalize($0.name) == Self.normalize(package) }) else {
            throw TackError("resolving \(tool) did not select \(package) itself — is `\(package)` the package's name?")
        }
        return (pinned, installSources)
    }

    /// Installs exactly `pinned` (hashes required, no dependencies of their own) into the venv.
    func installPinned(_ pinned: [Pinned], job: InstallJob, python: String, uv: String?, venv: String, sources: [String]) async throws(TackError) {
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
    func resolvedSet(_ request: ToolRequest, version: Version, python: String, uv: String?, constraints: [Pinned], job: InstallJob) async throws(TackError) -> [String: String] {
        let tool = "\(request.name) \(version)"
        let input = job.scratch + "/check.in", held = job.scratch + "/check-constraints.txt", output = job.scratch + "/check.txt"
        try write(input, wanted(request, version) + "\n")
        try write(held, constraints.map { "\($0.name)==\($0.version)\n" }.joined())
        var out: [String: String] = [:]
        if let uv {
            try await run(uv, ["pip", "compile", "--quiet", "--no-header", "--no-annotate", "--python", python]
                + (job.offline ? ["--offline"] : []) + sources(request) + ["--constraint", held, input, "-o", output], job, toolEnvironment, "resolve \(tool) to check tack.lock")
            for p in Self.parseRequirements(text(output)) { out[Self.normalize(p.name)] = p.version }
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
            out[Self.normalize(name)] = v
        }
        return out
    }

    /// The scripts pointed at the final place, the package's commands linked into bin/, and
    /// what the install records: with the environment's key (`cacheKey`), the environment is
    /// moved into the cache when the install is removed (`KeptPart`).
    func finish(_ job: InstallJob, venv: String, prefix: String, python: (path: String, version: String), lockFields: [String: LockValue], cacheKey: String?) throws(TackError) -> InstallOutcome {
        let package = source(of: job.request)
        try Relocation(fs: fs).rewriteScripts(in: venv + "/bin", from: prefix, to: job.destination)
        let scripts = try consoleScripts(venv: venv, package: package)
        guard !scripts.isEmpty else {
            throw TackError("\(package) \(job.locked.version) has no console scripts, so there is nothing to run — is it a library rather than a tool?")
        }
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
        let out = try await runner.run(program, args, directory: job.scratch, environment: env)
        guard out.status == 0 else { throw TackError("cannot \(what): \(Paths.basename(program)) failed (exit \(out.status)):\n\(out.tail(20))") }
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

    /// The interpreter: `python:` (a path, or a command on PATH, such as a python pinned with
    /// tack whose bin directory is on PATH) or `python3`; resolved to its real file.
    func interpreter(_ request: ToolRequest) async throws(TackError) -> (path: String, version: String) {
        let path = try interpreterPath(request)
        let probe = "import os, sys; print(os.path.realpath(sys.executable)); print('%d.%d.%d' % sys.version_info[:3])"
        let out: ProcessOutput
        do { out = try await runner.run(path, ["-c", probe], directory: "/", environment: environment) } catch {
            throw TackError("cannot run the Python interpreter \(path): \(error.message)")
        }
        let lines = out.output.split(separator: "\n").map(String.init)
        guard out.status == 0, lines.count >= 2, lines[lines.count - 2].hasPrefix("/") else {
            throw TackError("\(path) is not a working Python interpreter:\n\(out.tail(5))")
        }
        return (lines[lines.count - 2], lines[lines.count - 1])
    }

    func interpreterPath(_ request: ToolRequest) throws(TackError) -> String {
        let asked = request.options.pip.python ?? "python3"
        guard !asked.contains("/") else {
            let path = asked.hasPrefix("~/") ? (environment["HOME"] ?? "") + asked.dropFirst(1) : asked
            let absolute = path.hasPrefix("/") ? path : Paths.normalize(Paths.join(Paths.dirname(request.origin.file), path))
            guard fs.isExecutable(absolute) else {
                throw TackError("the Python interpreter \(absolute) of \(request.name) does not exist (set by \(request.origin.describe(home: nil)))")
            }
            return absolute
        }
        guard let found = locate(asked) else {
            throw TackError("\(request.name) needs Python, and `\(asked)` is not on PATH — install Python 3, or name an interpreter with `python:` (set by \(request.origin.describe(home: nil)))")
        }
        return found
    }

    /// The executable `name` on PATH, outside tack's shims.
    func locate(_ name: String) -> String? {
        ExecutableSearch(environment: environment, skipping: shims.map { [$0] } ?? []).find(name)
    }

    // MARK: Every platform

    /// uv's `--python-platform` for a platform: its target triple, glibc Linux (uv's
    /// manylinux_2_28 baseline) or macOS (uv's oldest supported release), so a wheel locked
    /// runs on any current machine of that platform.
    static func uvTarget(_ platform: Platform) -> String { platform.triple }

    /// `tack lock` for platforms the entry does not cover yet: each resolved by uv for that
    /// platform, keeping every version already locked (one version of each distribution on
    /// every platform), and recorded with its wheels' hashes and what it installs.
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var selection = PlatformSelection(entry)
        var everything = try PipLockRecord(entry.fields).distributions(of: "\(entry.name) \(entry.version)")
        // Without uv, pip resolves only by installing: this platform's set is recorded by the
        // install, as before (uv, which bootstrap and most setups have, records it here).
        let missing = selection.missing(platforms, recordsArtifacts: !everything.isEmpty || locate("uv") == nil)
        guard !missing.isEmpty else { return [:] }
        let tool = "\(entry.name) \(entry.version)"
        let scratch = try lockScratchDirectory(in: cache)
        defer { try? fs.remove(scratch) }
        for platform in missing {
            let resolved = try await resolve(request, version: entry.version, for: platform, constraints: everything, scratch: scratch)
            everything = try Self.merge(everything, resolved, tool: tool, platform: platform)
            selection.set(resolved.map(\.name), for: platform)
        }
        return PipLockRecord(everything).fields.merging([PlatformSelection.field: selection.lockValue]) { $1 }
    }

    /// `tack lock --verify`: every file tack.lock allows for each distribution the covered
    /// platforms install, found on the index again (by the hash its page declares, or among a
    /// directory's files), downloaded (never from a cache) and hashed. A locked hash no file
    /// there has any more is named with the files that took its place.
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let everything: [Pinned]
        do { everything = try PipLockRecord(entry.fields).distributions(of: "\(entry.name) \(entry.version)") } catch { return (0, [error.message]) }
        guard !everything.isEmpty else { return (0, []) }
        let tool = "\(entry.name) \(entry.version)"
        let selection = PlatformSelection(entry)
        let covered = selection.isRecorded ? selection.byPlatform.keys.sorted().compactMap { Platform(key: $0) } : [Platform.current]
        let used = selection.isRecorded ? selection.allNames : Set(everything.map(\.name))
        var problems: [String] = []
        var fetches: [(pin: Pinned, file: IndexFile)] = []
        var offered: [String: [IndexFile]] = [:]
        for pin in everything where used.contains(pin.name) {
            let files: [IndexFile]
            do { files = try await distributionFiles(pin, request) } catch {
                problems.append("cannot verify \(pin.name) \(pin.version) of \(tool): \(error.message)")
                continue
            }
            offered[pin.name] = files
            let locked = Set(pin.hashes.map { $0.lowercased() })
            // Files whose page vouches for a locked hash, and files with no declared hash.
            fetches += files.filter { $0.declared.map(locked.contains) ?? true }.map { (pin, $0) }
        }
        let sums = await hash(fetches.map(\.file), tool: tool, scratch: scratch, jobs: jobs)
        var checked = 0
        var served: [String: Set<String>] = [:]
        for (item, result) in zip(fetches, sums) {
            switch result {
            case .failure(let error):
                problems.append("cannot verify \(item.file.name) of \(tool): \(error.message)")
            case .success(let sum):
                checked += 1
                served[item.pin.name, default: []].insert(sum)
                if let declared = item.file.declared, declared != sum {
                    problems.append("\(tool): \(item.file.name) from the index is \(sum), but its page and tack.lock say \(declared) — was the file replaced? tack.lock is unchanged")
                }
            }
        }
        for pin in everything where used.contains(pin.name) && offered[pin.name] != nil {
            let have = served[pin.name] ?? []
            let locked = Set(pin.hashes.map { $0.lowercased() })
            for hash in pin.hashes.map({ $0.lowercased() }).sorted() where !have.contains(hash) {
                // What took its place: files for the covered platforms with hashes the lock lacks.
                let others = (offered[pin.name] ?? []).filter { file in
                    Self.concerns(file.name, covered) && !(file.declared.map(locked.contains) ?? false)
                }.map { file in "\(file.name)\(file.declared.map { " (sha256 \($0))" } ?? "")" }
                problems.append("\(tool): the index no longer serves the file of \(pin.name) \(pin.version) that tack.lock locks with sha256 \(hash)"
                    + (others.isEmpty ? "" : "; it now offers \(others.joined(separator: ", "))") + " — was it replaced? tack.lock is unchanged")
            }
        }
        return (checked, problems)
    }

    /// Each file's SHA-256: a local one read, a remote one downloaded again (never from the
    /// download cache), at most `jobs` at once.
    func hash(_ files: [IndexFile], tool: String, scratch: String, jobs: Int) async -> [Result<String, TackError>] {
        let downloader = Downloader(http: http, retryDelays: [0.25, 0.5, 1])
        return await Concurrently.map(files, jobs: jobs) { file -> Result<String, TackError> in
            if file.location.hasPrefix("/") {
                guard let sum = Hashing.sha256(file: file.location) else { return .failure(TackError("cannot read \(file.location)")) }
                return .success(sum.hex)
            }
            do throws(TackError) {
                let fetched = try await downloader.fetch(file.location, expected: nil, from: "", tool: tool, platform: "", cache: scratch + "/pip", offline: false) { _ in }
                try? fs.remove(fetched.path)
                return .success(fetched.sum)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The files of one locked distribution on its index and in its find_links.
    func distributionFiles(_ pin: Pinned, _ request: ToolRequest) async throws(TackError) -> [IndexFile] {
        var out: [IndexFile] = []
        if let links = request.options.pip.findLinks { out += try await files(at: findLinks(links, request), what: "find_links") }
        let index = request.options.pip.indexURL ?? Self.defaultIndex
        out += try await files(at: Self.slash(index) + pin.name + "/", what: "the index", missingIsEmpty: !out.isEmpty)
        return out.filter { file in
            guard let d = Self.distribution(file.name) else { return false }
            return d.project == pin.name && d.version == pin.version
        }
    }

    /// Whether a distribution file can be installed on one of `platforms`: a wheel by its
    /// platform tags (`any`, `macosx_11_0_arm64`, `manylinux_2_17_x86_64`, …), an sdist always.
    static func concerns(_ file: String, _ platforms: [Platform]) -> Bool {
        guard file.hasSuffix(".whl"), let tagSet = file.dropLast(4).split(separator: "-").last else { return true }
        return tagSet.split(separator: ".").contains { tag in
            if tag == "any" { return true }
            let os: String
            if tag.hasPrefix("macosx_") { os = "darwin" } else if tag.hasPrefix("manylinux") || tag.hasPrefix("musllinux") || tag.hasPrefix("linux_") { os = "linux" } else { return false }
            return platforms.contains { p in
                guard p.os == os else { return false }
                if tag.hasSuffix("universal2") || tag.hasSuffix("universal") { return true }
                if tag.hasSuffix("_intel") { return p.arch == "x86_64" }
                return tag.hasSuffix(p.arch == "arm64" ? (os == "darwin" ? "_arm64" : "_aarch64") : "_x86_64")
            }
        }
    }

    /// The distributions `request` at `version` installs on `platform`, with their hashes, as
    /// uv resolves them for that platform (`--python-platform`, and this interpreter's Python
    /// version), every distribution in `constraints` held to its locked version.
    func resolve(_ request: ToolRequest, version: Version, for platform: Platform, constraints: [Pinned], scratch: String) async throws(TackError) -> [Pinned] {
        let tool = "\(request.name) \(version)"
        guard let uv = locate("uv") else {
            throw TackError("locking \(tool) for \(platform) needs uv on PATH: pip resolves only for the machine it runs on, uv for any (`uv pip compile --python-platform`) — install uv (https://docs.astral.sh/uv/); nothing was changed")
        }
        let python = try await interpreter(request)
        let pythonVersion = python.version.split(separator: ".").prefix(2).joined(separator: ".")
        // Files of their own: uv takes an existing output file's pins (and hashes) as given.
        let input = scratch + "/\(platform).in", held = scratch + "/\(platform)-constraints.txt", output = scratch + "/\(platform).txt"
        try? fs.remove(output)
        try write(input, wanted(request, version) + "\n")
        try write(held, constraints.map { "\($0.name)==\($0.version)\n" }.joined())
        var args = ["pip", "compile", "--quiet", "--generate-hashes", "--no-header", "--no-annotate",
                    "--python", python.path, "--python-platform", Self.uvTarget(platform), "--python-version", pythonVersion]
        args += sources(request) + ["--constraint", held, input, "-o", output]
        let out: ProcessOutput
        do { out = try await runner.run(uv, args, directory: scratch, environment: toolEnvironment) } catch {
            throw TackError("cannot run uv to resolve \(tool) for \(platform): \(error.message)")
        }
        guard out.status == 0 else { throw await existence(request, version) ?? Self.resolutionFailure(out, tool: tool, platform: platform, python: pythonVersion) }
        let pinned = Self.parseRequirements(text(output))
        guard pinned.contains(where: { $0.name == Self.normalize(source(of: request)) }) else {
            throw TackError("resolving \(tool) for \(platform) did not select \(source(of: request)) itself — is `\(source(of: request))` the package's name?")
        }
        return pinned
    }

    /// uv's failure to resolve for a platform, in one line when it is a missing wheel.
    static func resolutionFailure(_ out: ProcessOutput, tool: String, platform: Platform, python: String) -> TackError {
        let text = out.output
        if let m = text.firstMatch(of: #/([A-Za-z0-9._-]+)==([^\s]+) has no wheels with a matching (platform|Python ABI|Python implementation|Python version) tag/#) {
            let what = m.output.3 == "platform" ? "for \(platform)" : "for Python \(python) on \(platform)"
            var message = "\(tool) needs \(m.output.1) \(m.output.2), which has no wheel \(what) and no source distribution to build one"
            if let hint = text.firstMatch(of: #/Wheels are available for `[^`]+` \(v[^)]*\) on the following platforms?: ([^\n]+)/#) {
                message += " (the index has wheels for \(hint.output.1.replacingOccurrences(of: "`", with: "")))"
            }
            return TackError(message + " — drop \(platform) from `platforms:`, or pin a version that has one; nothing was changed")
        }
        return TackError("cannot resolve \(tool) for \(platform): uv failed (exit \(out.status)):\n\(out.tail(15))")
    }

    /// `more` added to `pinned`: each distribution's hashes joined. One version of each on
    /// every platform, so another version is refused (the constraints make it rare).
    static func merge(_ pinned: [Pinned], _ more: [Pinned], tool: String, platform: Platform) throws(TackError) -> [Pinned] {
        var byName = Dictionary(pinned.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for p in more {
            guard var existing = byName[p.name] else {
                byName[p.name] = p
                continue
            }
            guard existing.version == p.version else {
                throw TackError("\(tool) needs \(p.name) \(p.version) on \(platform), but tack.lock has \(p.name) \(existing.version) for its other platforms, and a lock keeps one version of each on every platform — drop \(platform) from `platforms:`, or lock another version of the tool; nothing was changed")
            }
            for h in p.hashes where !existing.hashes.contains(where: { $0.lowercased() == h.lowercased() }) { existing.hashes.append(h) }
            byName[p.name] = existing
        }
        return byName.keys.sorted().compactMap { byName[$0] }
    }

    // MARK: The environment cache

    /// The cache key: the interpreter (its path and what it resolves to, with its size and
    /// modification time, so an upgraded python is another key), the installer, the pin (the
    /// package, its extras and version, and where it comes from: the set was checked against
    /// resolving exactly that) and every distribution with its hashes.
    func environmentKey(interpreter: String, installer: String, request: ToolRequest, version: Version, pinned: [Pinned]) -> String {
        let real = fs.linkTarget(interpreter).map { $0.hasPrefix("/") ? $0 : Paths.dirname(interpreter) + "/" + $0 } ?? interpreter
        let info = fs.info(real)
        let stamp = "\(info?.mtime ?? 0) \(info?.size ?? 0)"
        let pin = "pin " + ([wanted(request, version)] + sources(request)).joined(separator: " ")
        let text = (["interpreter \(interpreter) \(real) \(stamp)", "installer \(installer)", pin] + pinned.map(\.line).sorted()).joined(separator: "\n")
        return Hashing.sha256(Array(text.utf8))
    }

    /// Clones the cached environment into `venv`; returns the path its scripts name, or nil.
    func reuseEnvironment(_ key: String, cache: String, into venv: String) -> String? {
        let dir = cache + "/pip-envs/" + key
        guard let prefix = (try? fs.read(dir + "/prefix")).map({ String(decoding: $0, as: UTF8.self) }), !prefix.isEmpty,
              (try? Relocation(fs: fs).cloneTree(dir + "/venv", to: venv)) != nil
        else {
            try? fs.remove(venv)
            return nil
        }
        return prefix
    }

    // MARK: The lock

    /// A normalized distribution name (PEP 503): letters, digits, `.`, `_` and `-`, starting
    /// and ending with a letter or digit.
    static func isDistributionName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        func alnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
        guard let first = b.first, let last = b.last, b.count <= 200, alnum(first), alnum(last) else { return false }
        return b.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// A PEP 440 version as pip writes it (`1.0.0`, `2.0rc1`, `1!2.0.post1+local.7`): no space,
    /// no option, no line break.
    static func isDistributionVersion(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, b.count <= 100, (first >= 0x30 && first <= 0x39) || first == 0x76 else { return false }
        return b.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2E || $0 == 0x2B || $0 == 0x21 || $0 == 0x5F || $0 == 0x2D }
    }

    /// `name==version --hash=sha256:…` lines, continuation backslashes joined.
    static func parseRequirements(_ text: String) -> [Pinned] {
        let joined = text.replacingOccurrences(of: "\\\n", with: " ")
        var out: [Pinned] = []
        for line in joined.split(separator: "\n") {
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = tokens.first, !first.hasPrefix("#"), !first.hasPrefix("-"), let eq = first.range(of: "==") else { continue }
            let hashes = tokens.compactMap { t -> String? in t.hasPrefix("--hash=sha256:") ? String(t.dropFirst("--hash=sha256:".count)) : nil }
            var name = String(first[..<eq.lowerBound])
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            out.append(Pinned(name: normalize(name), version: String(first[eq.upperBound...]), hashes: hashes))
        }
        return out
    }

    /// The downloaded files, each as a pinned distribution with its SHA-256.
    func hashDownloads(_ dir: String) throws(TackError) -> [Pinned] {
        guard let files = try? fs.list(dir) else { throw TackError("pip downloaded nothing into \(dir)") }
        var out: [Pinned] = []
        for file in files.sorted() {
            guard let d = Self.distribution(file), let data = try? fs.read(dir + "/" + file, limit: Int.max) else { continue }
            out.append(Pinned(name: d.project, version: d.version, hashes: [Hashing.sha256(data)]))
        }
        return out
    }

    // MARK: Console scripts

    /// The commands the package itself installs: its entry points' console and GUI scripts,
    /// and the scripts its RECORD puts in bin/.
    func consoleScripts(venv: String, package: String) throws(TackError) -> [String] {
        let lib = venv + "/lib"
        let pythons = ((try? fs.list(lib)) ?? []).filter { $0.hasPrefix("python") }
        for py in pythons {
            let site = lib + "/" + py + "/site-packages"
            for entry in (try? fs.list(site)) ?? [] where entry.hasSuffix(".dist-info") {
                guard let d = Self.distribution(String(entry.dropLast(".dist-info".count)) + "-x-x-x.whl"), d.project == Self.normalize(package) else { continue }
                var names: Set<String> = []
                let info = site + "/" + entry
                if let text = (try? fs.read(info + "/entry_points.txt")).map({ String(decoding: $0, as: UTF8.self) }) {
                    var section = ""
                    for raw in text.split(separator: "\n") {
                        let line = raw.trimmingCharacters(in: .whitespaces)
                        if line.hasPrefix("[") { section = line; continue }
                        guard section == "[console_scripts]" || section == "[gui_scripts]", let eq = line.firstIndex(of: "=") else { continue }
                        names.insert(line[..<eq].trimmingCharacters(in: .whitespaces))
                    }
                }
                if let record = (try? fs.read(info + "/RECORD", limit: Int.max)).map({ String(decoding: $0, as: UTF8.self) }) {
                    for line in record.split(separator: "\n") {
                        let path = line.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                        if path.hasPrefix("../../../bin/") { names.insert(String(path.dropFirst("../../../bin/".count))) }
                    }
                }
                return names.filter { ToolName.isValidBinaryName($0) && fs.isExecutable(venv + "/bin/" + $0) }.sorted()
            }
        }
        throw TackError("\(package) was installed, but its metadata (a .dist-info directory) is missing")
    }
}
