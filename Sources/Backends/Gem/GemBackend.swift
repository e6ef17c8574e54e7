import Foundation
import BackendKinds
import TackCore

/// Ruby gems (`fastlane: { gem: fastlane, version: "~> 2.220" }`): an isolated GEM_HOME per
/// tool version; the gem's executables wrapped so they run with that GEM_HOME and GEM_PATH and
/// the ruby found when it was installed (one pinned with tack first on PATH, else the system's).
///
/// The gems are fetched first, checked against the SHA-256 the lock records for each file (or
/// recorded there the first time), and only then installed, from those files, so a changed
/// gem on the source never runs its install hooks.
public struct GemBackend: Backend {
    public let name = "gem"
    let runner: any ProcessRunner
    let environment: [String: String]
    /// tack's shims directory, never where ruby is taken from.
    let shims: String?

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem

    /// For the gem server's JSON API (when each version was published); nil asks nothing.
    let http: (any HTTPClient)?
    /// Where gem files are downloaded with: the network itself, never a copy's recording
    /// client (a copy keeps gems by name); nil takes `http`.
    var downloads: (any HTTPClient)?
    /// Delays between attempts after a transient failure of a gem file's download.
    var retryDelays: [Double] = [0.25, 0.5, 1, 2]
    /// The copy being made (`tack mirror`): the locked gem files are kept in it.
    var copy: CopyWriter?
    /// The gem files of the copy installed from (`tack install --from`), fetched from nowhere else.
    var carriedGems: String?

    public init(runner: any ProcessRunner, environment: [String: String], shims: String?, fs: any FileSystem = LocalFileSystem(), http: (any HTTPClient)? = nil) {
        self.fs = fs
        self.runner = runner
        self.environment = environment
        self.shims = shims
        self.http = http
    }


    static let defaultSource = "https://rubygems.org/"

    func gemSource(_ request: ToolRequest) -> String { request.options.gem.source ?? Self.defaultSource }

    /// The environment `gem` runs in: no user gem paths, no bundler.
    func gemEnvironment(home: String) -> [String: String] {
        var env = environment
        for key in ["RUBYOPT", "RUBYLIB", "BUNDLE_GEMFILE", "BUNDLE_BIN_PATH", "BUNDLER_SETUP", "GEM_SPEC_CACHE"] { env[key] = nil }
        env["GEM_HOME"] = home
        env["GEM_PATH"] = home
        return env
    }

    // MARK: Versions

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        let gem = try tools(request).gem
        let scratch = Paths.child(CurrentProcess.temporaryDirectory, "tack-gem-\(getpid())-\(UUID().uuidString)")
        try? fs.createDirectory(scratch)
        defer { try? fs.remove(scratch) }
        let out = try await runner.runChecked(gem, ["search", "--remote", "--exact", "--all", source(of: request), "--clear-sources", "--source", gemSource(request)],
                                              doing: "list the versions of the gem \(source(of: request)) on \(gemSource(request))",
                                              directory: scratch, environment: gemEnvironment(home: scratch + "/gems"), lines: 10)
        let versions = GemServer.parseSearch(out.output, gem: source(of: request))
        if versions.isEmpty {
            throw TackError("no gem named `\(source(of: request))` on \(gemSource(request)) (set by \(request.origin.describe(home: nil)))")
        }
        return versions.sorted().map { AvailableVersion(version: $0) }
    }

    public func published(_ versions: [AvailableVersion], of request: ToolRequest) async -> [AvailableVersion] {
        let (times, unreadable) = await GemServer(http: http).publicationTimes(source(of: request), server: gemSource(request))
        return AvailableVersion.dated(versions, times: times, unreadable: unreadable)
    }

    /// `tack lock --verify` (`GemLockVerification`).
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        await GemLockVerification(backend: self).verify(entry, for: request, scratch: scratch, jobs: jobs)
    }

    // MARK: Install

    /// ruby (a pinned one first on PATH, else the system's) and the gem command beside it.
    func tools(_ request: ToolRequest) throws(TackError) -> (ruby: String, gem: String) {
        guard let ruby = locate("ruby") else {
            throw TackError("\(request.name) is a gem, and there is no `ruby` on PATH — install Ruby (Debian: ruby, ruby-dev), or pin one with tack (set by \(request.origin.describe(home: nil)))")
        }
        let beside = Paths.dirname(ruby) + "/gem"
        if ExecutableSearch.isExecutable(beside) { return (ruby, beside) }
        guard let gem = locate("gem") else { throw TackError("\(ruby) has no `gem` command beside it, and none is on PATH") }
        return (ruby, gem)
    }

    func locate(_ name: String) -> String? {
        ExecutableSearch(environment: environment, skipping: shims.map { [$0] } ?? []).find(name)
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "\(job.locked.name) \(job.locked.version)"
        let gemName = source(of: job.request)
        let (ruby, gem) = try tools(job.request)
        let home = job.directory + "/gems"
        let env = gemEnvironment(home: home)
        let fetched = job.scratch + "/fetch"
        try fs.makeDirectory(fetched)
        let (lockedGems, selection) = try await lockedForThisPlatform(job, gem: gem, scratch: fetched)
        var pinned = lockedGems
        if pinned.isEmpty { pinned = try await resolveUnlocked(job, gem: gem, home: home, scratch: fetched) }
        // Fetch (or take from the cache, keyed by SHA-256) and check every file first.
        let checked = try await fetchAndCheck(pinned, job: job, into: fetched)
        job.report(.building)
        let gemBin = job.directory + "/gem-bin"
        _ = try await runner.runChecked(gem, ["install", "--local", "--install-dir", home, "--bindir", gemBin, "--no-document", "--ignore-dependencies"] + checked.files,
                                        doing: "install \(tool)", directory: fetched, environment: env)
        let executables = try executables(home: home, gem: gemName)
        try PackageSet.requireSomething(executables, package: "the gem \(gemName) \(job.locked.version)", programs: "executables")
        let binaries = try writeWrappers(executables, job: job, ruby: ruby)
        let rubyVersion = (try? await runner.run(ruby, ["-e", "print RUBY_VERSION"], directory: fetched, environment: env))?.output ?? ""
        let gems = selection.isRecorded ? try GemPlatforms.versions(of: selection, tool: tool)
            : Dictionary(pinned.map { ($0.name, $0.version) }, uniquingKeysWith: { a, _ in a })
        let fields = PackageSet.lockFields(GemLockRecord(gems: gems, sha256: checked.recorded).fields, selection: selection)
        var outcome = InstallOutcome(binaries: binaries, metadata: ["ruby": "\(ruby) (\(rubyVersion))"], lockFields: fields)
        outcome.learned = checked.learned
        return outcome
    }

    /// The gems tack.lock pins for this platform (a lock for several platforms: its platform
    /// gems, resolved here and recorded when the lock has none for it yet), and the selection.
    func lockedForThisPlatform(_ job: InstallJob, gem: String, scratch: String) async throws(TackError) -> ([GemPin], PlatformSelection) {
        let pinned = GemLockRecord(job.locked.fields).gems.sorted { $0.key < $1.key }.map { GemPin(name: $0.key, version: $0.value) }
        var selection = PlatformSelection(job.locked)
        let here = try await PackageSet(job.locked, noun: "gems").forThisPlatform(&selection, job: job, recorded: { $0.compactMap(GemPin.pinned(stem:)) },
                                                                                 name: \.stem) { () async throws(TackError) in
            try await resolve(job.request, version: job.locked.version, for: .current, gem: gem, scratch: scratch)
        }
        return (here?.pins ?? pinned, selection)
    }

    /// A tool whose lock records no gems yet: resolved with `gem install --explain`.
    func resolveUnlocked(_ job: InstallJob, gem: String, home: String, scratch: String) async throws(TackError) -> [GemPin] {
        let set = PackageSet(job.locked, noun: "gems"), tool = set.tool
        let gemName = source(of: job.request)
        try set.requireRecorded(job)
        if job.offline { throw TackError("TACK_OFFLINE is set, and \(tool) has never been installed from its lock — unset TACK_OFFLINE") }
        job.report(.custom("resolving"))
        let sourceArgs = ["--clear-sources", "--source", gemSource(job.request)]
        let out = try await runner.runChecked(gem, ["install", gemName, "--version", job.locked.version.text, "--install-dir", home, "--explain", "--no-document"] + sourceArgs,
                                              doing: "resolve \(tool) on \(gemSource(job.request))", directory: scratch, environment: gemEnvironment(home: home), lines: 15)
        let pinned = GemPin.parseExplain(out.output)
        try set.requireSelected(pinned.contains { $0.name == gemName }, package: gemName, output: out.tail(10))
        return pinned
    }

    /// Every gem file, from the cache (keyed by SHA-256) or fetched and checked against the
    /// lock: the files to install, the checksums to record, and what the lock learns.
    func fetchAndCheck(_ pinned: [GemPin], job: InstallJob, into fetched: String) async throws(TackError) -> (files: [String], recorded: [String: String], learned: [Learned]) {
        let tool = "\(job.locked.name) \(job.locked.version)"
        job.report(.fetching)
        let lockedFiles = GemLockRecord(job.locked.fields).sha256
        var files: [String] = [], recorded = lockedFiles, learned: [Learned] = []
        let cache = job.cache + "/gems"
        try fs.makeDirectory(cache)
        for p in pinned {
            let expectedName = p.file
            try Self.checkName(p, tool: tool)
            if let sum = lockedFiles[expectedName], Checksum.isSHA256(sum), fs.info(cache + "/" + sum + "/" + expectedName) != nil {
                files.append(cache + "/" + sum + "/" + expectedName)
                continue
            }
            if job.offline { throw TackError("TACK_OFFLINE is set, and \(expectedName) is not in the cache — unset TACK_OFFLINE to install \(tool)") }
            let (file, sum): (String, String)
            if let carriedGems { (file, sum) = try carried(p, from: carriedGems, tool: tool) } else {
                (file, sum) = try await fetch(p, request: job.request, into: fetched, tool: tool)
            }
            if let expected = lockedFiles[file] {
                guard expected == sum else {
                    throw TackError("checksum mismatch for \(file) (\(tool)): tack.lock says \(expected), the gem from \(gemSource(job.request)) is \(sum) — nothing was installed")
                }
            } else if job.frozen {
                throw TackError(.noChecksum(tool: tool, of: file, remedy: .installOnce))
            } else if !lockedFiles.isEmpty {
                learned.append(Learned("the checksum of \(file)", sum))
            }
            recorded[file] = sum
            let path = carriedGems.map { $0 + "/" + file } ?? fetched + "/" + file
            keep(path, sum: sum, cache: cache)
            files.append(path)
        }
        return (files, recorded, learned)
    }

    /// Exactly one gem file, the platform gem its version names or the plain (`ruby`) one,
    /// never the one `gem` would pick for this machine: its file's name and SHA-256. From an
    /// http, https or file source (or a directory), taken from its `gems/` directory, where
    /// `gem fetch` takes it from, by tack's HTTP client: the proxy, CA and retries of every
    /// download, and no Ruby start per file. A source of another kind (`s3://`, which only
    /// RubyGems can sign requests for) is asked with `gem fetch`. Its callers have checked the
    /// name (`checkName`) before it became a path.
    func fetch(_ p: GemPin, request: ToolRequest, into dir: String, tool: String) async throws(TackError) -> (file: String, sum: String) {
        guard let url = Self.fileURL(p.file, source: gemSource(request)), let client = downloads ?? http else {
            return try await fetchWithGem(p, request: request, into: dir, tool: tool)
        }
        do {
            let sum = try await Downloader(http: client, retryDelays: retryDelays, fs: fs).withRetries { () async throws(HTTPFailure) -> String in
                try await client.download(url, to: dir + "/" + p.file) { _, _ in }
            }
            return (p.file, sum)
        } catch {
            try? fs.remove(dir + "/" + p.file)
            throw TackError("cannot fetch \(p.name) \(p.version) for \(tool) from \(Redact.url(url)): \(error.message)")
        }
    }

    /// Refuses a gem whose file name could not be one (tack.lock's names become paths).
    static func checkName(_ p: GemPin, tool: String) throws(TackError) {
        guard GemPin.isFileStem(p.stem) else {
            throw TackError("`\(p.file)` is not the name of a gem file (\(tool), from tack.lock) — nothing was fetched or installed")
        }
    }

    /// Where a gem source keeps `file`: `SOURCE/gems/FILE` for an http, https or file source
    /// or an absolute directory; nil for a source tack does not fetch from itself.
    static func fileURL(_ file: String, source: String) -> String? {
        let root: String
        if source.hasPrefix("/") {
            guard let path = source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
            root = "file://" + path
        } else {
            let scheme = source.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() }
            guard source.contains("://"), let scheme, ["http", "https", "file"].contains(scheme) else { return nil }
            root = source
        }
        return (root.hasSuffix("/") ? root : root + "/") + "gems/" + file
    }

    /// `gem fetch` of exactly one gem file into `dir`, for a source tack does not fetch from
    /// itself: its file's name and SHA-256.
    func fetchWithGem(_ p: GemPin, request: ToolRequest, into dir: String, tool: String) async throws(TackError) -> (file: String, sum: String) {
        let gem = try tools(request).gem
        let (plainVersion, platform) = GemPin.splitPlatform(p.version)
        _ = try await runner.runChecked(gem, ["fetch", p.name, "--version", plainVersion, "--platform", platform ?? "ruby", "--clear-sources", "--source", gemSource(request)],
                                        doing: "fetch \(p.name) \(p.version) for \(tool)", directory: dir, environment: gemEnvironment(home: dir + "/.gems"), lines: 10)
        guard let data = try? fs.read(dir + "/" + p.file, limit: Int.max) else {
            let got = ((try? fs.list(dir)) ?? []).filter { $0.hasSuffix(".gem") }.sorted()
            throw TackError("fetching \(p.name) \(p.version) for \(tool) did not produce \(p.file)\(got.isEmpty ? "" : " (it produced \(got.joined(separator: ", ")))")")
        }
        return (p.file, Hashing.sha256(data))
    }

    /// A gem file from the copy installed from (`tack install --from`): its name and SHA-256.
    func carried(_ p: GemPin, from dir: String, tool: String) throws(TackError) -> (file: String, sum: String) {
        guard let data = try? fs.read(dir + "/" + p.file, limit: Int.max) else {
            throw TackError("the copy installed from has no \(p.file) for \(tool), and tack installs from the copy with no other network (make the copy again with `tack mirror` from this tack.lock)")
        }
        return (p.file, Hashing.sha256(data))
    }

    /// `tack mirror`: every gem file tack.lock has a checksum for, fetched and checked as
    /// `tack lock --verify` does, kept in the copy by name.
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        guard let copy else { return nil }
        var verification = GemLockVerification(backend: self)
        verification.copy = copy
        let verified = await verification.verify(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }

    /// Keeps a fetched gem in the cache under its SHA-256. Best effort.
    func keep(_ path: String, sum: String, cache: String) {
        let file = Paths.basename(path)
        let kept = cache + "/" + sum
        try? fs.createDirectory(kept)
        guard fs.info(kept + "/" + file) == nil else { return }
        try? fs.copy(path, to: kept + "/" + file + ".partial-\(getpid())")
        _ = rename(kept + "/" + file + ".partial-\(getpid())", kept + "/" + file)
    }

    // MARK: Every platform

    /// The gems `request` at `version` installs on `platform`, platform gems where the source
    /// has them (`gem install --explain --platform`), nothing installed.
    func resolve(_ request: ToolRequest, version: Version, for platform: Platform, gem: String, scratch: String) async throws(TackError) -> [GemPin] {
        let tool = "\(request.name) \(version)"
        let name = source(of: request)
        let home = scratch + "/.explain-\(platform)"
        let out = try await runner.run(gem, ["install", name, "--version", version.text, "--install-dir", home, "--explain", "--no-document",
                                             "--platform", GemPlatforms.gemPlatform(platform), "--clear-sources", "--source", gemSource(request)],
                                       directory: scratch, environment: gemEnvironment(home: home))
        guard out.status == 0 else {
            if let missing = out.output.firstMatch(of: #/Could not find a valid gem '([^']+)' \(([^)]*)\)(?: \(required by '([^']+)' \(([^)]*)\)\))?/#) {
                let need = missing.output.3.map { " (\($0) needs it)" } ?? ""
                throw TackError("\(tool) needs the gem \(missing.output.1) \(missing.output.2)\(need), and \(gemSource(request)) has none for \(platform) (\(GemPlatforms.gemPlatform(platform))) nor a plain one — drop \(platform) from `platforms:`, or lock another version; nothing was changed")
            }
            throw TackError("cannot resolve \(tool) for \(platform) on \(gemSource(request)):\n\(out.tail(15, network: environment))")
        }
        let pinned = GemPin.parseExplain(out.output)
        try PackageSet(tool: tool, noun: "gems").requireSelected(pinned.contains { $0.name == name }, package: name, platform: platform, output: out.tail(10))
        return pinned
    }

    /// `tack lock` for platforms the entry does not cover yet: each resolved for its platform,
    /// every gem file not yet recorded fetched (through the gem cache, at most `jobs` at once)
    /// and its SHA-256 recorded.
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] {
        var selection = PlatformSelection(entry)
        let record = GemLockRecord(entry.fields)
        let missing = selection.missing(platforms, recordsArtifacts: !record.gems.isEmpty)
        guard !missing.isEmpty else { return [:] }
        let tool = "\(entry.name) \(entry.version)"
        let (_, gem) = try tools(request)
        let scratch = try lockScratchDirectory(in: cache)
        defer { try? fs.remove(scratch) }
        // An entry locked for this platform alone keeps what its install chose.
        if !selection.isRecorded, !record.gems.isEmpty, missing.contains(Platform.current) {
            selection.set(record.gems.sorted { $0.key < $1.key }.map { "\($0.key)-\($0.value)" }, for: .current)
        }
        for platform in selection.missing(platforms, recordsArtifacts: !record.gems.isEmpty) {
            selection.set(try await resolve(request, version: entry.version, for: platform, gem: gem, scratch: scratch).map(\.stem), for: platform)
        }
        var sums = record.sha256
        let unrecorded = selection.allNames.sorted().compactMap(GemPin.pinned(stem:)).filter { sums[$0.file] == nil }
        let fetched = await fetchAll(unrecorded, request: request, scratch: scratch, jobs: jobs, tool: tool)
        var problems: [String] = []
        for (p, result) in zip(unrecorded, fetched) {
            switch result {
            case .success(let (file, sum, path)):
                sums[file] = sum
                keep(path, sum: sum, cache: cache + "/gems")
            case .failure(let error): problems.append("\(p.file): \(error.message)")
            }
        }
        guard problems.isEmpty else { throw TackError("cannot lock \(tool) for every platform:\n  " + problems.joined(separator: "\n  ")) }
        return PackageSet.lockFields(GemLockRecord(gems: try GemPlatforms.versions(of: selection, tool: tool), sha256: sums).fields, selection: selection)
    }

    /// Each gem fetched into its own directory below `scratch`, at most `jobs` at once.
    func fetchAll(_ gems: [GemPin], request: ToolRequest, scratch: String, jobs: Int, tool: String) async -> [Result<(String, String, String), TackError>] {
        let backend = self
        return await Concurrently.map(gems, jobs: jobs) { p -> Result<(String, String, String), TackError> in
            let dir = scratch + "/" + p.stem
            do throws(TackError) {
                try Self.checkName(p, tool: tool)
                try fs.makeDirectory(dir)
                let (file, sum) = try await backend.fetch(p, request: request, into: dir, tool: tool)
                return .success((file, sum, dir + "/" + file))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The executables the gem's installed specification names.
    func executables(home: String, gem: String) throws(TackError) -> [String] {
        let specs = home + "/specifications"
        let files = ((try? fs.list(specs)) ?? []).filter { name in
            guard name.hasPrefix(gem + "-"), name.hasSuffix(".gemspec") else { return false }
            return name.dropFirst(gem.count + 1).first?.isNumber == true
        }
        guard let file = files.first, let text = (try? fs.read(specs + "/" + file)).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw TackError("the gem \(gem) was installed, but its specification is missing from \(specs)")
        }
        guard let list = text.firstMatch(of: #/\.executables\s*=\s*\[([^\]]*)\]/#)?.output.1 else { return [] }
        return list.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }.filter(ToolName.isValidBinaryName)
    }

    /// `bin/<exe>`: a script that runs the gem's executable with its own gems and the ruby
    /// it was installed with, whatever GEM_HOME, RUBYOPT or bundler the caller has.
    func writeWrappers(_ executables: [String], job: InstallJob, ruby: String) throws(TackError) -> [String] {
        let bin = job.directory + "/bin"
        try fs.makeDirectory(bin)
        var out: [String] = []
        let gems = job.destination + "/gems"
        for exe in executables {
            let script = WrapperScript(
                comment: "\(exe) from the gem \(source(of: job.request)) \(job.locked.version), with its own gems.",
                exports: [("GEM_HOME", gems), ("GEM_PATH", gems)],
                unsets: ["RUBYOPT", "RUBYLIB", "BUNDLE_GEMFILE", "BUNDLE_BIN_PATH", "BUNDLER_SETUP"],
                command: [ruby, job.destination + "/gem-bin/" + exe])
            do { try script.write(to: bin + "/" + exe, fs: fs) } catch { throw TackError.cannotWrite(bin + "/" + exe, error) }
            out.append("bin/" + exe)
        }
        return out
    }
}

extension GemKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        var backend = GemBackend(runner: e.runner(), environment: e.interpreters, shims: e.settings.store?.shims, fs: e.fs, http: e.http())
        backend.downloads = e.network()
        backend.copy = e.copy?.writer
        backend.carriedGems = e.copy?.reader?.gems
        return backend
    }
}
