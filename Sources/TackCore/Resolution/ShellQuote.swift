/// Quoting words for a shell, one rule for everything tack writes for one: the prompt hook's
/// script, wrapper scripts, the commands `-v` shows.
public enum ShellQuote {
    /// Single quotes for sh, bash and zsh: `'` becomes `'\''`.
    public static func posix(_ s: String) -> String {
        "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The word as it is when a POSIX shell reads it as itself, else `posix(_:)`: for showing
    /// a command line to a person.
    public static func posixIfNeeded(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || "-_./=:,+@%".unicodeScalars.contains(c)
        }
        return plain ? s : posix(s)
    }

    /// Single quotes for fish, where `\` and `'` are escaped inside them.
    public static func fish(_ s: String) -> String {
        var out = "'"
        for c in s.unicodeScalars {
            if c == "\\" || c == "'" { out += "\\" }
            out.unicodeScalars.append(c)
        }
        return out + "'"
    }
}
