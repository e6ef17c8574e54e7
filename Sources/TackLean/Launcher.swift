#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tack-shim`: what every shim links to, and what the shell hook runs at each prompt. A small
/// static executable with none of tack's other code, because on these paths the start of the
/// process is most of the cost and a smaller program starts faster.
///
/// As a shim (`argv[0]` is a tool's command): a snapshot that still holds gives the executable,
/// and it runs with the pinned tools first on PATH and the trusted env; a command pinned
/// nowhere runs the next one on PATH outside the shims. `tack-shim hook-env SHELL` prints
/// nothing when the applied digest is the snapshot's. Everything else — no snapshot, a tool
/// to install, an untrusted manifest to warn about, an error to explain — is handed to the
/// `tack` front end with the same arguments, which does the full work.
public enum Launcher {
    /// The digest of "nothing applied" (`ShellHook.emptyDigest`; a test keeps them equal).
    public static let emptyDigest: StaticString = "cbf29ce484222325"

    public static func main() -> Never {
        let argc = Int(CommandLine.argc)
        let argv = CommandLine.unsafeArgv
        guard let zeroth = argv[0] else { handOff(argv) }
        let name = UnsafePointer(strrchr(zeroth, Int32(UInt8(ascii: "/"))).map { $0 + 1 } ?? zeroth)
        if strcmp(name, "tack-shim") == 0 || strcmp(name, "tack") == 0 || name[0] == 0 {
            argv[0] = strdup("tack")
            if argc == 3, strcmp(argv[1]!, "hook-env") == 0, hookUnchanged() { exit(0) }
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
                LeanRun.exec(exe, name: name, arguments: argv)
            }
        }
        handOff(argv)
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

    /// Runs the `tack` front end (beside this program, or in `../../bin` of an installation)
    /// with the same arguments.
    static func handOff(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        #if canImport(Darwin)
        var size = UInt32(buf.count)
        var raw = [CChar](repeating: 0, count: buf.count)
        let ok = _NSGetExecutablePath(&raw, &size) == 0 && realpath(raw, &buf) != nil
        #else
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let ok = n > 0
        #endif
        if ok {
            let dir = LeanContext.bytes(buf.withUnsafeBufferPointer { $0.baseAddress! }).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast()
            var base: [UInt8] = []
            for (i, part) in dir.enumerated() {
                if i > 0 { base.append(UInt8(ascii: "/")) }
                base += part
            }
            for suffix in ["/tack", "/../../bin/tack"] {
                var candidate = base + Array(suffix.utf8)
                candidate.append(0)
                candidate.withUnsafeBufferPointer { b in
                    b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                        if access(p, X_OK) == 0 { _ = execv(p, argv) }
                    }
                }
            }
        }
        LeanRun.error(["the tack front end is missing beside tack-shim — reinstall tack with ./bootstrap.sh"])
        exit(127)
    }
}
