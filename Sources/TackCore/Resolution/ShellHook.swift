#if !hasFeature(Embedded)
import TackLean
#endif

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
    /// The commands are `HookScript`'s, which the Embedded `tack` runs too.
    public static func update(_ shell: Shell, run: RunEnvironment?, environment: [String: String], home: String?) -> (script: String, warnings: [String]) {
        let run = run ?? RunEnvironment()
        let script = HookScript.script(
            syntax(shell), bins: run.binDirectories.map { Array($0.utf8) },
            variables: run.variables.map { HookScript.Variable(name: Array($0.name.utf8), value: Array($0.value.utf8)) },
            digest: run.isEmpty ? nil : Array(run.digest.utf8),
            lookup: { name in environment[String(decoding: name, as: UTF8.self)].map { Array($0.utf8) } })
        var warnings = run.untrusted.map { RunEnvironment.untrustedWarning($0, home: home) }
        if !run.missing.isEmpty {
            warnings.append("not installed here: \(run.missing.joined(separator: ", ")) — run `tack install`")
        }
        return (String(decoding: script, as: UTF8.self), warnings)
    }

    static func syntax(_ shell: Shell) -> HookScript.Syntax { shell == .fish ? .fish : .posix }

    /// Set while the last resolution here failed: a short fingerprint of its error, so the hook
    /// says it once, not at every prompt.
    public static let errorVariable = "__TACK_ERROR"

    /// The fingerprint `errorVariable` holds for `message`.
    public static func errorKey(_ message: String) -> String {
        FNV1a.hex(message)
    }

    /// The shell line that sets (or, with nil, unsets) one variable.
    public static func line(_ shell: Shell, _ name: String, _ value: String?) -> String {
        String(decoding: HookScript.line(syntax(shell), Array(name.utf8), value.map { Array($0.utf8) }), as: UTF8.self)
    }

    /// What the hook changed (`HookScript.Diff`), with strings.
    struct Diff: Equatable {
        struct Variable: Equatable {
            var name: String
            var old: String?
            var new: String
        }
        var prepended: [String] = []
        var variables: [Variable] = []

        func encode() -> String {
            let d = HookScript.Diff(
                prepended: prepended.map { Array($0.utf8) },
                variables: variables.map { .init(name: Array($0.name.utf8), old: $0.old.map { Array($0.utf8) }, new: Array($0.new.utf8)) })
            return String(decoding: d.encode(), as: UTF8.self)
        }

        static func decode(_ s: String) -> Diff {
            let d = HookScript.Diff.decode(Array(s.utf8))
            func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
            return Diff(prepended: d.prepended.map(text), variables: d.variables.map { .init(name: text($0.name), old: $0.old.map(text), new: text($0.new)) })
        }
    }
}
