/// An error a user reads: one line saying what is wrong, where it came from, and what to do.
public struct TackError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// `file:line:column: message`, the form editors and terminals make clickable.
    public static func at(_ file: String, _ line: Int, _ column: Int?, _ message: String) -> TackError {
        if let column { return TackError("\(file):\(line):\(column): \(message)") }
        return TackError("\(file):\(line): \(message)")
    }
    public var description: String { message }
}

/// Where a pin was written: the file and line a user can open, or the environment variable.
public struct Origin: Sendable, Hashable {
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

    /// `~/app/tack.yml:2`, or `TACK_SWIFTLINT_VERSION` for the environment.
    public func describe(home: String?) -> String {
        switch kind {
        case .environment, .commandLine: return file
        default: return "\(Paths.abbreviate(file, home: home)):\(line)"
        }
    }
}

/// Where a tool comes from. `registry` means "look the short name up in the registry".
public enum ToolSource: Sendable, Hashable, CustomStringConvertible {
    case registry
    case git(String)
    case url(String)
    case pip(String)
    case gem(String)
    case asdf(String)

    public var backend: String {
        switch self {
        case .registry: return "registry"
        case .git: return "git"
        case .url: return "url"
        case .pip: return "pip"
        case .gem: return "gem"
        case .asdf: return "asdf"
        }
    }

    public var description: String {
        switch self {
        case .registry: return "registry"
        case .git(let s), .url(let s), .pip(let s), .gem(let s), .asdf(let s): return "\(backend): \(s)"
        }
    }

    /// The source's identity as a string (the URL, package or gem name).
    public var identity: String? {
        switch self {
        case .registry: return nil
        case .git(let s), .url(let s), .pip(let s), .gem(let s), .asdf(let s): return s
        }
    }
}

/// Backend options from a tool's mapping in tack.yml, each checked for type where it is read.
public struct ToolOptions: Sendable, Hashable {
    public var products: [String] = []
    public var bin: [String] = []
    public var build: String?
    public var checksum: String?
    public var platforms: [String: [String: String]] = [:]
    public var python: String?
    public var indexURL: String?
    public var findLinks: String?
    public var extras: [String] = []
    public var gemSource: String?
    /// `versions: { url:, regex: }`: where a url tool's versions are listed.
    public var versionIndex: [String: String]?
    public init() {}
}

/// What was asked for one tool, and the file and line that asked. Resolution turns it into an
/// exact version; this type never holds one.
public struct ToolRequest: Sendable, Hashable {
    public var name: String
    public var requirement: Requirement
    public var source: ToolSource
    public var options: ToolOptions
    public var origin: Origin
    /// Further versions a version file lists after the first (asdf's `ruby 3.3.0 3.2.2`,
    /// pyenv's lines, `TACK_PYTHON_VERSION=3.12:3.11`): the resolver pins the first of all of
    /// them that is installed, else the first.
    public var alternatives: [Requirement] = []

    public init(name: String, requirement: Requirement, source: ToolSource = .registry, options: ToolOptions = ToolOptions(), origin: Origin) {
        self.name = name
        self.requirement = requirement
        self.source = source
        self.options = options
        self.origin = origin
    }
}

public enum ToolName {
    /// `[a-z0-9][a-z0-9._-]*`, at most 64 characters: never a path, never an option.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        func ok(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        guard ok(first) else { return false }
        return name.utf8.allSatisfy { ok($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    public static func problem(_ name: String) -> String {
        "`\(name)` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"
    }

    /// `swift-format` → `TACK_SWIFT_FORMAT_VERSION`.
    public static func environmentVariable(_ name: String) -> String {
        "TACK_" + String(name.uppercased().map { $0 == "-" || $0 == "." ? "_" : $0 }) + "_VERSION"
    }
}

extension ToolName {
    /// A binary's file name: no path separators, not `.` or `..`, no control characters.
    public static func isValidBinaryName(_ s: String) -> Bool {
        !s.isEmpty && s != "." && s != ".." && !s.hasPrefix("-") && s.count <= 255
            && !s.contains("/") && !s.contains(where: { $0.isControl })
    }
}
