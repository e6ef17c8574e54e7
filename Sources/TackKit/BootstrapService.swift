import Backends
import TackCore

/// `tack bootstrap`: a machine set up for the project in steps — system packages, tools, the
/// shell hook, the manifests' `bootstrap.run` commands — each planned first, then done in
/// order. What finished is kept when a later step fails. Says its progress as notices; asks
/// nothing itself (tack-cli asks before packages are installed).
public struct BootstrapService {
    public let context: Context
    let workspace: Workspace
    /// Runs a `bootstrap.run` command (a shell command line) in a directory with an
    /// environment, its output the user's; its exit status.
    let runShell: @Sendable (_ command: String, _ directory: String, _ environment: [String: String]) async -> Int32

    public init(_ workspace: Workspace, runShell: @escaping @Sendable (String, String, [String: String]) async -> Int32 = BootstrapService.shell) {
        self.context = workspace.context
        self.workspace = workspace
        self.runShell = runShell
    }

    var settings: Settings { workspace.settings }
    var home: String? { workspace.home }

    /// The project's manifests (nearest first); the user's global manifest has no bootstrap.
    var manifests: [Manifest] { workspace.resolution.manifests.filter { $0.path != settings.globalManifest } }

    // MARK: The plan

    /// What would be done here, step by step; empty parts are done already. `shell`: the
    /// shell whose start-up file gets the hook (nil: leave start-up files alone).
    public func plan(hookFor shell: ShellHook.Shell?) async throws(TackError) -> BootstrapPlan {
        guard workspace.resolution.projectRoot != nil else {
            throw TackError("no tack.yml or version file in \(Paths.abbreviate(settings.cwd, home: home)) or any directory above it, so there is nothing to set up — run tack bootstrap in a project")
        }
        var plan = BootstrapPlan()
        try await planPackages(&plan)
        planTools(&plan)
        if let shell { try planHook(shell, &plan) }
        plan.commands = pendingCommands()
        return plan
    }

    /// Why the commands cannot run yet (a manifest with `bootstrap.run` that is not trusted),
    /// or nil: commands from untrusted manifests never run, refused before anything changes.
    public func untrustedCommands() -> TrustRefusal? {
        let policy = TrustPolicy(settings: settings)
        for m in manifests where !(m.bootstrap?.run.isEmpty ?? true) && !policy.isTrusted(m.path) {
            return .bootstrapCommands(file: m.path)
        }
        return nil
    }

    /// 1. The system packages `bootstrap.packages` lists for this machine, and those the
    /// pinned Swift toolchain needs, that are missing.
    func planPackages(_ plan: inout BootstrapPlan) async throws(TackError) {
        var listed: [String: [String]] = [:]
        func add(_ manager: String, _ names: [String]) {
            for n in names where !(listed[manager]?.contains(n) ?? false) { listed[manager, default: []].append(n) }
        }
        for m in manifests.reversed() {
            for (manager, names) in m.bootstrap?.packages ?? [:] { add(manager, names) }
        }
        if let swift = SwiftDependencies.needed(workspace.resolution, fs: settings.fs) { add(swift.manager.rawValue, swift.packages) }
        guard !listed.isEmpty else { return }
        guard let manager = try PackageManager.detect(environment: settings.environment, isExecutable: settings.fs.isExecutable) else {
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
        let out = try await context.runner.run(program, args, directory: "/", environment: settings.environment)
        let installed = manager.installed(from: out.output, asked: wanted)
        plan.missingPackages = wanted.filter { !installed.contains($0) }
    }

    /// 2. The pinned tools not installed (or a lock to bring up to date).
    func planTools(_ plan: inout BootstrapPlan) {
        let resolution = workspace.resolution
        plan.toolsUpToDate = resolution.pins.isEmpty || UpToDate.check(resolution, settings: settings)
        guard !plan.toolsUpToDate else { return }
        let rows = (try? resolution.current(settings: settings)) ?? []
        plan.toolsToInstall = rows.filter { !$0.isReady }.map(\.label)
        if plan.toolsToInstall.isEmpty { plan.toolsToInstall = ["(tack.lock to update)"] }
    }

    /// 3. The shell hook, where the start-up file lacks it.
    func planHook(_ shell: ShellHook.Shell, _ plan: inout BootstrapPlan) throws(TackError) {
        guard let home else { throw TackError("HOME is not set, so there is no start-up file to add the hook to") }
        guard let tack = context.launcher() else { throw TackError("cannot find the tack executable to put in the hook — reinstall tack with ./bootstrap.sh") }
        let file = ShellRC.file(shell, home: home, environment: settings.environment)
        let current = (try? settings.fs.read(file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        do {
            if let text = try ShellRC.apply(current, line: ShellRC.line(shell, tack: tack)) { plan.rcChange = .init(file: file, text: text, shell: shell) }
        } catch { throw TackError("\(Paths.abbreviate(file, home: home)): \(error.message)") }
    }

    /// 4. The `bootstrap.run` commands not yet run here (each is recorded once it succeeds).
    func pendingCommands() -> [BootstrapPlan.Command] {
        let ran = BootstrapRecord(store: workspace.store)
        var commands: [BootstrapPlan.Command] = []
        for m in manifests.reversed() {
            for c in m.bootstrap?.run ?? [] where !ran.has(manifest: m.path, command: c) { commands.append(.init(manifest: m.path, command: c)) }
        }
        return commands
    }

    // MARK: The steps

    /// Everything the plan holds, in order; `canAskForPassword`: sudo may ask at a terminal.
    /// Commands of a manifest that is not trusted are refused before anything is done.
    public func carryOut(_ plan: BootstrapPlan, canAskForPassword: Bool) async throws(BootstrapFailure) -> BootstrapSteps {
        var steps = BootstrapSteps()
        if !plan.commands.isEmpty, let untrusted = untrustedCommands() { throw BootstrapFailure(done: [], error: TackError(untrusted, home: home)) }
        try await installPackages(plan, canAsk: canAskForPassword, &steps)
        if !plan.toolsUpToDate {
            guard await InstallService(workspace).run().status == 0 else { throw steps.failed("installing tools", "see the errors above") }
            steps.done.append("installed the tools")
        }
        workspace.reshim()
        try addHook(plan, &steps)
        try await runCommands(plan, &steps)
        return steps
    }

    /// How this run can install system packages: as root, through sudo, or not at all (why).
    enum RootAccess: Equatable {
        case root
        case sudo(asking: Bool)
        case none(String)
    }

    func rootAccess(_ manager: PackageManager, canAsk: Bool) async -> RootAccess {
        guard manager.needsRoot && CurrentProcess.userID != 0 else { return .root }
        let env = settings.environment
        guard ExecutableSearch(environment: env).find("sudo") != nil else { return .none("this needs root, and sudo is not installed") }
        if (try? await context.runner.run("sudo", ["-n", "true"], directory: "/", environment: env))?.status == 0 { return .sudo(asking: false) }
        guard canAsk else { return .none("this needs root, and sudo needs a password here, with no terminal to ask for it") }
        return .sudo(asking: true)
    }

    func installPackages(_ plan: BootstrapPlan, canAsk: Bool, _ steps: inout BootstrapSteps) async throws(BootstrapFailure) {
        guard let manager = plan.manager, !plan.missingPackages.isEmpty else { return }
        if manager == .brew && CurrentProcess.userID == 0 {
            throw steps.failed("installing system packages", "Homebrew does not run as root; run tack bootstrap as your user")
        }
        let commands = manager.installCommands(plan.missingPackages).map { program, args in
            (manager == .apt ? ["env", "DEBIAN_FRONTEND=noninteractive"] : []) + [program] + args
        }
        let access = await rootAccess(manager, canAsk: canAsk)
        if case .none(let why) = access { return leaveToAdministrator(commands, why: why, &steps) }
        for command in commands {
            var argv = command
            if case .sudo(let asking) = access { argv = ["sudo"] + (asking ? [] : ["-n"]) + argv }
            context.notify(.line("==> \(argv.joined(separator: " "))"))
            let out: ProcessOutput
            do { out = try await context.runner.run(argv[0], Array(argv.dropFirst()), directory: "/", environment: settings.environment) } catch {
                throw steps.failed("installing system packages (\(argv.joined(separator: " ")))", error.message)
            }
            if out.status != 0, access != .root, Self.refusedBySudo(out.output) {
                return leaveToAdministrator(commands, why: "sudo says you may not run it", &steps)
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
    func leaveToAdministrator(_ commands: [[String]], why: String, _ steps: inout BootstrapSteps) {
        let lines = commands.map { "  sudo " + $0.joined(separator: " ") }.joined(separator: "\n")
        context.notify(.line("tack bootstrap cannot install the system packages: \(why). An administrator can install them with:\n\(lines)"))
        steps.left.append("the system packages, for an administrator (above)")
    }

    func addHook(_ plan: BootstrapPlan, _ steps: inout BootstrapSteps) throws(BootstrapFailure) {
        guard let change = plan.rcChange else { return }
        do {
            try settings.fs.createDirectory(Paths.dirname(change.file))
            try settings.fs.writeAtomically(change.file, Array(change.text.utf8))
        } catch {
            throw steps.failed("adding the shell hook", "cannot write \(change.file): \(error)")
        }
        steps.done.append("added the hook to \(Paths.abbreviate(change.file, home: home))")
    }

    /// The commands, with the tools just installed first on PATH and the trusted env.
    func runCommands(_ plan: BootstrapPlan, _ steps: inout BootstrapSteps) async throws(BootstrapFailure) {
        guard !plan.commands.isEmpty else { return }
        let fresh: Workspace
        do { fresh = try Workspace(context) } catch { throw steps.failed("running the commands", error.message) }
        let rows = (try? fresh.resolution.current(settings: fresh.settings)) ?? []
        let runEnv = RunEnvironment.make(resolution: fresh.resolution, rows: rows, settings: fresh.settings)
        let env = runEnv.applied(to: settings.environment)
        let ran = BootstrapRecord(store: fresh.store)
        for c in plan.commands {
            context.notify(.line("==> \(c.command)"))
            let status = await runShell(c.command, Paths.dirname(c.manifest), env)
            guard status == 0 else { throw steps.failed("running `\(c.command)`", "it exited with \(status)") }
            do { try ran.record(manifest: c.manifest, command: c.command) } catch { throw steps.failed("recording `\(c.command)`", error.message) }
            steps.done.append("ran `\(c.command)`")
        }
    }

    /// A `bootstrap.run` command through `/bin/sh -c` (a shell command the manifest's author
    /// wrote), its output going straight to ours.
    public static let shell: @Sendable (String, String, [String: String]) async -> Int32 = { command, directory, env in
        guard let pid = try? ChildProcess.start("/bin/sh", ["-c", command], directory: directory, environment: env,
                                                input: 0, output: 1, error: 2, ownGroup: false) else { return 127 }
        return await ChildProcess.wait(pid)
    }
}

/// What a bootstrap would do here, step by step; empty parts are done already.
public struct BootstrapPlan: Sendable {
    public struct HookChange: Sendable {
        public var file: String
        public var text: String
        public var shell: ShellHook.Shell
    }
    public struct Command: Sendable {
        public var manifest: String
        public var command: String
    }
    public var manager: PackageManager?
    public var missingPackages: [String] = []
    /// Why packages listed for the project cannot be installed here (said, not a failure).
    public var packageNote: String?
    public var toolsToInstall: [String] = []
    public var toolsUpToDate = true
    public var rcChange: HookChange?
    public var commands: [Command] = []

    /// The plan as lines; none when there is nothing to do.
    public func lines(home: String?) -> [String] {
        var plan: [String] = []
        if let manager, !missingPackages.isEmpty {
            plan.append("install system packages with \(manager.command)\(manager.needsRoot && CurrentProcess.userID != 0 ? " (sudo)" : ""): \(missingPackages.joined(separator: ", "))")
        }
        if !toolsToInstall.isEmpty { plan.append("install tools: \(toolsToInstall.joined(separator: ", "))") }
        if let rcChange { plan.append("add the \(rcChange.shell.rawValue) hook to \(Paths.abbreviate(rcChange.file, home: home))") }
        for c in commands { plan.append("run: \(c.command)  (from \(Paths.abbreviate(c.manifest, home: home)))") }
        return plan
    }
}

/// What a bootstrap finished, and what it went on without.
public struct BootstrapSteps: Sendable {
    public var done: [String] = []
    /// What this run could not do and went on without (packages that need an administrator).
    public var left: [String] = []

    func failed(_ step: String, _ message: String) -> BootstrapFailure {
        BootstrapFailure(done: done, error: TackError("\(step) failed: \(message) — fix that and run `tack bootstrap` again; it continues from here"))
    }
}

/// A step that failed, with the steps done before it (which stay done).
public struct BootstrapFailure: Error, Sendable {
    public var done: [String]
    public var error: TackError
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
