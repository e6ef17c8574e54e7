import CLean

/// The one table of what the fast binaries answer. `tack` (from the on-disk snapshot) and
/// `tack-front` (resolving when the snapshot no longer holds) both classify argv here, and
/// both hand everything this table does not list — every other command, every `-h`/`--help`,
/// every option spelled another way — to `tack-cli`. The README's "Which binary answers what"
/// is this table; a test checks that tack-cli's parser reads each form the same way.
///
/// | argv                                   | form                               |
/// |----------------------------------------|------------------------------------|
/// | `argv[0]` is a tool's command (a shim) | `.shim`                            |
/// | `exec [--frozen] [--] COMMAND ARGS...` | `.exec` (COMMAND not an option)    |
/// | `which COMMAND`                        | `.which`                           |
/// | `current [TOOL] [--json]`              | `.current` (either order)          |
/// | `install [--frozen]`                   | `.install` (answered when a no-op) |
/// | `hook-env bash|zsh|fish`               | `.hookEnv`                         |
///
/// `exec`: without a `--` before COMMAND, a later `--` means `tool@version` overrides came
/// first (`tack exec jq@1.7 -- jq`), which is tack-cli's work.
public enum HotCommand {
    case shim(name: UnsafePointer<CChar>)
    /// `command` is the index in argv of the command to run.
    case exec(frozen: Bool, command: Int)
    case which(command: UnsafeMutablePointer<CChar>)
    case current(tool: UnsafeMutablePointer<CChar>?, json: Bool)
    case install(frozen: Bool)
    case hookEnv(shell: UnsafeMutablePointer<CChar>)
    /// Everything else: tack-cli's.
    case full

    /// Whether the form is answered from the snapshot (every form but `.full`).
    public var readsSnapshot: Bool {
        if case .full = self { return false }
        return true
    }

    /// Whether resolving for it has something to say that a snapshot does not hold: a prompt
    /// that was told of a resolution error is told, by `tack-front`, that it is gone.
    var saysMoreAfterResolving: Bool {
        if case .hookEnv = self { return LeanContext.exactVariable(HookScript.errorVariable) != nil }
        return false
    }

    /// The names under which the binaries are tack itself rather than a shim.
    static func isTackName(_ name: UnsafePointer<CChar>) -> Bool {
        name[0] == 0 || strcmp(name, "tack") == 0 || strcmp(name, "tack-shim") == 0 || strcmp(name, "tack-front") == 0
            || strcmp(name, "tack-cli") == 0
    }

    /// The last path component of `argv[0]`.
    public static func invokedName(_ zeroth: UnsafeMutablePointer<CChar>) -> UnsafePointer<CChar> {
        UnsafePointer(strrchr(zeroth, Int32(UInt8(ascii: "/"))).map { $0 + 1 } ?? zeroth)
    }

    static func isOption(_ word: UnsafeMutablePointer<CChar>) -> Bool { word[0] == CChar(UInt8(ascii: "-")) }

    public static func classify(argc: Int, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> HotCommand {
        guard let zeroth = argv[0] else { return .full }
        let name = invokedName(zeroth)
        if !isTackName(name) { return .shim(name: name) }
        guard argc >= 2, let first = argv[1] else { return .full }
        var words: [UnsafeMutablePointer<CChar>] = []
        for i in 2..<max(argc, 2) {
            guard let w = argv[i] else { return .full }
            words.append(w)
        }
        if strcmp(first, "exec") == 0 {
            // `words[i]` is `argv[i + 2]`.
            var i = 0
            var frozen = false
            if i < words.count, strcmp(words[i], "--frozen") == 0 {
                frozen = true
                i += 1
            }
            var dashed = false
            if i < words.count, strcmp(words[i], "--") == 0 {
                dashed = true
                i += 1
            }
            guard i < words.count, words[i][0] != 0, !isOption(words[i]) else { return .full }
            if !dashed {
                for j in i..<words.count where strcmp(words[j], "--") == 0 { return .full }
            }
            return .exec(frozen: frozen, command: i + 2)
        }
        if strcmp(first, "which") == 0 {
            guard words.count == 1, words[0][0] != 0, !isOption(words[0]) else { return .full }
            return .which(command: words[0])
        }
        if strcmp(first, "current") == 0 {
            var tool: UnsafeMutablePointer<CChar>?
            var json = false
            for w in words {
                if strcmp(w, "--json") == 0, !json {
                    json = true
                } else if w[0] != 0, !isOption(w), tool == nil {
                    tool = w
                } else {
                    return .full
                }
            }
            return .current(tool: tool, json: json)
        }
        if strcmp(first, "install") == 0 {
            if words.isEmpty { return .install(frozen: false) }
            guard words.count == 1, strcmp(words[0], "--frozen") == 0 else { return .full }
            return .install(frozen: true)
        }
        if strcmp(first, "hook-env") == 0 {
            guard words.count == 1, strcmp(words[0], "bash") == 0 || strcmp(words[0], "zsh") == 0 || strcmp(words[0], "fish") == 0
            else { return .full }
            return .hookEnv(shell: words[0])
        }
        return .full
    }
}
