/// Where a pin was written: the file and line a user can open, or the environment variable.
public struct Origin: Sendable, Hashable {
    /// Whether the pin comes from a tack manifest (the project's, its local one, the global
    /// one): what `tack install` locks before anything runs.
    public var isTackManifest: Bool { [.manifest, .localManifest, .globalManifest].contains(kind) }

    public enum Kind: String, Sendable, Hashable {
        case manifest = "tack.yml"
        case localManifest = "tack.local.yml"
        case globalManifest = "global tack.yml"
        case toolVersions = ".tool-versions"
        case rubyVersion = ".ruby-version"
        case pythonVersion = ".python-version"
        case nodeVersion = ".node-version"
        case nvmrc = ".nvmrc"
        case swiftVersion = ".swift-version"
        case mintfile = "Mintfile"
        case aquaYAML = "aqua.yaml"
        case miseTOML = "mise.toml"
        case environment = "environment"
        case commandLine = "command line"
    }
    public var kind: Kind
    /// The absolute file, or the environment variable's name.
    public var file: String
    public var line: Int
    public var column: Int

    public init(kind: Kind, file: String, line: Int, column: Int) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
    }

    /// A tool named on tack's command line (`tack install jq@1.6`, `tack ls-remote owner/repo`).
    public static let commandLine = Origin(kind: .commandLine, file: "the command line", line: 0, column: 0)

    /// `~/app/tack.yml:2`, or `TACK_SWIFTLINT_VERSION` for the environment.
    public func describe(home: String?) -> String {
        switch kind {
        case .environment, .commandLine: return file
        default: return "\(Paths.abbreviate(file, home: home)):\(line)"
        }
    }
}

/// Where a tool comes from. `registry` means "look the short name up in the registry".
