import CLean

/// The `tack` executable (built from these sources in Embedded Swift; see Sources/tack). What
/// users, every shim and the shell hook at each prompt run, so on these paths the start of the
/// process is most of the cost: it reads the on-disk snapshot on C strings and answers what
/// that snapshot answers, with none of tack's other code.
///
/// - As a shim (`argv[0]` is a tool's command): the pinned tool's executable runs with the
///   pinned tools first on PATH and the trusted env; a command pinned nowhere runs the next one
///   on PATH outside the shims.
/// - `tack exec [--frozen] [--] COMMAND ARGS...`: the same environment, then COMMAND.
/// - `tack which COMMAND`: the pinned executable's path.
/// - `tack hook-env SHELL`: nothing, when the applied digest is the snapshot's.
///
/// Everything else — no snapshot, a tool to install, an untrusted manifest to warn about, an
/// error to explain, every other command — is handed to `tack-front` with the same arguments,
/// which resolves (and writes a new snapshot) or hands on to `tack-cli`.
public enum Launcher {
    /// The digest of "nothing applied" (`ShellHook.emptyDigest`; a test keeps them equal).
    public static let emptyDigest: StaticString = "cbf29ce484222325"

    public static func main(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        guard let zeroth = argv[0] else { handOff(argv) }
        let name = UnsafePointer(strrchr(zeroth, Int32(UInt8(ascii: "/"))).map { $0 + 1 } ?? zeroth)
        if strcmp(name, "tack") == 0 || strcmp(name, "tack-shim") == 0 || name[0] == 0 {
            argv[0] = strdup("tack")
            if argc >= 2, let first = argv[1] {
                if argc == 3, strcmp(first, "hook-env") == 0, hookUnchanged() { exit(0) }
                if strcmp(first, "exec") == 0 { exec(argv, count: Int(argc)) }
                if argc == 3, strcmp(first, "which") == 0 { which(argv[2]!) }
                if strcmp(first, "current") == 0 { current(argv, count: Int(argc)) }
                if strcmp(first, "install") == 0 { install(argv, count: Int(argc)) }
            }
            handOff(argv)
        }
        if let context = LeanContext.current(), let path = context.snapshotPath(),
           let snapshot = LeanSnapshot.load(path: path, context: context),
           !snapshot.isMissing(name), !snapshot.hasUntrusted {
            if let exe = LeanRun.findInBins(snapshot, name) {
                LeanRun.apply(snapshot) { _ in }
                LeanRun.exec(exe, name: name, arguments: argv)
            }
            if let exe = LeanRun.searchPath(name, path: getenv("PATH"), shims: LeanRun.shims(context)) {
                LeanRun.execFallback(exe, name: name, arguments: argv)
            }
        }
        handOff(argv)
    }

    /// `tack exec [--frozen] [--] COMMAND ARGS...` when the snapshot holds, everything pinned
    /// is installed and no manifest is untrusted; returns otherwise (`tool@version` overrides,
    /// options, installs, warnings: the front end's work).
    static func exec(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) {
        var i = 2
        if i < count, strcmp(argv[i]!, "--frozen") == 0 { i += 1 }
        if i < count, strcmp(argv[i]!, "--") == 0 { i += 1 }
        guard i < count, let program = argv[i], program[0] != CChar(UInt8(ascii: "-")) else { return }
        // `tool@version` before a later `--` is for the front end.
        for j in i..<count where strcmp(argv[j]!, "--") == 0 { return }
        guard let context = LeanContext.current(), let path = context.snapshotPath(),
              let snapshot = LeanSnapshot.load(path: path, context: context),
              !snapshot.hasMissing, !snapshot.hasUntrusted
        else { return }
        LeanRun.apply(snapshot) { _ in }
        let executable: [UInt8]
        if strchr(program, Int32(UInt8(ascii: "/"))) != nil {
            executable = LeanRun.bytes(UnsafePointer(program))
        } else if let found = LeanRun.searchPath(program, path: getenv("PATH"), shims: LeanRun.shims(context)) {
            executable = found
        } else {
            LeanRun.error([String(cString: program), ": command not found"])
            exit(127)
        }
        LeanRun.exec(executable, name: program, arguments: argv + i)
    }

    /// `tack current [TOOL] [--json]`: the output the snapshot stored for these arguments.
    static func current(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) {
        var tool: UnsafeMutablePointer<CChar>?
        var json = false
        for i in 2..<max(count, 2) {
            let a = argv[i]!
            if strcmp(a, "--json") == 0, !json {
                json = true
            } else if a[0] != CChar(UInt8(ascii: "-")), a[0] != 0, tool == nil {
                tool = a
            } else {
                return
            }
        }
        var key = Array("current".utf8)
        if let tool { key += [UInt8(ascii: " ")] + LeanContext.bytes(UnsafePointer(tool)) }
        if json { key += Array(" --json".utf8) }
        guard let snapshot = LeanSnapshot.current(), let output = snapshot.answer(key) else { return }
        write(output)
        exit(0)
    }

    /// `tack install [--frozen]...` with nothing to do.
    static func install(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) {
        for i in 2..<max(count, 2) where strcmp(argv[i]!, "--frozen") != 0 { return }
        if let snapshot = LeanSnapshot.current(), snapshot.isUpToDate { exit(0) }
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

    /// Whether the snapshot here still holds and its digest is the one the shell has applied.
    static func hookUnchanged() -> Bool {
        guard let context = LeanContext.current(), let path = context.snapshotPath(),
              let snapshot = LeanSnapshot.load(path: path, context: context), let digest = snapshot.digest
        else { return false }
        return digest.withMemoryRebound(to: CChar.self, capacity: 1) { d in
            if let applied = getenv("__TACK_HOOK") { return strcmp(d, applied) == 0 }
            return emptyDigest.withUTF8Buffer { e in e.baseAddress!.withMemoryRebound(to: CChar.self, capacity: e.count) { strcmp(d, $0) == 0 } }
        }
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
