#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

#if !hasFeature(Embedded)
import TackLean
#endif

/// Which executable a command name runs here: the pinned tool that provides it, else the
/// next one on PATH outside tack's shims (as rbenv's `which`).
public enum CommandSearch {
    public enum Answer: Sendable, Equatable {
        /// The executable, and the pin it comes from (nil: found on PATH, outside tack).
        case found(String, tool: String?)
        case notInstalled(tool: String, version: String, setBy: String)
        /// Not pinned here: the installed tools that have it (`hello 1.0.0`), each with the
        /// `tack use` that pins it.
        case notFound(elsewhere: [(tool: String, pin: String)])

        public static func == (a: Answer, b: Answer) -> Bool {
            switch (a, b) {
            case (.found(let p, let t), .found(let q, let u)): return p == q && t == u
            case (.notInstalled(let t, let v, let s), .notInstalled(let u, let w, let r)): return t == u && v == w && s == r
            case (.notFound(let x), .notFound(let y)): return x.map({ $0.tool }) == y.map({ $0.tool }) && x.map({ $0.pin }) == y.map({ $0.pin })
            default: return false
            }
        }
    }

    /// `rows` are what `tack current` reports here; `pathRoots` the directories of `path:` pins.
    public static func find(_ command: String, rows: [CurrentTool], pathRoots: [String: String], settings: Settings) -> Answer {
        let fs = settings.fs
        let store = settings.store
        func executable(_ path: String) -> Bool { fs.isExecutable(path) }
        // Each pin's directory as RunEnvironment puts it on PATH, the one rule a snapshot's shim
        // follows too.
        for tool in rows {
            if tool.requested == "system" { continue }
            if let root = pathRoots[tool.tool] {
                // Its `bin` when there is one, else the directory itself.
                let bin = RunEnvironment.binDirectory(ofPathRoot: root)
                let candidate = (fs.isDirectory(bin) ? bin : root) + "/" + command
                if executable(candidate) { return .found(candidate, tool: tool.tool) }
                continue
            }
            guard let v = tool.version.flatMap({ Version(word: $0) }) else { continue }
            // Only the pin's own build: another build of the version (from another source, with
            // other options) is not it, and never runs in its place.
            if tool.installed, let directory = tool.installDirectory ?? store?.installDirectory(tool.tool, v) {
                let candidate = directory + "/bin/" + command
                if executable(candidate) { return .found(candidate, tool: tool.tool) }
            } else if tool.tool == command {
                return .notInstalled(tool: tool.tool, version: v.text, setBy: tool.origin.describe(home: settings.home))
            }
        }
        if let path = searchPath(command, settings: settings) { return .found(path, tool: nil) }
        // Not pinned here and not on PATH: say which installed tools have it.
        var elsewhere: [(tool: String, pin: String)] = []
        if let store {
            for t in store.installedTools() {
                let known = PinAdvice.registryKnows(t, store: store)
                for v in store.installedVersions(t) where executable(store.installDirectory(t, v) + "/bin/" + command) {
                    elsewhere.append(("\(t) \(v)", PinAdvice.use(t, v.text, installedFrom: store.installedEntry(t, v), registryKnows: known)))
                }
            }
        }
        return .notFound(elsewhere: elsewhere)
    }

    /// What a shim and `tack which` say of a command nothing here provides: the installed
    /// tools that have it, and the command that pins each.
    public static func notFoundMessage(_ command: String, elsewhere: [(tool: String, pin: String)]) -> String {
        var message = "\(command): command not found"
        guard !elsewhere.isEmpty else { return message }
        message += "; the `\(command)` command exists in these installed tools: \(elsewhere.map({ $0.tool }).joined(separator: ", "))"
        message += elsewhere.count == 1 ? " — pin it with \(elsewhere[0].pin)" : " — pin one with " + elsewhere.map({ $0.pin }).joined(separator: " or ")
        return message
    }

    /// The first `command` on PATH that is not a shim: tack's shims directory is skipped
    /// wherever it appears, and so is anything that resolves to the same file as the shim
    /// (an alias of the directory), so a shim never runs itself.
    public static func searchPath(_ command: String, settings: Settings) -> String? {
        let shims = settings.store?.shims
        let shimTarget = shims.flatMap { realPath($0 + "/" + command) }
        // tack itself (this program, or the `tack` beside it that shims link to) under the
        // command's name is never the next one on PATH.
        let selves = LeanRun.selves()
        let search = ExecutableSearch(path: settings.environment["PATH"] ?? "", skipping: shims.map { [$0] } ?? [], directory: settings.cwd)
        return search.find(command) { candidate in
            if let shimTarget, realPath(candidate) == shimTarget { return false }
            var st = stat()
            return !(stat(candidate, &st) == 0 && selves.contains { $0.device == UInt64(st.st_dev) && $0.inode == UInt64(st.st_ino) })
        }
    }

    static func realPath(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buf) != nil else { return nil }
        return String(cString: buf)
    }
}
