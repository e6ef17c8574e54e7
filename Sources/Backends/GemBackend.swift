import Foundation
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

    public init(runner: any ProcessRunner, environment: [String: String], shims: String?) {
        self.runner = runner
        self.environment = environment
        self.shims = shims
    }

    public func source(of request: ToolRequest) -> String { request.source.identity ?? "" }

    static let defaultSource = "https://rubygems.org/"

    func gemSource(_ request: ToolRequest) -> String { request.options.gemSource ?? Self.defaultSource }

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
        let scratch = FileManager.default.temporaryDirectory.path + "/tack-gem-\(getpid())-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let out = try await runner.run(gem, ["search", "--remote", "--exact", "--all", source(of: request), "--clear-sources", "--source", gemSource(request)],
                                       directory: scratch, environment: gemEnvironment(home: scratch + "/gems"))
        guard out.status == 0 else { throw TackError("cannot list the versions of the gem \(source(of: request)) on \(gemSource(request)):\n\(out.tail(10))") }
        let versions = Self.parseSearch(out.output, gem: source(of: request))
        if versions.isEmpty {
            throw TackError("no gem named `\(source(of: request))` on \(gemSource(request)) (set by \(request.origin.describe(home: nil)))")
        }
        return versions.sorted().map { AvailableVersion(version: $0) }
    }

    /// `name (1.2.0, 1.1.0 x86_64-linux, 1.0.0)` → the versions.
    static func parseSearch(_ output: String, gem: String) -> [Version] {
        var out: Set<Version> = []
        for line in output.split(separator: "\n") where line.hasPrefix(gem + " (") && line.hasSuffix(")") {
            let inner = line.dropFirst(gem.count + 2).dropLast()
            for entry in inner.split(separator: ",") {
                guard let first = entry.split(separator: " ").first, let v = Version(String(first)) else { continue }
                out.insert(v)
            }
        }
        return Array(out)
    }

    // MARK: Install

    /// ruby (a pinned one first on PATH, else the system's) and the gem command beside it.
    func tools(_ request: ToolRequest) throws(TackError) -> (ruby: String, gem: String) {
        guard let ruby = locate("ruby") else {
            throw TackError("\(request.name) is a gem, and there is no `ruby` on PATH — install Ruby (Debian: ruby, ruby-dev), or pin one with tack (set by \(request.origin.describe(home: nil)))")
        }
        let beside = Paths.dirname(ruby) + "/gem"
        if FileManager.default.isExecutableFile(atPath: beside) { return (ruby, beside) }
        guard let gem = locate("gem") else { throw TackError("\(ruby) has no `gem` command beside it, and none is on PATH") }
        return (ruby, gem)
    }

    func locate(_ name: String) -> String? {
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !dir.isEmpty && String(dir) != shims {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A gem to install: name, version (with a platform suffix for platform gems), file.
    struct Pinned: Equatable {
        var name: String
        var version: String
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let request = job.request
        let tool = "\(job.locked.name) \(job.locked.version)"
        let gemName = source(of: request)
        let (ruby, gem) = try tools(request)
        let home = job.directory + "/gems"
        let env = gemEnvironment(home: home)
        let sourceArgs = ["--clear-sources", "--source", gemSource(request)]
        let fetched = job.scratch + "/fetch"
        try FileManager.default.createDirectoryOrFail(fetched)

        var lockedFiles: [String: String] = [:]
        if case .map(let m)? = job.locked.fields["sha256"] { lockedFiles = m }
        var pinned: [Pinned] = []
        if case .map(let m)? = job.locked.fields["gems"] {
            pinned = m.keys.sorted().map { Pinned(name: $0, version: m[$0]!) }
        }
        if pinned.isEmpty {
            if job.frozen { throw TackError("tack.lock records no gems for \(tool), and --frozen installs only what it records — run `tack install` without --frozen once") }
            if job.offline { throw TackError("TACK_OFFLINE is set, and \(tool) has never been installed from its lock — unset TACK_OFFLINE") }
            job.report(.custom("resolving"))
            let out = try await runner.run(gem, ["install", gemName, "--version", job.locked.version.text, "--install-dir", home, "--explain", "--no-document"] + sourceArgs,
                                           directory: fetched, environment: env)
            guard out.status == 0 else { throw TackError("cannot resolve \(tool) on \(gemSource(request)):\n\(out.tail(15))") }
            pinned = Self.parseExplain(out.output)
            guard pinned.contains(where: { $0.name == gemName }) else {
                throw TackError("resolving \(tool) did not select the gem \(gemName) itself:\n\(out.tail(10))")
            }
        }

        // Fetch (or take from the cache, keyed by SHA-256) and check every file first.
        job.report(.fetching)
        var files: [String] = []
        var recorded = lockedFiles
        var notes: [String] = []
        let cache = job.cache + "/gems"
        try FileManager.default.createDirectoryOrFail(cache)
        for p in pinned {
            let (plainVersion, platform) = Self.splitPlatform(p.version)
            let expectedName = "\(p.name)-\(p.version).gem"
            if let sum = lockedFiles[expectedName], FileManager.default.fileExists(atPath: cache + "/" + sum + "/" + expectedName) {
                files.append(cache + "/" + sum + "/" + expectedName)
                continue
            }
            if job.offline { throw TackError("TACK_OFFLINE is set, and \(expectedName) is not in the cache — unset TACK_OFFLINE to install \(tool)") }
            let out = try await runner.run(gem, ["fetch", p.name, "--version", plainVersion] + (platform.map { ["--platform", $0] } ?? []) + sourceArgs,
                                           directory: fetched, environment: env)
            guard out.status == 0 else { throw TackError("cannot fetch \(p.name) \(p.version) for \(tool):\n\(out.tail(10))") }
            let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: fetched)) ?? []).filter { $0.hasPrefix("\(p.name)-\(plainVersion)") && $0.hasSuffix(".gem") }
            guard let file = candidates.sorted(by: { $0.count < $1.count }).first, let data = FileManager.default.contents(atPath: fetched + "/" + file) else {
                throw TackError("fetching \(p.name) \(p.version) for \(tool) produced no .gem file")
            }
            let sum = Hashing.sha256(Array(data))
            if let expected = lockedFiles[file] {
                guard expected == sum else {
                    throw TackError("checksum mismatch for \(file) (\(tool)): tack.lock says \(expected), the gem from \(gemSource(request)) is \(sum) — nothing was installed")
                }
            } else if job.frozen {
                throw TackError("tack.lock records no checksum for \(file) (\(tool)), and --frozen installs only what it records — run `tack install` without --frozen")
            } else if !lockedFiles.isEmpty {
                notes.append("\(tool): recorded the checksum of \(file) in tack.lock: \(sum)")
            }
            recorded[file] = sum
            let kept = cache + "/" + sum
            try? FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: kept + "/" + file) {
                try? FileManager.default.copyItem(atPath: fetched + "/" + file, toPath: kept + "/" + file + ".partial-\(getpid())")
                _ = rename(kept + "/" + file + ".partial-\(getpid())", kept + "/" + file)
            }
            files.append(fetched + "/" + file)
        }

        job.report(.building)
        let gemBin = job.directory + "/gem-bin"
        let out = try await runner.run(gem, ["install", "--local", "--install-dir", home, "--bindir", gemBin, "--no-document", "--ignore-dependencies"] + files,
                                       directory: fetched, environment: env)
        guard out.status == 0 else { throw TackError("cannot install \(tool):\n\(out.tail(20))") }

        let executables = try Self.executables(home: home, gem: gemName)
        guard !executables.isEmpty else {
            throw TackError("the gem \(gemName) \(job.locked.version) has no executables, so there is nothing to run — is it a library rather than a tool?")
        }
        let binaries = try writeWrappers(executables, job: job, ruby: ruby)
        let rubyVersion = (try? await runner.run(ruby, ["-e", "print RUBY_VERSION"], directory: fetched, environment: env))?.output ?? ""
        var versions: [String: String] = [:]
        for p in pinned { versions[p.name] = p.version }
        return InstallOutcome(
            binaries: binaries,
            metadata: ["ruby": "\(ruby) (\(rubyVersion))"],
            lockFields: ["gems": .map(versions), "sha256": .map(recorded)],
            notes: notes)
    }

    /// `Gems to install:` lines (`helper-1.2.0`, `nokogiri-1.16.0-x86_64-linux`).
    static func parseExplain(_ output: String) -> [Pinned] {
        var out: [Pinned] = []
        var listing = false
        for raw in output.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Gems to install") { listing = true; continue }
            guard listing, !line.isEmpty else { continue }
            let parts = line.split(separator: "-").map(String.init)
            // The version is the first part that starts with a digit, after at least one name part.
            guard let i = parts.indices.dropFirst().first(where: { parts[$0].first?.isNumber == true }) else { continue }
            out.append(Pinned(name: parts[..<i].joined(separator: "-"), version: parts[i...].joined(separator: "-")))
        }
        return out
    }

    /// `1.16.0-x86_64-linux` → ("1.16.0", "x86_64-linux").
    static func splitPlatform(_ version: String) -> (String, String?) {
        guard let dash = version.firstIndex(of: "-") else { return (version, nil) }
        return (String(version[..<dash]), String(version[version.index(after: dash)...]))
    }

    /// The executables the gem's installed specification names.
    static func executables(home: String, gem: String) throws(TackError) -> [String] {
        let specs = home + "/specifications"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: specs)) ?? []).filter { name in
            guard name.hasPrefix(gem + "-"), name.hasSuffix(".gemspec") else { return false }
            return name.dropFirst(gem.count + 1).first?.isNumber == true
        }
        guard let file = files.first, let text = try? String(contentsOfFile: specs + "/" + file, encoding: .utf8) else {
            throw TackError("the gem \(gem) was installed, but its specification is missing from \(specs)")
        }
        guard let list = text.firstMatch(of: #/\.executables\s*=\s*\[([^\]]*)\]/#)?.output.1 else { return [] }
        return list.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }.filter(ToolName.isValidBinaryName)
    }

    /// `bin/<exe>`: a script that runs the gem's executable with its own gems and the ruby
    /// it was installed with, whatever GEM_HOME, RUBYOPT or bundler the caller has.
    func writeWrappers(_ executables: [String], job: InstallJob, ruby: String) throws(TackError) -> [String] {
        let bin = job.directory + "/bin"
        try FileManager.default.createDirectoryOrFail(bin)
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var out: [String] = []
        for exe in executables {
            let script = """
                #!/bin/sh
                # Written by tack: \(exe) from the gem \(source(of: job.request)) \(job.locked.version), with its own gems.
                GEM_HOME=\(quote(job.destination + "/gems"))
                GEM_PATH="$GEM_HOME"
                export GEM_HOME GEM_PATH
                unset RUBYOPT RUBYLIB BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP
                exec \(quote(ruby)) \(quote(job.destination + "/gem-bin/" + exe)) "$@"

                """
            guard FileManager.default.createFile(atPath: bin + "/" + exe, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]) else {
                throw TackError("cannot write \(bin)/\(exe)")
            }
            out.append("bin/" + exe)
        }
        return out
    }
}
