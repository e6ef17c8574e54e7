/// A `bin:` entry: `path/to/tool`, or `path/to/tool=name` for the command it installs as.
/// One reading of it for the manifest's checks, the backends that link binaries, and `tack
/// exec`'s guess at which pin provides a command.
public enum BinSpec {
    /// The file and the command name it is installed as.
    public static func split(_ spec: String) -> (path: String, name: String) {
        if let eq = spec.lastIndex(of: "=") {
            return (String(spec[..<eq]), String(spec[spec.index(after: eq)...]))
        }
        return (spec, spec.split(separator: "/").last.map(String.init) ?? "")
    }

    /// A path that stays inside the directory it is relative to: not empty, not absolute, no
    /// `..` component, no control character.
    public static func isSafeRelativePath(_ p: String) -> Bool {
        !p.isEmpty && !p.hasPrefix("/") && !p.split(separator: "/", omittingEmptySubsequences: false).contains("..")
            && !p.contains(where: { $0.isControl })
    }
}
