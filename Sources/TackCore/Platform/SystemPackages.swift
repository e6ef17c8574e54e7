/// The system package managers `bootstrap.packages` names, and how tack asks each what is
/// installed and installs what is missing (argument arrays; sudo is added by the caller).
public enum PackageManager: String, Sendable, CaseIterable {
    case apt, dnf, pacman, apk, brew

    /// The command that must be on PATH for this manager to be the machine's.
    public var command: String {
        switch self {
        case .apt: return "apt-get"
        case .dnf: return "dnf"
        case .pacman: return "pacman"
        case .apk: return "apk"
        case .brew: return "brew"
        }
    }

    /// Homebrew refuses to run as root; the others install system-wide and need it.
    public var needsRoot: Bool { self != .brew }

    /// The machine's manager: `TACK_PACKAGE_MANAGER` when set, else the first whose command is
    /// on PATH, system managers before Homebrew.
    public static func detect(environment: [String: String], isExecutable: (String) -> Bool) throws(TackError) -> PackageManager? {
        if let forced = environment["TACK_PACKAGE_MANAGER"], !forced.isEmpty {
            guard let m = PackageManager(rawValue: forced) else {
                throw TackError("TACK_PACKAGE_MANAGER is \(quoted(forced)); expected one of \(allCases.map({ $0.rawValue }).joined(separator: ", "))")
            }
            return m
        }
        let path = ExecutableSearch(environment: environment).directories.filter { !$0.isEmpty }
        for m in allCases where path.contains(where: { isExecutable(Paths.child($0, m.command)) }) { return m }
        return nil
    }

    /// How to ask which of `packages` are installed: the program and its arguments.
    public func queryCommand(_ packages: [String]) -> (String, [String]) {
        switch self {
        case .apt: return ("dpkg-query", ["-W", "-f=${Package}\t${Status}\n"] + packages)
        case .dnf: return ("rpm", ["-q", "--qf", "%{NAME}\n"] + packages)
        case .pacman: return ("pacman", ["-Q"] + packages)
        case .apk: return ("apk", ["info", "-e"] + packages)
        case .brew: return ("brew", ["list", "--versions"] + packages)
        }
    }

    /// Which of `packages` the query's output says are installed. The queries exit non-zero
    /// when any package is missing, so only the output counts.
    public func installed(from output: String, asked packages: [String]) -> Set<String> {
        var found: Set<String> = []
        for raw in output.split(separator: "\n") {
            let line = String(raw)
            switch self {
            case .apt:
                // `name<TAB>install ok installed` (also `name:arch`).
                let parts = line.split(separator: "\t", maxSplits: 1)
                guard parts.count == 2, parts[1].hasSuffix("install ok installed") else { continue }
                found.insert(String(parts[0].split(separator: ":").first ?? parts[0]))
            case .dnf:
                let name = line.trimmingSpaces
                if packages.contains(name) { found.insert(name) }
            case .pacman, .brew:
                // `name version`
                guard let name = line.split(separator: " ").first.map(String.init), packages.contains(name) else { continue }
                found.insert(name)
            case .apk:
                let name = line.trimmingSpaces
                if packages.contains(name) { found.insert(name) }
            }
        }
        return found
    }

    /// The commands that install `packages` (for apt, the package lists are refreshed first).
    public func installCommands(_ packages: [String]) -> [(String, [String])] {
        switch self {
        case .apt: return [("apt-get", ["update", "-q"]), ("apt-get", ["install", "-y", "-q", "--no-install-recommends"] + packages)]
        case .dnf: return [("dnf", ["install", "-y"] + packages)]
        case .pacman: return [("pacman", ["-S", "--noconfirm", "--needed"] + packages)]
        case .apk: return [("apk", ["add"] + packages)]
        case .brew: return [("brew", ["install"] + packages)]
        }
    }
}

/// The block `tack bootstrap --shell-rc` keeps in a shell's start-up file, between marker
/// comments; the rest of the file is never touched.
public enum ShellRC {
    public static let begin = "# >>> tack: the shell hook (tack bootstrap --shell-rc) >>>"
    public static let end = "# <<< tack <<<"

    /// The start-up file of `shell`.
    public static func file(_ shell: ShellHook.Shell, home: String, environment: [String: String]) -> String {
        switch shell {
        case .bash: return home + "/.bashrc"
        case .zsh: return (environment["ZDOTDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? home) + "/.zshrc"
        case .fish: return (environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config") + "/fish/config.fish"
        }
    }

    /// The activation line for `shell`, running `tack`.
    public static func line(_ shell: ShellHook.Shell, tack: String) -> String {
        switch shell {
        case .bash, .zsh: return "eval \"$(\(ShellQuote.posix(tack)) activate \(shell.rawValue))\""
        case .fish: return "\(ShellQuote.fish(tack)) activate fish | source"
        }
    }

    /// `text` with the block holding `line`: added at the end, or replaced where it is. nil
    /// when the text already has exactly that block. A file with a begin marker and no end
    /// marker is not guessed at: that is an error.
    public static func apply(_ text: String, line: String) throws(TackError) -> String? {
        let block = begin + "\n" + line + "\n" + end + "\n"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.firstIndex(of: begin) {
            guard let last = lines[first...].firstIndex(of: end) else {
                throw TackError("it has the line `\(begin)` but not `\(end)` after it; remove the incomplete block, then run this again")
            }
            if lines[first...last] == [begin, line, end] { return nil }
            lines.replaceSubrange(first...last, with: [begin, line, end])
            return lines.joined(separator: "\n")
        }
        if text.isEmpty { return block }
        return text + (text.hasSuffix("\n") ? "\n" : "\n\n") + block
    }
}
