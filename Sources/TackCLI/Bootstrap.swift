import ArgumentParser
import Backends
import Foundation
import TackCore
import TackKit
import TackFront

struct Bootstrap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up this machine for the project: system packages, tools, the shell hook, bootstrap.run.",
        discussion: """
            Prints the plan first: the system packages `bootstrap.packages` lists for this \
            machine's package manager that are not installed yet (apt, dnf, pacman, apk or \
            brew; TACK_PACKAGE_MANAGER picks one), the pinned tools to install, the shell hook \
            to add (with --shell-rc) and the `bootstrap.run` commands not yet run. Installing \
            system packages needs --yes, or a yes at the prompt; sudo is used when not root.

            Then, in order: packages, tools (as `tack install`), shims, the shell hook (between \
            marker comments in your shell's start-up file; the rest of it is left as it is), \
            and the commands (trusted manifests only; with the project's tools on PATH). A step \
            that fails stops the run and says what to do; what finished is kept, and running \
            `tack bootstrap` again continues from there. A second run has nothing to do.

            Examples:
              tack bootstrap --dry-run          show what would be done
              tack bootstrap --yes --shell-rc   do everything, and add the hook for $SHELL
            """
    )

    @OptionGroup var dryRunOption: DryRunOption
    var dryRun: Bool { dryRunOption.dryRun }

    @Flag(help: "Install system packages without asking.")
    var yes = false

    @Flag(help: "Add the shell hook to your shell's start-up file (~/.bashrc, ~/.zshrc or fish's config.fish).")
    var shellRc = false

    @Option(help: "The shell for --shell-rc: bash, zsh or fish (default: $SHELL's).")
    var shell: ShellHook.Shell?

    /// What a bootstrap would do here, step by step; empty parts are done already.
    struct Plan {
        var manager: PackageManager?
        var missingPackages: [String] = []
        var packageNote: String?
        var toolsToInstall: [String] = []
        var toolsUpToDate = true
        var rcChange: (file: String, text: String, shell: ShellHook.Shell)?
        var commands: [(manifest: String, command: String)] = []

        func lines(home: String?) -> [String] {
            var plan: [String] = []
            if let manager, !missingPackages.isEmpty {
                plan.append("install system packages with \(manager.command)\(manager.needsRoot && getuid() != 0 ? " (sudo)" : ""): \(missingPackages.joined(separator: ", "))")
            }
            if !toolsToInstall.isEmpty { plan.append("install tools: \(toolsToInstall.joined(separator: ", "))") }
            if let rcChange { plan.append("add the \(rcChange.shell.rawValue) hook to \(Paths.abbreviate(rcChange.file, home: home))") }
            for c in commands { plan.append("run: \(c.command)  (from \(Paths.abbreviate(c.manifest, home: home)))") }
            return plan
        }
    }

    func run() async throws {
        let project = try Workspace.current()
        let settings = project.settings
        // The project's manifests (nearest first); the user's global manifest has no bootstrap.
        let manifests = project.resolution.manifests.filter { $0.path != settings.globalManifest }
        if project.resolution.projectRoot == nil {
            throw fail(TackError("no tack.yml or version file in \(Paths.abbreviate(settings.cwd, home: project.home)) or any directory above it, so there is nothing to set up — run tack bootstrap in a project"))
        }
        // A dry run runs nothing, so it shows the plan of an untrusted project too.
        let untrusted = untrustedCommands(manifests, project)
        if let untrusted, !dryRun { throw fail(TackError(untrusted)) }

        var plan = Plan()
        try await planPackages(manifests, settings.environment, swift: SwiftDependencies.needed(project.resolution, fs: settings.fs), &plan)
        planTools(project, &plan)
        try planHook(project, &plan)
        plan.commands = pendingCommands(manifests, project)

        let lines = plan.lines(home: project.home)
        if let note = plan.packageNote { Output.err("note: \(note)\n") }
        if lines.isEmpty {
            Output.err("tack bootstrap: nothing to do — packages, tools\(shellRc ? ", the shell hook" : "") and commands are all in place\n")
            return
        }
        Output.err("tack bootstrap will:\n" + lines.map { "  - \($0)\n" }.joined())
        if dryRun {
            if let untrusted { Output.err("note: \(untrusted)\n") }
            Output.err("(--dry-run: nothing was changed)\n")
            return
        }
        try confirmPackages(plan)

        var steps = Steps()
        try await installPackages(plan, settings.environment, &steps)
        if !plan.toolsUpToDate {
            let status = await InstallService(project).run().status
            guard status == 0 else { throw steps.failed("installing tools", "see the errors above") }
            steps.done.append("installed the tools")
        }
        project.reshim()
        try addHook(plan, project, &steps)
        try await runCommands(plan, settings.environment, &steps)
        let done = steps.done.isEmpty ? "shims rebuilt" : steps.done.joined(separator: "; ")
        guard steps.left.isEmpty else {
            Output.err("tack bootstrap: done, except \(steps.left.joined(separator: "; ")) — \(done); run it again once they are installed\n")
            throw ExitCode(1)
        }
        Output.err("tack bootstrap: done — \(done)\n")
    }

    /// What finished, for the message when a later step fails.
    struct Steps {
        var done: [String] = []
        /// What this run could not do and went on without (packages that need an administrator).
        var left: [String] = []
        func failed(_ step: String, _ message: String) -> ExitCode {
            if !done.isEmpty { Output.err("done before the failure: \(done.joined(separator: "; "))\n") }
            return fail(TackError("\(step) failed: \(message) — fix that and run `tack bootstrap` again; it continues from here"))
        }
    }

    /// Why the commands cannot run yet (a manifest with `bootstrap.run` that is not trusted),
    /// or nil: commands from untrusted manifests never run, refused before anything changes.
    func untrustedCommands(_ manifests: [Manifest], _ project: Workspace) -> String? {
        let policy = TrustPolicy(settings: project.settings)
        let home = project.home
        for m in manifests where !(m.bootstrap?.run.isEmpty ?? true) && !policy.isTrusted(m.path) {
            return "\(Paths.abbreviate(m.path, home: home)) has `bootstrap.run` commands and is not trusted — read them, then run `tack trust \(Paths.abbreviate(Paths.dirname(m.path), home: home))`; nothing was changed"
        }
        return nil
    }

    /// 1. The system packages `bootstrap.packages` lists for this machine, and those the
    /// pinned Swift toolchain needs, that are missing.
    func planPackages(_ manifests: [Manifest], _ env: [String: String], swift: SwiftDependencies.Needed? = nil, _ plan: inout Plan) async throws {
        var listed: [String: [String]] = [:]
        for m in manifests.reversed() {
            for (manager, names) in m.bootstrap?.packages ?? [:] {
                for n in names where !(listed[manager]?.contains(n) ?? false) { listed[manager, default: []].append(n) }
            }
        }
        if let swift {
            for n in swift.packages where !(listed[swift.manager.rawValue]?.contains(n) ?? false) {
                listed[swift.manager.rawValue, default: []].append(n)
            }
        }
        guard !listed.isEmpty else { return }
        let manager: PackageManager?
        do { manager = try PackageManager.detect(environment: env, isExecutable: ExecutableSearch.isExecutable) } catch { throw fail(error) }
        guard let manager else {
            plan.packageNote = "no supported package manager (apt-get, dnf, pacman, apk, brew) is on PATH, so bootstrap.packages (\(listed.keys.sorted().joined(separator: ", "))) cannot be installed"
            return
        }
        plan.manager = manager
        let wanted = listed[manager.rawValue] ?? []
        if wanted.isEmpty {
            plan.packageNote = "bootstrap.packages lists none for \(manager.rawValue), this machine's package manager (it lists \(listed.keys.sorted().joined(separator: ", ")))"
            return
        }
        let (program, args) = manager.queryCommand(wanted)
        let out = try await run(program, args, env: env)
        let installed = manager.installed(from: out.output, asked: wanted)
        plan.missingPackages = wanted.filter { !installed.contains($0) }
    }

    /// 2. The pinned tools not installed (or a lock to bring up to date).
    func planTools(_ project: Workspace, _ plan: inout Plan) {
        plan.toolsUpToDate = project.resolution.pins.isEmpty || UpToDate.check(project.resolution, settings: project.settings)
        guard !plan.toolsUpToDate else { return }
        let rows = (try? project.resolution.current(settings: project.settings)) ?? []
        plan.toolsToInstall = rows.filter { !$0.isReady }.map(\.label)
        if plan.toolsToInstall.isEmpty { plan.toolsToInstall = ["(tack.lock to update)"] }
    }

    /// 3. The shell hook, with --shell-rc, where the start-up file lacks it.
    func planHook(_ project: Workspace, _ plan: inout Plan) throws {
        guard shellRc else { return }
        let env = project.settings.environment
        let chosen = try shell ?? Self.shellFromEnvironment(env)
        guard let home = project.home else { throw fail(TackError("HOME is not set, so there is no start-up file to add the hook to")) }
        guard let tack = Front.launcherPath() else { throw fail(TackError("cannot find the tack executable to put in the hook — reinstall tack with ./bootstrap.sh")) }
        let file = ShellRC.file(chosen, home: home, environment: env)
        let current = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        do {
            if let text = try ShellRC.apply(current, line: ShellRC.line(chosen, tack: tack)) { plan.rcChange = (file, text, chosen) }
        } catch { throw fail(TackError("\(Paths.abbreviate(file, home: home)): \(error.message)")) }
    }

    /// 4. The `bootstrap.run` commands not yet run here (each is recorded once it succeeds).
    func pendingCommands(_ manifests: [Manifest], _ project: Workspace) -> [(manifest: String, command: String)] {
        let ran = BootstrapRecord(store: project.store)
        var commands: [(manifest: String, command: String)] = []
        for m in manifests.reversed() {
            for c in m.bootstrap?.run ?? [] where !ran.has(manifest: m.path, command: c) { commands.append((m.path, c)) }
        }
        return commands
    }

    /// Installing system packages needs --yes or a yes at the prompt.
    func confirmPackages(_ plan: Plan) throws {
        guard !plan.missingPackages.isEmpty && !yes else { return }
        guard CurrentProcess.isTerminal(0) else {
            throw fail(TackError("installing system packages needs --yes (stdin is not a terminal to ask) — nothing was changed"))
        }
        Output.prompt("Install the system packages? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw fail(TackError("nothing was changed")) }
    }

    /// How this run can install system packages: as root, through sudo, or not at all (why).
    enum RootAccess: Equatable {
        case root
        case sudo(asking: Bool)
        case none(String)
    }

    /// Root directly, sudo without a password, sudo that asks at this terminal, or none: no
    /// sudo, or a password and no terminal to ask it at.
    func rootAccess(_ manager: PackageManager, _ env: [String: String]) async -> RootAccess {
        guard manager.needsRoot && getuid() != 0 else { return .root }
        guard Self.onPath("sudo", env) != nil else { return .none("this needs root, and sudo is not installed") }
        if (try? await ChildProcessRunner(trace: .standardError).run("sudo", ["-n", "true"], directory: "/", environment: env))?.status == 0 {
            return .sudo(asking: false)
        }
        guard CurrentProcess.isTerminal(0) else { return .none("this needs root, and sudo needs a password here, with no terminal to ask for it") }
        return .sudo(asking: true)
    }

    func installPackages(_ plan: Plan, _ env: [String: String], _ steps: inout Steps) async throws {
        guard let manager = plan.manager, !plan.missingPackages.isEmpty else { return }
        if manager == .brew && getuid() == 0 {
            throw steps.failed("installing system packages", "Homebrew does not run as root; run tack bootstrap as your user")
        }
        let commands = manager.installCommands(plan.missingPackages).map { program, args in
            (manager == .apt ? ["env", "DEBIAN_FRONTEND=noninteractive"] : []) + [program] + args
        }
        let access = await rootAccess(manager, env)
        if case .none(let why) = access {
            leaveToAdministrator(commands, why: why, &steps)
            return
        }
        for command in commands {
            var argv = command
            if case .sudo(let asking) = access { argv = ["sudo"] + (asking ? [] : ["-n"]) + argv }
            Output.err("==> \(argv.joined(separator: " "))\n")
            let out = try await run(argv[0], Array(argv.dropFirst()), env: env)
            if out.status != 0, access != .root, Self.refusedBySudo(out.output) {
                leaveToAdministrator(commands, why: "sudo says you may not run it", &steps)
                return
            }
            guard out.status == 0 else {
                throw steps.failed("installing system packages (\(argv.joined(separator: " ")))", "exit \(out.status):\n\(out.tail(15))\n")
            }
        }
        steps.done.append("installed \(plan.missingPackages.joined(separator: ", "))")
    }

    /// Whether sudo refused the user (not in sudoers), rather than the command failing.
    static func refusedBySudo(_ output: String) -> Bool {
        output.contains("is not in the sudoers file") || output.contains("may not run sudo") || output.contains("is not allowed to execute")
    }

    /// The packages this user cannot install: the exact commands for an administrator, said
    /// now; the steps that need no root go on, and the run ends saying what is left.
    func leaveToAdministrator(_ commands: [[String]], why: String, _ steps: inout Steps) {
        let lines = commands.map { "  sudo " + $0.joined(separator: " ") + "\n" }.joined()
        Output.err("tack bootstrap cannot install the system packages: \(why). An administrator can install them with:\n\(lines)")
        steps.left.append("the system packages, for an administrator (above)")
    }

    func addHook(_ plan: Plan, _ project: Workspace, _ steps: inout Steps) throws {
        guard let rcChange = plan.rcChange else { return }
        do {
            try project.settings.fs.createDirectory(Paths.dirname(rcChange.file))
            try project.settings.fs.writeAtomically(rcChange.file, Array(rcChange.text.utf8))
        } catch {
            throw steps.failed("adding the shell hook", "cannot write \(rcChange.file): \(error)")
        }
        steps.done.append("added the hook to \(Paths.abbreviate(rcChange.file, home: project.home))")
    }

    /// The commands, with the tools just installed first on PATH and the trusted env.
    func runCommands(_ plan: Plan, _ env: [String: String], _ steps: inout Steps) async throws {
        guard !plan.commands.isEmpty else { return }
        let fresh = try Workspace.current()
        let rows = (try? fresh.resolution.current(settings: fresh.settings)) ?? []
        let runEnv = RunEnvironment.make(resolution: fresh.resolution, rows: rows, settings: fresh.settings)
        var childEnv = env
        childEnv["PATH"] = (runEnv.binDirectories + [env["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":")
        for v in runEnv.variables { childEnv[v.name] = v.value }
        let ran = BootstrapRecord(store: fresh.store)
        for c in plan.commands {
            Output.err("==> \(c.command)\n")
            let status = await Self.runCommand(c.command, in: Paths.dirname(c.manifest), env: childEnv)
            guard status == 0 else { throw steps.failed("running `\(c.command)`", "it exited with \(status)") }
            do { try ran.record(manifest: c.manifest, command: c.command) } catch { throw fail(error) }
            steps.done.append("ran `\(c.command)`")
        }
    }

    static func onPath(_ name: String, _ env: [String: String]) -> String? {
        ExecutableSearch(environment: env).find(name)
    }

    static func shellFromEnvironment(_ env: [String: String]) throws -> ShellHook.Shell {
        let name = Paths.basename(env["SHELL"] ?? "")
        guard let s = ShellHook.Shell(rawValue: name) else {
            throw fail(TackError("--shell-rc needs to know your shell, and SHELL is \(quoted(env["SHELL"] ?? "")) — add --shell bash, zsh or fish"))
        }
        return s
    }

    func run(_ program: String, _ args: [String], env: [String: String]) async throws -> ProcessOutput {
        do { return try await ChildProcessRunner(trace: .standardError).run(program, args, directory: "/", environment: env) } catch { throw fail(error) }
    }

    /// A `bootstrap.run` command, through `/bin/sh -c` (it is a shell command the manifest's
    /// author wrote), its output going straight to ours.
    static func runCommand(_ command: String, in directory: String, env: [String: String]) async -> Int32 {
        guard let pid = try? ChildProcess.start("/bin/sh", ["-c", command], directory: directory, environment: env,
                                                input: 0, output: 1, error: 2, ownGroup: false) else { return 127 }
        return await ChildProcess.wait(pid)
    }
}

/// Which `bootstrap.run` commands have run here, so a second bootstrap does not run them again:
/// one line per manifest and command (a SHA-256 of both) in `$TACK_HOME/state/bootstrap-ran`.
struct BootstrapRecord {
    let store: Store
    var path: String { store.state + "/bootstrap-ran" }

    func key(_ manifest: String, _ command: String) -> String { SHA256Digest.hex(Array((manifest + "\u{0}" + command).utf8)) }

    var file: StateFile { StateFile(path, fs: store.fs) }

    func has(manifest: String, command: String) -> Bool { file.lines().contains(key(manifest, command)) }

    func record(manifest: String, command: String) throws(TackError) {
        let line = key(manifest, command)
        try file.update { (lines) throws(TackError) in ((Set(lines).union([line])).sorted(), ()) }
    }
}

