import CLean

/// The `tack` executable (built from these sources in Embedded Swift; see Sources/tack). What
/// users, every shim and the shell hook at each prompt run, so on these paths the start of the
/// process is most of the cost: it reads the on-disk snapshot on C strings and answers what
/// that snapshot answers, with none of tack's other code.
///
/// Which argv it answers is `HotCommand`'s table: a shim, `exec`, `which`, `current`, a no-op
/// `install` and an unchanged `hook-env`, each when the snapshot holds.
///
/// Everything else — no snapshot, a tool to install, an untrusted manifest to warn about, an
/// error to explain, every other command — is handed to `tack-front` with the same arguments,
/// which resolves (and writes a new snapshot) or hands on to `tack-cli`.
public enum Launcher {
    /// The digest of "nothing applied" (`ShellHook.emptyDigest`; a test keeps them equal).
    public static let emptyDigest: StaticString = "cbf29ce484222325"

    public static func main(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        switch HotCommand.classify(argc: Int(argc), argv: argv) {
        case .shim(let name):
            if let context = LeanContext.current(), let path = context.snapshotPath(),
               let snapshot = LeanSnapshot.load(path: path, context: context), !snapshot.hasUntrusted {
                LeanRun.runShim(snapshot, shims: LeanRun.shims(context), name: name, arguments: argv) { _ in }
            }
        case .exec(let frozen, let command):
            exec(argv, command: command, frozen: frozen || LeanContext.isFrozenByEnvironment)
        case .which(let command):
            which(command)
        case .current(let tool, let json):
            current(tool: tool, json: json)
        case .install:
            if let snapshot = LeanSnapshot.current(), snapshot.isUpToDate { exit(0) }
        case .hookEnv(let shell):
            hookEnv(shell)
        case .full:
            break
        }
        handOff(argv)
    }

    /// `tack exec [--frozen] [--] COMMAND ARGS...` when the snapshot holds, everything pinned
    /// is installed and no manifest is untrusted — and, frozen, when the locks are exactly
    /// what is pinned (what a frozen install checks: `UpToDate`); returns otherwise (installs,
    /// warnings and the frozen rule's message are the front end's and tack-cli's work).
    static func exec(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, command: Int, frozen: Bool) {
        guard let context = LeanContext.current(), let path = context.snapshotPath(),
              let snapshot = LeanSnapshot.load(path: path, context: context),
              !snapshot.hasMissing, !snapshot.hasUntrusted, !frozen || snapshot.isUpToDate
        else { return }
        LeanRun.runCommand(snapshot, shims: LeanRun.shims(context), arguments: argv + command) { _ in }
    }

    /// `tack current [TOOL] [--json]`: the output the snapshot stored for these arguments.
    static func current(tool: UnsafeMutablePointer<CChar>?, json: Bool) {
        var key = Array("current".utf8)
        if let tool { key += [UInt8(ascii: " ")] + LeanContext.bytes(UnsafePointer(tool)) }
        if json { key += Array(" --json".utf8) }
        guard let snapshot = LeanSnapshot.current(), let output = snapshot.answer(key) else { return }
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

    /// `tack which COMMAND` when the snapshot holds, everything pinned is installed and a
    /// pinned tool has COMMAND; returns otherwise (the front end explains what is wrong).
    static func which(_ command: UnsafeMutablePointer<CChar>) {
        guard command[0] != 0, command[0] != CChar(UInt8(ascii: "-")), command[0] != CChar(UInt8(ascii: ".")),
              strchr(command, Int32(UInt8(ascii: "/"))) == nil,
              let context = LeanContext.current(), let path = context.snapshotPath(),
              let snapshot = LeanSnapshot.load(path: path, context: context), !snapshot.hasMissing,
              var exe = LeanRun.findInBins(snapshot, command)
        else { return }
        exe[exe.count - 1] = UInt8(ascii: "\n")
        write(exe)
        exit(0)
    }

    /// `tack hook-env SHELL` when the snapshot here holds: nothing when its digest is the one
    /// the shell has applied, else the commands that apply it (`HookScript`, as `tack-front`
    /// would print them). Returns when there is more to say — a manifest not trusted, a tool
    /// not installed, an error the shell was told of — which the front end says.
    static func hookEnv(_ shell: UnsafeMutablePointer<CChar>) {
        guard let context = LeanContext.current(), let path = context.snapshotPath(),
              let snapshot = LeanSnapshot.load(path: path, context: context), let digest = snapshot.digest
        else { return }
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
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let ok = lean_self_path(&buf, buf.count) == 0
        if ok {
            let dir = LeanContext.bytes(buf.withUnsafeBufferPointer { $0.baseAddress! }).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast()
            var base: [UInt8] = []
            for (i, part) in dir.enumerated() {
                if i > 0 { base.append(UInt8(ascii: "/")) }
                base += part
            }
            for suffix in ["/tack-front", "/../libexec/tack/tack-front"] {
                var candidate = base + Array(suffix.utf8)
                candidate.append(0)
                candidate.withUnsafeBufferPointer { b in
                    b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                        if access(p, X_OK) == 0 { _ = execv(p, argv) }
                    }
                }
            }
        }
        LeanRun.error(["tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh"])
        exit(127)
    }
}
