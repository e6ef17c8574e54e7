/// The shell hook: `tack activate SHELL` prints it once; at every prompt it runs
/// `tack hook-env SHELL`, which prints the commands that move the shell from what it has to
/// what the current directory asks for.
///
/// What the hook changed is kept in two variables of the shell: `__TACK_HOOK`, the digest of
/// what is applied (so "nothing changed" costs one comparison), and `__TACK_DIFF`, each
/// directory put on PATH and each variable set with the value it replaced. Leaving a project
/// takes exactly those back out: PATH entries are removed, variables get their old value (or
/// are unset) unless the user has changed them since.
public enum ShellHook {
    public enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish
    }

    public static let digestVariable = "__TACK_HOOK"
    public static let diffVariable = "__TACK_DIFF"
    /// The digest of "nothing applied".
    public static let emptyDigest = RunEnvironment().digest

    /// The script `tack activate` prints; `tack` is the absolute path of the front end.
    public static func activation(_ shell: Shell, tack: String) -> String {
        switch shell {
        case .bash: return bashActivation(tack: tack)
        case .zsh: return zshActivation(tack: tack)
        case .fish: return fishActivation(tack: tack)
        }
    }

    /// bash: a PROMPT_COMMAND hook.
    static func bashActivation(tack: String) -> String {
        return """
            _tack_hook() {
              local previous_exit_status=$?
              eval "$(\(ShellQuote.posix(tack)) hook-env bash)"
              return $previous_exit_status
            }
            tack() {
              if [ "${1-}" = deactivate ]; then
                eval "$(\(ShellQuote.posix(tack)) deactivate bash)"
              else
                \(ShellQuote.posix(tack)) "$@"
              fi
            }
            if [[ ";${PROMPT_COMMAND[*]:-};" != *";_tack_hook;"* ]]; then
              PROMPT_COMMAND="_tack_hook${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
            fi
            _tack_hook

            """
    }

    /// zsh: precmd and chpwd hooks.
    static func zshActivation(tack: String) -> String {
        return """
            _tack_hook() {
              eval "$(\(ShellQuote.posix(tack)) hook-env zsh)"
            }
            tack() {
              if [[ "${1-}" == deactivate ]]; then
                eval "$(\(ShellQuote.posix(tack)) deactivate zsh)"
              else
                \(ShellQuote.posix(tack)) "$@"
              fi
            }
            typeset -ag precmd_functions chpwd_functions
            if (( ! ${precmd_functions[(I)_tack_hook]} )); then
              precmd_functions=(_tack_hook $precmd_functions)
            fi
            if (( ! ${chpwd_functions[(I)_tack_hook]} )); then
              chpwd_functions=(_tack_hook $chpwd_functions)
            fi
            _tack_hook

            """
    }

    /// fish: a prompt and PWD event handler.
    static func fishActivation(tack: String) -> String {
        return """
            function __tack_hook --on-event fish_prompt --on-variable PWD
                \(ShellQuote.fish(tack)) hook-env fish | source
            end
            function tack
                if test "$argv[1]" = deactivate
                    \(ShellQuote.fish(tack)) deactivate fish | source
                else
                    \(ShellQuote.fish(tack)) $argv
                end
            end
            __tack_hook

            """
    }

    /// The script `tack deactivate` prints: the hook and the `tack` function removed, and
    /// PATH and every variable the hook set back to what they were before it (from the
    /// record the hook keeps in the shell), as leaving every project would.
    public static func deactivation(_ shell: Shell, environment: [String: String], home: String?) -> String {
        var script: String
        switch shell {
        case .bash:
            script = """
                PROMPT_COMMAND="${PROMPT_COMMAND//_tack_hook;/}"
                PROMPT_COMMAND="${PROMPT_COMMAND//_tack_hook/}"
                unset -f _tack_hook tack

                """
        case .zsh:
            script = """
                precmd_functions=(${precmd_functions:#_tack_hook})
                chpwd_functions=(${chpwd_functions:#_tack_hook})
                unfunction _tack_hook tack 2>/dev/null

                """
        case .fish:
            script = """
                functions -e __tack_hook tack

                """
        }
        // Nothing applied: what update would do on leaving every project.
        script += update(shell, run: nil, environment: environment, home: home).script
        script += line(shell, errorVariable, nil)
        return script
    }

    /// One step of the hook: the shell commands (and warnings for stderr) that take the shell
    /// from `environment` to `run` (nil: nothing here, or the directory could not be resolved).
    public static func update(_ shell: Shell, run: RunEnvironment?, environment: [String: String], home: String?) -> (script: String, warnings: [String]) {
        let previous = Diff.decode(environment[diffVariable] ?? "")
        // What the shell had before tack changed anything.
        var pathEntries = (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if pathEntries == [""] { pathEntries = [] }
        for dir in previous.prepended {
            if let i = pathEntries.firstIndex(of: dir) { pathEntries.remove(at: i) }
        }
        var base: [String: String?] = [:]
        for v in previous.variables {
            let now = environment[v.name]
            base.updateValue(now == v.new ? v.old : now, forKey: v.name)
        }

        var next = Diff()
        var target: [String: String?] = base
        let run = run ?? RunEnvironment()
        next.prepended = run.binDirectories
        for v in run.variables where !reserved.contains(v.name) {
            let old = base[v.name] ?? environment[v.name]
            next.variables.append(.init(name: v.name, old: old, new: v.value))
            target[v.name] = .some(v.value)
        }
        if environment["PATH"] != nil || !run.binDirectories.isEmpty {
            target["PATH"] = .some((run.binDirectories + pathEntries).joined(separator: ":"))
        }
        let applied = !run.isEmpty
        // (updateValue: assigning nil through the subscript would remove the key.)
        target.updateValue(applied ? run.digest : nil, forKey: digestVariable)
        target.updateValue(applied ? next.encode() : nil, forKey: diffVariable)

        var lines: [String] = []
        for name in target.keys.sorted() {
            let value = target[name]!
            if value == environment[name] { continue }
            lines.append(value.map { assign(shell, name, $0) } ?? unset(shell, name))
        }
        var warnings = run.untrusted.map { RunEnvironment.untrustedWarning($0, home: home) }
        if !run.missing.isEmpty {
            warnings.append("not installed here: \(run.missing.joined(separator: ", ")) — run `tack install`")
        }
        return (lines.map { $0 + "\n" }.joined(), warnings)
    }

    static let reserved: Set<String> = ["PATH", digestVariable, diffVariable]

    /// Set while the last resolution here failed: a short fingerprint of its error, so the hook
    /// says it once, not at every prompt.
    public static let errorVariable = "__TACK_ERROR"

    /// The fingerprint `errorVariable` holds for `message`.
    public static func errorKey(_ message: String) -> String {
        FNV1a.hex(message)
    }

    /// The shell line that sets (or, with nil, unsets) one variable.
    public static func line(_ shell: Shell, _ name: String, _ value: String?) -> String {
        (value.map { assign(shell, name, $0) } ?? unset(shell, name)) + "\n"
    }

    static func assign(_ shell: Shell, _ name: String, _ value: String) -> String {
        switch shell {
        case .bash, .zsh: return "export \(name)=\(ShellQuote.posix(value))"
        case .fish: return "set -gx \(name) \(ShellQuote.fish(value))"
        }
    }

    static func unset(_ shell: Shell, _ name: String) -> String {
        switch shell {
        case .bash, .zsh: return "unset \(name)"
        case .fish: return "set -e \(name)"
        }
    }


    /// What the hook changed, in one variable: `p:DIR` for a directory put on PATH,
    /// `s:NAME:NEW:OLD` for a variable that had a value, `u:NAME:NEW` for one that was unset;
    /// entries separated by spaces, values percent-encoded.
    struct Diff: Equatable {
        struct Variable: Equatable {
            var name: String
            var old: String?
            var new: String
        }
        var prepended: [String] = []
        var variables: [Variable] = []

        func encode() -> String {
            var parts = prepended.map { "p:" + Diff.escape($0) }
            for v in variables {
                if let old = v.old {
                    parts.append("s:\(v.name):\(Diff.escape(v.new)):\(Diff.escape(old))")
                } else {
                    parts.append("u:\(v.name):\(Diff.escape(v.new))")
                }
            }
            return parts.joined(separator: " ")
        }

        /// Anything malformed is dropped: the variable is the user's to break.
        static func decode(_ s: String) -> Diff {
            var d = Diff()
            for part in s.split(separator: " ") {
                let f = part.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                switch (f.first, f.count) {
                case ("p", 2): if let dir = unescape(f[1]) { d.prepended.append(dir) }
                case ("s", 4):
                    if let new = unescape(f[2]), let old = unescape(f[3]) { d.variables.append(.init(name: f[1], old: old, new: new)) }
                case ("u", 3): if let new = unescape(f[2]) { d.variables.append(.init(name: f[1], old: nil, new: new)) }
                default: continue
                }
            }
            return d
        }

        static func escape(_ s: String) -> String {
            let digits = Array("0123456789ABCDEF".utf8)
            var out: [UInt8] = []
            for b in s.utf8 {
                let safe = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/._-+,@=~".utf8.contains(b)
                if safe { out.append(b) } else { out += [0x25, digits[Int(b >> 4)], digits[Int(b & 0xF)]] }
            }
            return String(decoding: out, as: UTF8.self)
        }

        static func unescape(_ s: String) -> String? {
            var out: [UInt8] = []
            var bytes = s.utf8.makeIterator()
            func hex(_ b: UInt8?) -> UInt8? {
                guard let b else { return nil }
                switch b {
                case 0x30...0x39: return b - 0x30
                case 0x41...0x46: return b - 0x37
                case 0x61...0x66: return b - 0x57
                default: return nil
                }
            }
            while let b = bytes.next() {
                if b == 0x25 {
                    guard let hi = hex(bytes.next()), let lo = hex(bytes.next()) else { return nil }
                    out.append(hi << 4 | lo)
                } else {
                    out.append(b)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
