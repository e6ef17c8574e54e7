/// Where a tool comes from: the kind of backend its source key named and the identity the key
/// gave (the URL, the package, the plugin); `.registry` for a short name the registry resolves.
public struct ToolSource: Sendable, Hashable, CustomStringConvertible {
    /// The kind of backend this source names; nil for a short name the registry resolves.
    public let kind: (any BackendKind)?
    /// The source's identity as a string (the URL, package or gem name); nil for `.registry`.
    public let identity: String?

    public init(_ kind: any BackendKind, _ identity: String) {
        self.kind = kind
        self.identity = identity
    }

    init() {
        kind = nil
        identity = nil
    }

    public static let registry = ToolSource()

    /// The backend's name (tack.lock's `backend:`), or `registry`.
    public var backend: String { kind?.name ?? "registry" }

    public var isRegistry: Bool { kind == nil }

    public var description: String { identity.map { "\(backend): \($0)" } ?? "registry" }

    public static func == (a: ToolSource, b: ToolSource) -> Bool { a.backend == b.backend && a.identity == b.identity }

    public func hash(into h: inout Hasher) {
        h.combine(backend)
        h.combine(identity)
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

    /// Whether tack locks and installs it: not `system` (whatever is on PATH) nor `path:` (a
    /// directory of the user's), which tack runs but never installs.
    public var isLockable: Bool {
        switch requirement {
        case .system, .path: return false
        default: return true
        }
    }
}
