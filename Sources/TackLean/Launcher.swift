import CLean

/// The `tack` executable (built from these sources in Embedded Swift; see Sources/tack). What
/// users, every shim and the shell hook at each prompt run, so on these paths the start of the
/// process is most of the cost: it reads the on-disk snapshot on C strings and answers what
/// that snapshot answers, with none of tack's other code.
///
/// Which argv it answers is `HotCommand`'s table: a shim, `exec`, `which`, `current`, a no-op
/// `install` and an unchanged `hook-env`, each when the snapshot holds.
///
/// When a hot command finds the snapshot no longer holds (tack.yml edited, a tool installed),
/// `refresh` resolves in this process and saves a new one (in the `tack` executable,
/// `Snapshot.refreshQuietly`, TackCore built in Embedded Swift), and the command is answered
/// from it. Everything else — no snapshot it can make quietly, a tool to install, an untrusted
/// manifest to warn about, an error to explain, every other command — is handed to
/// `tack-front` with the same arguments, which resolves (and says what there is to say) or
/// hands on to `tack-cli`.
public enum Launcher {
    /// The digest of "nothing applied" (`ShellHook.emptyDigest`; a test keeps them equal).
    public static let emptyDigest: StaticString = "cbf29ce484222325"

    /// `refresh` gets the path of `tack-front` (which the snapshot records as what made it)
    /// and returns a new snapshot of this directory, saved where it can be (one
    /// whose files changed this very tick of the file system's clock is used, not saved, as
    /// `tack-front` does), or nil when resolving has something to say.
    /// `accepts` says whether the command's arguments are ones tack takes (a tool name
    /// `current` refuses is not); what it does not accept goes to `tack-front`, which says why.
    public static func main(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                            accepts: (HotCommand) -> Bool,
                            refresh: (_ front: String?) -> LeanSnapshot?) -> Never {
        let command = HotCommand.classify(argc: Int(argc), argv: argv)
        if command.readsSnapshot, accepts(command), let context = LeanContext.current(), let path = context.snapshotPath() {
            if let snapshot = LeanSnapshot.load(path: path, context: context) {
                answer(command, argv, snapshot, context)
            } else if !command.saysMoreAfterResolving, let fresh = refresh(frontPath().map { String(decoding: $0.dropLast(), as: UTF8.self) }) {
                answer(command, argv, fresh, context)
            }
        }
        handOff(argv)
    }

    /// Answers `command` from `snapshot` and exits, or returns when the snapshot does not say
    /// enough (a tool not installed, a manifest not trusted, …).
    static func answer(_ command: HotCommand, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ snapshot: LeanSnapshot, _ context: LeanContext) {
        switch command {
        case .shim(let name):
            if !snapshot.hasUntrusted { LeanRun.runShim(snapshot, shims: LeanRun.shims(context), name: name, arguments: argv) { _ in } }
        case .exec(let frozen, let command):
            exec(argv, snapshot, context, command: command, frozen: frozen || LeanContext.isFrozenByEnvironment)
        case .which(let command):
            which(command, snapshot)
        case .current(let tool, let json):
            current(tool: tool, json: json, snapshot)
        case .install:
            if snapshot.isUpToDate { exit(0) }
        case .hookEnv(let shell):
            hookEnv(shell, snapshot)
        case .full:
            break
        }
    }

    /// `tack exec [--frozen] [--] COMMAND ARGS...` when everything pinned is installed and no
    /// manifest is untrusted — and, frozen, when the locks are exactly what is pinned (what a
    /// frozen install checks: `UpToDate`); returns otherwise (installs, warnings and the frozen
    /// rule's message are the front end's and tack-cli's work).
    static func exec(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ snapshot: LeanSnapshot, _ context: LeanContext, command: Int, frozen: Bool) {
        guard !snapshot.hasMissing, !snapshot.hasUntrusted, !frozen || snapshot.isUpToDate else { return }
        LeanRun.runCommand(snapshot, shims: LeanRun.shims(context), arguments: argv + command) { _ in }
    }

    /// `tack current [TOOL] [--json]`: the output the snapshot stored for these arguments.
    static func current(tool: UnsafeMutablePointer<CChar>?, json: Bool, _ snapshot: LeanSnapshot) {
        var key = Array("current".utf8)
        if let tool { key += [UInt8(ascii: " ")] + LeanContext.bytes(UnsafePointer(tool)) }
        if json { key += Array(" --json".utf8) }
        guard let output = snapshot.answer(key) else { return }
        write(output)
        exit(0)
    }

    /// All of `bytes` to stdout; exits 1 if stdout is gone.
    static func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBufferPointer { CLean.write(1, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && lean_errno() == EINTR { continue }
            if n <= 0 {
                LeanRun.error(["cannot write output: ", n < 0 ? String(cString: strerror(lean_errno())) : "nothing was written"])
                exit(1)
            }
            written += n
        }
    }

    /// `tack which COMMAND` when everything pinned is installed and a pinned tool has COMMAND;
    /// returns otherwise (the front end explains what is wrong).
    static func which(_ command: UnsafeMutablePointer<CChar>, _ snapshot: LeanSnapshot) {
        guard command[0] != 0, command[0] != CChar(UInt8(ascii: "-")), command[0] != CChar(UInt8(ascii: ".")),
              strchr(command, Int32(UInt8(ascii: "/"))) == nil, !snapshot.hasMissing,
              var exe = LeanRun.findInBins(snapshot, command)
        else { return }
        exe[exe.count - 1] = UInt8(ascii: "\n")
        write(exe)
        exit(0)
    }

    /// `tack hook-env SHELL`: nothing when the snapshot's digest is the one the shell has
    /// applied, else the commands that apply it (`HookScript`, as `tack-front` would print
    /// them). Returns when there is more to say — a manifest not trusted, a tool not
    /// installed, an error the shell was told of — which the front end says.
    static func hookEnv(_ shell: UnsafeMutablePointer<CChar>, _ snapshot: LeanSnapshot) {
        guard let digest = snapshot.digest else { return }
        let ours = LeanContext.bytes(UnsafePointer(digest.withMemoryRebound(to: CChar.self, capacity: 1) { $0 }))
        let empty = HookScript.bytes(of: emptyDigest)
        let applied = LeanContext.exactVariable(HookScript.digestVariable) ?? empty
        if ours == applied { exit(0) }
        guard !snapshot.hasUntrusted, !snapshot.hasMissing, LeanContext.exactVariable(HookScript.errorVariable) == nil else { return }
        var bins: [[UInt8]] = []
        snapshot.forEach(.bin) { dir, _ in
            bins.append(LeanContext.bytes(UnsafePointer(dir.withMemoryRebound(to: CChar.self, capacity: 1) { $0 })))
            return true
        }
        var variables: [HookScript.Variable] = []
        snapshot.forEach(.setenv) { name, value in
            variables.append(HookScript.Variable(
                name: LeanContext.bytes(UnsafePointer(name.withMemoryRebound(to: CChar.self, capacity: 1) { $0 })),
                value: LeanContext.bytes(UnsafePointer(value.withMemoryRebound(to: CChar.self, capacity: 1) { $0 }))))
            return true
        }
        let syntax: HookScript.Syntax = strcmp(shell, "fish") == 0 ? .fish : .posix
        let nothing = bins.isEmpty && variables.isEmpty
        write(HookScript.script(syntax, bins: bins, variables: variables, digest: nothing ? nil : ours, lookup: LeanContext.exactVariable))
        exit(0)
    }

    /// Runs `tack-front` (beside this program in a build directory, or in `../libexec/tack` of
    /// an installation) with the same arguments.
    static func handOff(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        if let front = frontPath() {
            front.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in _ = execv(p, argv) }
            }
        }
        LeanRun.error(["tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh"])
        exit(127)
    }

    /// The path of `tack-front` (NUL-terminated): beside this program in a build directory, or
    /// in `../libexec/tack` of an installation; nil when neither is there.
    static func frontPath() -> [UInt8]? {
        guard let me = LeanRun.programPath() else { return nil }
        let dir = LeanRun.directory(of: me)
        for place in ["tack-front", "../libexec/tack/tack-front"] {
            let candidate = dir + Array(place.utf8) + [0]
            // Its real path: what `tack-front` itself records as the program that made a snapshot.
            var real = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let found = candidate.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { access($0, X_OK) == 0 && realpath($0, &real) != nil }
            }
            if found { return LeanContext.bytes(real.withUnsafeBufferPointer { $0.baseAddress! }) + [0] }
        }
        return nil
    }
}
