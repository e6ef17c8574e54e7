public enum ToolSource: Sendable, Hashable, CustomStringConvertible {
    case registry
    case git(String)
    case url(String)
    case pip(String)
    case gem(String)
    case asdf(String)
    /// The Swift toolchain (`swift: swift.org`, the built-in `swift` entry): swift.org's
    /// releases and snapshots, or the mirror TACK_SWIFT_MIRROR names.
    case swift(String)

    public var backend: String {
        switch self {
        case .registry: return "registry"
        case .git: return "git"
        case .url: return "url"
        case .pip: return "pip"
        case .gem: return "gem"
        case .asdf: return "asdf"
        case .swift: return "swift"
        }
    }

    public var description: String {
        switch self {
        case .registry: return "registry"
        case .git(let s), .url(let s), .pip(let s), .gem(let s), .asdf(let s), .swift(let s): return "\(backend): \(s)"
        }
    }

    /// The source's identity as a string (the URL, package or gem name).
    public var identity: String? {
        switch self {
        case .registry: return nil
        case .git(let s), .url(let s), .pip(let s), .gem(let s), .asdf(let s), .swift(let s): return s
        }
    }
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
