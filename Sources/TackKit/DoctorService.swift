import Git
import TackCore
import YAML

/// What `tack doctor` found: each check, ok or a problem, in order.
public struct DoctorReport: Sendable, Equatable {
    /// `note`: worth knowing, not wrong (tools that rest on trust on first use).
    public enum Status: String, Sendable { case ok, note, problem }
    public struct Check: Sendable, Equatable {
        public var status: Status
        public var message: String
    }
    public var checks: [Check] = []
    public var problems: Int { checks.filter { $0.status == .problem }.count }
    mutating func ok(_ s: String) { checks.append(Check(status: .ok, message: s)) }
    mutating func problem(_ s: String) { checks.append(Check(status: .problem, message: s)) }
    mutating func note(_ s: String) { checks.append(Check(status: .note, message: s)) }
}

/// `tack doctor`: tack's installation and this directory checked, each check a line that
/// says what is wrong and how to fix it. Never prints: tack-cli renders the report.
public struct DoctorService {
    public typealias Report = DoctorReport
    let context: Context
    var settings: Settings { context.settings }

    /// Whether the proxies and mirrors answer (libcurl unless a test gives its own).
    var reachability: NetworkReachability

    public init(_ context: Context, reachability: NetworkReachability? = nil) {
        self.context = context
        self.reachability = reachability ?? .curl(context.settings)
    }

    /// Every check, in the order they are shown.
    public func run() async -> Report {
        let resolved: Result<Resolution, TackError>
        do { resolved = .success(try Resolver(settings).resolve()) } catch { resolved = .failure(error) }
        var report = local(resolved)
        let mirrors = DownloadMirrors(environment: settings.environment, manifest: (try? resolved.get())?.mirrors ?? [])
        for (ok, line) in await reachability.check(network: NetworkSettings(environment: settings.environment), mirrors: mirrors, fs: settings.fs) {
            if ok { report.ok("network: " + line) } else { report.problem(line) }
        }
        await checkToolchain(&report)
        await checkSwiftDependencies(&report)
        return report
    }

    /// The checks that need no program run.
    func local(_ resolved: Result<Resolution, TackError>) -> Report {
        var r = Report()
        r.ok("tack \(TackVersion.current)")
        r.ok("libyaml \(YAMLParser.libraryVersion)")
        r.ok("libgit2 \(Git.libraryVersion)")
        checkHome(&r)
        checkNetwork(&r, manifestMirrors: (try? resolved.get())?.mirrors ?? [])
        checkBinaries(&r)
        checkPath(&r)
        checkProjects(&r)
        checkInstalledCommands(&r)
        do {
            let resolution = try resolved.get()
            let files = Set(resolution.pins.map { $0.request.origin }.filter { $0.kind != .environment }.map(\.file))
            r.ok("\(resolution.pins.count) tool\(resolution.pins.count == 1 ? "" : "s") pinned here, from \(files.count) file\(files.count == 1 ? "" : "s")")
            // Shown once elsewhere; here every time.
            for i in resolution.ignored { r.problem(i.message) }
            var locks = Set(resolution.pins.compactMap { $0.lockDirectory.map { Paths.child($0, Lockfile.fileName) } })
            if let store = settings.store {
                for root in store.knownProjects() { locks.insert(Paths.child(root, Lockfile.fileName)) }
            }
            // The locks the pins are locked in, read once for every check below (one that
            // cannot be read is said by `current`, as every command says it).
            let read = try? resolution.readLocks(settings: settings)
            let entries = read.map { resolution.lockedEntries(locks: $0) }
            checkSwiftSDKs(resolution, entries, &r)
            checkTrustOnFirstUse(resolution, entries, &r)
            let mismatched = checkInstallsAgainstLocks(locks.sorted(), &r)
            let rows: [CurrentTool]
            if let read { rows = resolution.current(settings: settings, locks: read) } else { rows = try resolution.current(settings: settings) }
            for t in rows where !t.installed {
                guard let version = t.version, !mismatched.contains("\(t.tool)@\(version)") else { continue }
                r.problem(TackError.notInstalled(t.tool, version, setBy: t.origin.describe(home: settings.home)).message)
            }
        } catch {
            r.problem("\(error.message)")
        }
        return r
    }

    /// Installs whose record says they were made from another entry than the lock that uses
    /// them (another source, commit, checksum or options); returns them as `tool@version`.
    func checkInstallsAgainstLocks(_ locks: [String], _ r: inout Report) -> Set<String> {
        guard let store = settings.store else { return [] }
        var out: Set<String> = []
        for path in locks where settings.fs.isFile(path) {
            guard let lock = try? Lockfile.load(path, fs: settings.fs, backends: settings.backends) else { continue }
            for name in lock.tools.keys.sorted() {
                // Only where no build of that version is this entry's (the version's own, or a
                // variant beside it): then what differs from the one in its place.
                guard let entry = lock.tools[name], let record = store.installedEntry(name, entry.version),
                      store.installDirectory(for: entry) == nil else { continue }
                let differences = entry.installDifferences(from: record)
                guard !differences.isEmpty else { continue }
                out.insert("\(name)@\(entry.version.text)")
                r.problem("\(name) \(entry.version) is installed from \(Self.describe(record, kind: settings.backends.kind(of: record))), but \(Paths.abbreviate(path, home: settings.home)) locks \(Self.describe(entry, kind: settings.backends.kind(of: entry))): they differ in \(differences.joined(separator: ", ")) — run `tack install` in \(Paths.abbreviate(Paths.dirname(path), home: settings.home)) to build the locked one")
            }
        }
        return out
    }

    /// The Swift SDKs of the toolchain pinned here: pinned but not installed, installed in
    /// its directory for another release (`swift sdk install` by hand), and SDKs in the user's
    /// SwiftPM directory, which tack's toolchains do not read.
    func checkSwiftSDKs(_ resolution: Resolution, _ entries: [LockedTool?]?, _ r: inout Report) {
        guard let store = settings.store, let entries else { return }
        let fs = settings.fs
        for case (let pin, let entry?) in zip(resolution.pins, entries) {
            guard settings.backends.kind(of: entry)?.isSwiftToolchain == true, let install = store.installDirectory(for: entry) else { continue }
            let label = "\(entry.name) \(entry.version)"
            let setBy = pin.request.origin.describe(home: settings.home)
            for name in SwiftSDK.missing(entry, install: install, fs: fs) {
                r.problem("the \(name) Swift SDK of \(label) is pinned (\(setBy)) but not installed — run `tack install`")
            }
            let own = SwiftSDK.directory(install: install)
            for bundle in ((try? fs.list(own)) ?? []).sorted() {
                guard let made = SwiftSDK.release(ofBundle: bundle), made.text != entry.version.text else { continue }
                r.problem("\(label) holds the Swift SDK \(bundle), made for swift \(made): it does not work with this toolchain — remove it with `tack exec -- swift sdk remove \(bundle.dropLast(".artifactbundle".count))`")
            }
            for shared in SwiftSDK.userDirectories(home: settings.home, environment: settings.environment) {
                for bundle in ((try? fs.list(shared)) ?? []).sorted() {
                    guard let made = SwiftSDK.release(ofBundle: bundle) else { continue }
                    let place = Paths.abbreviate(shared, home: settings.home)
                    if made.text == entry.version.text {
                        r.problem("\(place) holds \(bundle), which \(label) does not read (tack's toolchains read only the SDKs pinned with them) — pin it with `sdks:` in tack.yml, or `tack use \(entry.name)@\(entry.version) --sdk NAME`")
                    } else {
                        r.problem("\(place) holds \(bundle), made for swift \(made), not the pinned \(label) (\(setBy)): it does not work with that toolchain, and tack's does not read it — pin the SDK with the toolchain instead (`sdks:` in tack.yml)")
                    }
                }
            }
        }
    }

    /// The tools pinned here whose lock rests only on trust on first use: what their first
    /// download (or tag, or index) gave was locked, and nothing the publisher signed or listed
    /// checked it.
    /// The proxy, certificate authorities and mirrors in effect (credentials left out), and
    /// whether the CA file can be read.
    func checkNetwork(_ r: inout Report, manifestMirrors: [DownloadMirrors.Rule]) {
        let network = NetworkSettings(environment: settings.environment)
        for line in network.description { r.ok("network: \(line)") }
        if let file = network.caFile, settings.fs.info(file) == nil {
            r.problem("\(network.caVariable ?? "SSL_CERT_FILE") names \(file), which does not exist: every HTTPS download will fail")
        }
        let mirrors = DownloadMirrors(environment: settings.environment, manifest: manifestMirrors)
        for rule in mirrors.describe { r.ok("mirror: \(rule)") }
    }

    func checkTrustOnFirstUse(_ resolution: Resolution, _ entries: [LockedTool?]?, _ r: inout Report) {
        guard let entries else { return }
        let registry = try? ToolRegistry.load(store: settings.store, backends: settings.backends)
        var names: [String] = [], checksumOnly: [String] = []
        for case (let pin, let entry?) in zip(resolution.pins, entries) where pin.request.isLockable {
            let request = registry?.apply(pin.request) ?? pin.request
            switch Verification.of(entry, request: request, backends: settings.backends).kind {
            case .trustOnFirstUse: names.append(entry.name)
            case .checksumFile, .manifestChecksum: checksumOnly.append(entry.name)
            case .signature: continue
            }
        }
        if !names.isEmpty {
            r.note("\(names.sorted().joined(separator: ", ")) rest\(names.count == 1 ? "s" : "") on trust on first use: tack.lock recorded what was first downloaded, and nothing the publisher signed or listed checked it — where the publisher publishes them, name its checksum file (`checksums:`), key (`minisign:`, `cosign:`) or keyless signer (`signer:`, `attested: github`) in tack.yml; `tack sbom` says how each tool is verified")
        }
        if !checksumOnly.isEmpty {
            r.note("\(checksumOnly.sorted().joined(separator: ", ")) \(checksumOnly.count == 1 ? "is" : "are") verified by a checksum only: nothing says who published it — where the publisher signs its releases, name the signer (`signer:`, `attested: github`, `minisign:`, `cosign:`) in tack.yml")
        }
    }

    static func describe(_ entry: LockedTool, kind: (any BackendKind)?) -> String {
        var text = entry.source
        if let commit = kind?.revision(entry) { text += " (commit \(commit.prefix(12)))" }
        if !entry.options.isEmpty { text += " with " + entry.options.keys.sorted().map { "\($0): \(entry.options[$0] ?? "")" }.joined(separator: ", ") }
        return text
    }

    /// Builds made with another Swift toolchain than the one on PATH.
    func checkToolchain(_ r: inout Report) async {
        guard let store = settings.store, store.fs.isDirectory(store.installs) else { return }
        guard let toolchain = await SwiftOnPath.version(settings, runner: context.runner) else {
            if !store.staleBuilds(toolchain: "").isEmpty {
                r.problem("no Swift toolchain on PATH, and some tools were built with one — put Swift on PATH")
            }
            return
        }
        for entry in store.staleBuilds(toolchain: toolchain) {
            var built = "another toolchain"
            if let s = entry.builtWithSwift { built = s }
            r.problem("\(entry.name) \(entry.version) was built with \(built), but the toolchain is now \(toolchain) — run `tack install --rebuild` in a project that pins it")
        }
    }

    /// The system packages the pinned Swift toolchain needs here (swift.org's list).
    func checkSwiftDependencies(_ r: inout Report) async {
        guard let resolution = try? Resolver(settings).resolve(), let needed = SwiftDependencies.needed(resolution, fs: settings.fs),
              let missing = await SwiftDependencies.missing(needed, environment: settings.environment, runner: context.runner) else { return }
        if missing.isEmpty {
            r.ok("the system packages the pinned Swift toolchain needs (\(needed.platform)) are installed")
        } else {
            r.problem("the pinned Swift toolchain needs system packages that are missing (\(needed.platform)): \(missing.joined(separator: ", ")) — `tack bootstrap` installs them")
        }
    }

    /// `tack`, `tack-front` and `tack-cli` where each looks for the others, and shims that
    /// link to this `tack`.
    func checkBinaries(_ r: inout Report) {
        guard let tack = context.launcher() else {
            r.problem("the tack executable is missing beside tack-cli (or in ../../bin) — reinstall tack with ./bootstrap.sh")
            return
        }
        let dir = Paths.dirname(tack)
        // Where `tack` looks for its two helpers: beside it, or in ../libexec/tack.
        func helper(_ name: String) -> String? {
            [dir + "/" + name, Paths.normalize(dir + "/../libexec/tack/" + name)].first(where: settings.fs.isExecutable)
        }
        let front = helper("tack-front"), cli = helper("tack-cli")
        if let front, let cli {
            r.ok("binaries: \([tack, front, cli].map { Paths.abbreviate($0, home: settings.home) }.joined(separator: ", "))")
        }
        for (name, found) in [("tack-front", front), ("tack-cli", cli)] where found == nil {
            r.problem("\(name) is missing beside \(tack) (or in ../libexec/tack), so `tack` cannot hand commands to it — reinstall tack with ./bootstrap.sh")
        }
        guard let store = settings.store, let names = try? store.fs.list(store.shims) else { return }
        let stale = names.filter { name in
            guard let target = store.fs.linkTarget(store.shims + "/" + name) else { return false }
            return target != tack
        }
        if !stale.isEmpty {
            r.problem("\(stale.count) shim\(stale.count == 1 ? "" : "s") in \(Paths.abbreviate(store.shims, home: settings.home)) link to another tack (\(stale.prefix(3).joined(separator: ", "))\(stale.count > 3 ? ", …" : "")) — run `tack reshim`")
        }
    }

    /// Shims only run when their directory is on PATH, or the hook puts tools there.
    func checkPath(_ r: inout Report) {
        guard let store = settings.store else { return }
        let path = (settings.environment["PATH"] ?? "").split(separator: ":").map { Paths.normalize(String($0)) }
        if path.contains(Paths.normalize(store.shims)) {
            r.ok("the shims directory is on PATH")
        } else if settings.environment[ShellHook.digestVariable] != nil || settings.environment[ShellHook.diffVariable] != nil {
            r.ok("the shell hook is active")
        } else {
            r.problem("neither the shims directory (\(Paths.abbreviate(store.shims, home: settings.home))) is on PATH nor the shell hook active, so pinned tools run only through `tack exec` — add `eval \"$(tack activate bash)\"` (or zsh, fish) to your shell's start-up file, or put the shims directory first on PATH")
        }
    }

    /// Projects tack installed for (which `prune` keeps tools for) that are gone, and what
    /// interrupted installs left behind.
    func checkProjects(_ r: inout Report) {
        guard let store = settings.store else { return }
        let leftovers = Leftovers.find(in: store)
        if !leftovers.isEmpty {
            r.problem("\(leftovers.count) unfinished install\(leftovers.count == 1 ? "" : "s") or download\(leftovers.count == 1 ? " was" : "s were") left by a tack that is gone (\(leftovers.prefix(3).map { Paths.abbreviate($0, home: settings.home) }.joined(separator: ", "))\(leftovers.count > 3 ? ", …" : "")) — run `tack prune` to remove them")
        }
        let gone = store.knownProjects().filter { !settings.fs.isDirectory($0) }
        if !gone.isEmpty {
            r.problem("\(gone.count) project\(gone.count == 1 ? "" : "s") tack installed for no longer exist\(gone.count == 1 ? "s" : "") (\(gone.prefix(3).map { Paths.abbreviate($0, home: settings.home) }.joined(separator: ", "))\(gone.count > 3 ? ", …" : "")) — run `tack prune` to forget them and remove the tools only they used")
        }
    }

    /// Every command an install's record lists is there and executable.
    func checkInstalledCommands(_ r: inout Report) {
        guard let store = settings.store else { return }
        for tool in store.installedTools() {
            for (dir, entry) in store.installedVersions(tool).flatMap({ store.installs(tool, $0) }) {
                guard entry.recordsBinaries else { continue }
                let bins = entry.binaries
                let missing = bins.filter { !settings.fs.isExecutable(dir + "/" + $0) }
                if !missing.isEmpty {
                    r.problem("\(tool) \(entry.version) lacks \(missing.joined(separator: ", ")), which its install made — run `tack uninstall \(tool)@\(entry.version.text)` and `tack install`")
                }
            }
        }
    }

    func checkHome(_ r: inout Report) {
        guard let home = settings.tackHome else {
            r.problem("neither TACK_HOME nor HOME is set — set TACK_HOME to a directory tack may write")
            return
        }
        let fs = settings.fs
        if fs.isDirectory(home) {
            if fs.isWritableDirectory(home) { r.ok("TACK_HOME \(home) is writable") }
            else { r.problem("TACK_HOME \(home) is not writable — fix its permissions or set TACK_HOME elsewhere") }
            return
        }
        if fs.info(home) != nil {
            r.problem("TACK_HOME \(home) is not a directory — remove it or set TACK_HOME elsewhere")
            return
        }
        // Not created yet: fine if the nearest existing parent is writable.
        var parent = Paths.dirname(home)
        while !fs.isDirectory(parent) && parent != "/" { parent = Paths.dirname(parent) }
        if fs.isWritableDirectory(parent) { r.ok("TACK_HOME \(home) will be created on first install") }
        else { r.problem("TACK_HOME \(home) cannot be created: \(parent) is not writable — set TACK_HOME elsewhere") }
    }
}
