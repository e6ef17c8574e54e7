import Foundation
import Git
import BackendKinds
import TackCore

/// Tools from asdf plugins (`asdf: https://github.com/asdf-vm/asdf-nodejs.git`, or a registry
/// entry naming one): the plugin cloned with libgit2 and pinned to a commit in the lock, then
/// run by asdf's plugin contract — `bin/list-all`, `bin/download`, `bin/install`,
/// `bin/list-bin-paths` and `bin/exec-env` — with the `ASDF_*` variables asdf sets.
///
/// A plugin's scripts run on this machine, so a plugin named by a project file runs only once
/// that file is trusted (`tack trust`); one named by a registry needs no trust.
public struct AsdfBackend: Backend {
    public let name = "asdf"
    let runner: any ProcessRunner
    let environment: [String: String]
    /// `$TACK_HOME/cache`: plugin checkouts, one per commit.
    let cache: String?
    /// nil when the request's plugin may run, else why not.
    let mayRun: @Sendable (ToolRequest) -> String?
    let git: any GitRemotes
    /// The copy being made (`tack mirror`), which keeps a bare copy of the plugin.
    var copy: CopyWriter?

    /// Where its files are read and written (the context's file system).
    let fs: any FileSystem

    public init(runner: any ProcessRunner, environment: [String: String], cache: String?, git: any GitRemotes = LibGit2Remotes(),
                mayRun: @escaping @Sendable (ToolRequest) -> String?, fs: any FileSystem = LocalFileSystem()) {
        self.fs = fs
        self.runner = runner
        self.environment = environment
        self.cache = cache
        self.git = git
        self.mayRun = mayRun
    }


    // MARK: The plugin

    /// The plugin checked out at `commit` (nil: its default branch now), and that commit.
    func plugin(_ request: ToolRequest, commit: String?) async throws(TackError) -> (dir: String, commit: String) {
        if let why = mayRun(request) { throw TackError(why) }
        let url = source(of: request)
        guard let cache else { throw TackError("tack has no TACK_HOME to keep the asdf plugin of \(request.name) in") }
        let plugins = cache + "/asdf-plugins"
        try fs.makeDirectory(plugins)
        let key = Self.key(url)
        let commit = commit?.lowercased()
        if let commit, !Git.isCommitID(commit) {
            throw TackError("tack.lock's plugin commit for \(request.name) is \(quoted(commit)), not a commit id — nothing was installed; run `tack lock` again")
        }
        if let commit, fs.info("\(plugins)/\(key)-\(commit)/.tack-complete") != nil {
            return ("\(plugins)/\(key)-\(commit)", commit)
        }
        let temp = "\(plugins)/.tmp-\(key)-\(getpid())-\(UUID().uuidString)"
        defer { try? fs.remove(temp) }
        let head: String
        do {
            if let commit {
                // Only a commit the plugin published: on its default branch or a release tag,
                // never a pull request's head or an unreleased branch a lock names.
                try await git.fetch(url, commit: commit, reachableFrom: .defaultBranchOrTags, into: temp, checkout: true)
                head = commit.lowercased()
            } else {
                try await git.clone(url, into: temp)
                head = try GitRepository.open(temp).headCommit()
            }
        } catch {
            throw TackError("cannot fetch the asdf plugin \(url)\(commit.map { " at \($0)" } ?? ""): \(error.message)")
        }
        let final = "\(plugins)/\(key)-\(head)"
        if fs.info(final + "/.tack-complete") == nil {
            guard fs.isExecutable(temp + "/bin/list-all"), fs.isExecutable(temp + "/bin/install") else {
                throw TackError("\(url) is not an asdf plugin: it has no executable bin/list-all and bin/install")
            }
            guard (try? fs.writeAtomically(temp + "/.tack-complete", [])) != nil else {
                throw TackError("cannot keep the asdf plugin: cannot write \(temp)/.tack-complete")
            }
            try? fs.remove(final)
            guard rename(temp, final) == 0 else { throw TackError("cannot keep the asdf plugin in \(final): \(String(cString: strerror(errno)))") }
        }
        return (final, head)
    }

    /// A directory name for a plugin URL (FNV-1a: a name, not a security boundary).
    static func key(_ url: String) -> String {
        FNV1a.hex(url)
    }

    func pluginEnvironment(_ plugin: String) -> [String: String] {
        var env = environment
        env["ASDF_PLUGIN_PATH"] = plugin
        env["ASDF_CONCURRENCY"] = String(CurrentProcess.processorCount)
        return env
    }

    func runScript(_ plugin: String, _ script: String, _ args: [String] = [], env: [String: String], in directory: String) async throws(TackError) -> ProcessOutput {
        try await runner.run(plugin + "/bin/" + script, args, directory: directory, environment: env)
    }

    // MARK: Versions

    public func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        let (dir, commit) = try await plugin(request, commit: nil)
        let out = try await runScript(dir, "list-all", env: pluginEnvironment(dir), in: dir)
        guard out.status == 0 else { throw TackError("the asdf plugin of \(request.name) failed to list versions (bin/list-all, exit \(out.status)) — check the plugin (\(source(of: request))) or your network, then try again:\n\(out.tail(10, network: environment))") }
        // asdf's versions are any words (`temurin-17.0.2+8`): those that are not numbers are
        // opaque versions, which only an exact pin selects.
        var versions = Set(out.output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r\n" }).compactMap { Version(word: String($0)) })
        if versions.isEmpty { throw TackError("the asdf plugin of \(request.name) lists no versions tack can read:\n\(out.tail(5))") }
        // `latest`: what the plugin's bin/latest-stable says, where it has one (asdf's own rule).
        if case .latest = request.requirement, fs.isExecutable(dir + "/bin/latest-stable") {
            let latest = try await runScript(dir, "latest-stable", [""], env: pluginEnvironment(dir), in: dir)
            let word = latest.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init) ?? ""
            guard latest.status == 0, let v = Version(word) else {
                throw TackError("the asdf plugin of \(request.name) failed to name its latest stable version (bin/latest-stable, exit \(latest.status)):\n\(latest.tail(5))")
            }
            versions = versions.filter { $0 <= v }
            versions.insert(v)
        }
        return versions.sorted().map { AvailableVersion(version: $0, fields: AsdfLockRecord(pluginCommit: commit).fields) }
    }

    // MARK: Install

    /// An asdf build is made in its final directory, and what it builds may name that path
    /// (a prefix compiled in), so the path is part of the key: machines share these builds
    /// when their TACK_HOME is the same (CI runners usually are). A `relocatable` build (Ruby
    /// built with `--enable-load-relative`) runs from any path once `relocate` has rewritten
    /// the old path in its scripts, so its key leaves the path out.
    public func buildInputs(_ request: ToolRequest, _ locked: LockedTool, destination: String, built: [String: String]?) async throws(TackError) -> [String: String]? {
        guard let commit = AsdfLockRecord(locked.fields).pluginCommit else { return nil }
        var inputs = ["backend": name, "source": source(of: request), "plugin-commit": commit, "version": locked.version.text]
        if request.options.asdf.relocatable {
            inputs["relocatable"] = "true"
            for (k, v) in request.options.asdf.buildEnv { inputs["env." + k] = v }
        } else {
            inputs["destination"] = destination
        }
        return inputs
    }

    /// A relocatable build pulled into another path: the path it was built at, in tack's
    /// command wrappers and in the build's `#!` scripts (every directory of it), becomes this
    /// install's, as the pip backend's cloned environments are rewritten.
    public func relocate(_ job: InstallJob, built: [String: String]) throws(TackError) {
        guard job.request.options.asdf.relocatable, let old = built["destination"], !old.isEmpty else { return }
        let relocation = Relocation(fs: fs), install = job.directory + "/install"
        try relocation.rewriteScripts(in: job.directory + "/bin", from: old, to: job.destination)
        for rel in [""] + fs.walk(install) where fs.linkTarget(install + "/" + rel) == nil && fs.isDirectory(install + "/" + rel) {
            try relocation.rewriteScripts(in: rel.isEmpty ? install : install + "/" + rel, from: old, to: job.destination)
        }
    }

    /// The locked plugin commit must be one the plugin's default branch or a tag reaches:
    /// fetched (and kept, as an install would) before the team cache is asked.
    public func checkPin(_ locked: LockedTool, for request: ToolRequest, scratch: String) async throws(TackError) {
        guard let commit = AsdfLockRecord(locked.fields).pluginCommit else { return }
        _ = try await plugin(request, commit: commit)
    }

    public func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let tool = "\(job.locked.name) \(job.locked.version)"
        let locked = AsdfLockRecord(job.locked.fields).pluginCommit
        if locked == nil && job.frozen { throw TackError("tack.lock records no plugin commit for \(tool); run `tack lock`") }
        job.report(.fetching)
        let (dir, commit) = try await plugin(job.request, commit: locked)

        // The plugin installs into the final place: many builds (ruby, python) write their
        // prefix into what they install. The installer holds this version's lock, so nobody
        // else is there; the result then moves into the temporary directory, which the
        // installer renames into place, and a failure removes it.
        let finalInstall = job.destination + "/install"
        var installPath = job.directory + "/install"
        var inPlace = false
        if job.destination != job.directory && fs.info(job.destination + "/" + Store.installRecordFile) == nil {
            try? fs.remove(job.destination)  // an interrupted install's leftovers
            installPath = finalInstall
            inPlace = true
        }
        defer { if inPlace { try? fs.remove(job.destination) } }
        let download = job.scratch + "/download"
        try fs.makeDirectory(installPath)
        try fs.makeDirectory(download)
        var env = pluginEnvironment(dir)
        env["ASDF_INSTALL_TYPE"] = "version"
        env["ASDF_INSTALL_VERSION"] = job.locked.version.text
        env["ASDF_INSTALL_PATH"] = installPath
        env["ASDF_DOWNLOAD_PATH"] = download
        for (k, v) in job.request.options.asdf.buildEnv {
            // Appended to what the environment already asks (RUBY_CONFIGURE_OPTS may hold more).
            env[k] = [env[k], v].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        }

        try await runInstallScripts(plugin: dir, env: env, job: job)
        let (commands, binPaths) = try await listCommands(plugin: dir, installPath: installPath, env: env, job: job)
        guard !commands.isEmpty else { throw TackError("the asdf plugin installed \(tool), but its bin paths (\(binPaths.joined(separator: ", "))) hold no commands") }

        if inPlace {
            guard rename(finalInstall, job.directory + "/install") == 0 else {
                throw TackError("cannot move \(finalInstall) into \(job.directory): \(String(cString: strerror(errno)))")
            }
        }

        // bin/exec-env: what it exports, captured once with the final paths, applied by wrappers.
        var exported: [(String, String)] = []
        if fs.isExecutable(dir + "/bin/exec-env") {
            exported = try await captureExecEnv(dir, env: env, finalInstall: finalInstall, job: job)
        }
        let binaries = try writeCommands(commands, exported: exported, job: job)
        var metadata = ["plugin": "\(source(of: job.request)) @ \(commit)"]
        // Where a relocatable build was made: a machine that pulls it elsewhere rewrites this.
        if job.request.options.asdf.relocatable { metadata["destination"] = job.destination }
        return InstallOutcome(binaries: binaries, metadata: metadata, lockFields: AsdfLockRecord(pluginCommit: commit).fields)
    }

    /// The plugin's bin/download (when it has one), then bin/install.
    func runInstallScripts(plugin dir: String, env: [String: String], job: InstallJob) async throws(TackError) {
        let tool = "\(job.locked.name) \(job.locked.version)"
        if fs.isExecutable(dir + "/bin/download") {
            job.report(.custom("downloading (bin/download)"))
            let out = try await runScript(dir, "download", env: env, in: job.scratch)
            guard out.status == 0 else { throw TackError("the asdf plugin's bin/download failed for \(tool) (exit \(out.status)) — nothing was installed; is \(job.locked.version) one the plugin lists (`tack ls-remote \(job.locked.name)`)?\n\(out.tail(20, network: environment))") }
        }
        job.report(.custom("installing (bin/install)"))
        let out = try await runScript(dir, "install", env: env, in: job.scratch)
        guard out.status == 0 else { throw TackError("the asdf plugin's bin/install failed for \(tool) (exit \(out.status)) — nothing was installed; its output below says why (a missing system library is the usual cause: `tack bootstrap` installs those the project lists):\n\(out.tail(20))") }
    }

    /// The commands the install provides, from the plugin's bin/list-bin-paths (else bin/),
    /// each once, and the bin paths looked in.
    func listCommands(plugin dir: String, installPath: String, env: [String: String], job: InstallJob) async throws(TackError) -> ([(name: String, path: String)], [String]) {
        let tool = "\(job.locked.name) \(job.locked.version)"
        var binPaths = ["bin"]
        if fs.isExecutable(dir + "/bin/list-bin-paths") {
            let paths = try await runScript(dir, "list-bin-paths", env: env, in: job.scratch)
            guard paths.status == 0 else { throw TackError("the asdf plugin's bin/list-bin-paths failed for \(tool):\n\(paths.tail(10))") }
            binPaths = paths.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        }
        var commands: [(name: String, path: String)] = []
        var seen: Set<String> = []
        for rel in binPaths {
            guard BinSpec.isSafeRelativePath(rel) else { throw TackError("the asdf plugin of \(job.locked.name) names a bin path outside the install: \(rel)") }
            for name in ((try? fs.list(installPath + "/" + rel)) ?? []).sorted()
            where ToolName.isValidBinaryName(name) && fs.isExecutable(installPath + "/" + rel + "/" + name) && seen.insert(name).inserted {
                commands.append((name, rel + "/" + name))
            }
        }
        return (commands, binPaths)
    }

    /// The variables `bin/exec-env` sets or changes when sourced (asdf sources it before running
    /// a command), with ASDF_INSTALL_PATH set to where the install will be.
    func captureExecEnv(_ plugin: String, env: [String: String], finalInstall: String, job: InstallJob) async throws(TackError) -> [(String, String)] {
        var e = env
        e["ASDF_INSTALL_PATH"] = finalInstall
        let script = "set -e; env -0 > \"$1\"; . \"$2\"; env -0 > \"$3\""
        let before = job.scratch + "/env-before", after = job.scratch + "/env-after"
        let out = try await runner.run("/bin/bash", ["-c", script, "exec-env", before, plugin + "/bin/exec-env", after], directory: job.scratch, environment: e)
        guard out.status == 0 else { throw TackError("the asdf plugin's bin/exec-env failed for \(job.locked.name) \(job.locked.version):\n\(out.tail(10))") }
        func read(_ path: String) -> [String: String] {
            var vars: [String: String] = [:]
            for entry in ((try? fs.read(path)) ?? []).split(separator: 0) {
                let s = String(decoding: entry, as: UTF8.self)
                guard let eq = s.firstIndex(of: "=") else { continue }
                vars[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            return vars
        }
        let a = read(before), b = read(after)
        return b.keys.sorted().compactMap { k in
            guard a[k] != b[k], k != "_", k != "SHLVL", k != "PWD", k != "OLDPWD" else { return nil }
            return (k, b[k]!)
        }
    }

    /// `bin/<name>`: a link to the command, or (when exec-env exports something) a script that
    /// exports it and runs the command.
    func writeCommands(_ commands: [(name: String, path: String)], exported: [(String, String)], job: InstallJob) throws(TackError) -> [String] {
        let bin = job.directory + "/bin"
        try fs.makeDirectory(bin)
        var out: [String] = []
        for c in commands {
            if exported.isEmpty {
                do { try fs.makeLink(bin + "/" + c.name, to: "../install/" + c.path) } catch {
                    throw TackError("cannot link bin/\(c.name): \(error)")
                }
            } else {
                let script = WrapperScript(
                    comment: "\(c.name) from \(job.locked.name) \(job.locked.version), with what its asdf plugin's exec-env exports.",
                    exports: exported.map { (name: $0.0, value: $0.1) }, command: [job.destination + "/install/" + c.path])
                do { try script.write(to: bin + "/" + c.name, fs: fs) } catch { throw TackError.cannotWrite(bin + "/" + c.name, error) }
            }
            out.append("bin/" + c.name)
        }
        return out
    }
}

extension AsdfKind: BackendMaking {
    public func makeBackend(_ e: BackendEffects) -> any Backend {
        var backend = AsdfBackend(runner: e.runner(), environment: e.interpreters, cache: e.settings.store?.cache, git: e.git,
                                  mayRun: AsdfBackend.pluginTrust(e.settings), fs: e.fs)
        backend.copy = e.copy?.writer
        return backend
    }
}

extension AsdfBackend {
    /// `tack mirror`: a bare copy of the plugin's repository. What the plugin's scripts
    /// download is theirs to choose, so a copy carries it only as the team cache's build.
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        guard let copy else { return nil }
        let url = source(of: request)
        let dir: String
        do { dir = try copy.repository(for: url) } catch { return (0, ["\(entry.name) \(entry.version): \(error.message)"]) }
        do { try await git.mirror(url, into: dir) } catch {
            return (0, ["\(entry.name) \(entry.version): cannot copy its plugin \(URLRedaction.text(url)): \(error.message)"])
        }
        return (1, [])
    }
}

extension AsdfBackend {
    /// An asdf plugin runs its own scripts: one a registry names may run; one a project file
    /// names runs only when that file is trusted (`tack trust`), as `env` is applied — the one
    /// rule, `TrustPolicy.codeRefusal`, asked again where the scripts are about to run.
    public static func pluginTrust(_ settings: Settings) -> @Sendable (ToolRequest) -> String? {
        let policy = TrustPolicy(settings: settings)
        let home = settings.home
        return { request in policy.codeRefusal(request, file: request.origin)?.message(home: home) }
    }
}
