/// The kinds of backend tack has, and what each one's pins, locks and installs are like: the
/// one place the rest of tack asks about a backend's nature, instead of comparing its name.
/// A new backend is a new case here (with its traits) and its implementation in Backends.
public enum BackendKind: String, CaseIterable, Sendable {
    case git, url, pip, gem, asdf, swift

    /// The kind of `name` as tack.lock records it (`git`, `url`, …); nil for one this tack
    /// does not have.
    public init?(name: String) { self.init(rawValue: name) }

    /// The manifest keys only this kind's entries may have (besides the source key). Keys
    /// of git and url also fit an entry that takes its source from the registry.
    public var ownKeys: [String] {
        switch self {
        case .git: return ["ref"] + GitOptions.keys
        case .url: return URLOptions.keys
        case .pip: return PipOptions.keys
        case .gem: return GemOptions.keys
        case .asdf: return AsdfOptions.keys
        case .swift: return SwiftOptions.keys
        }
    }

    /// Whether a registry entry may be of this kind, so its keys fit a short-name pin.
    public var registryMayName: Bool { self == .git || self == .url }

    /// The round its installs go in, each with what the earlier ones installed on PATH:
    /// downloads (a pinned swift among them) first, then builds with that swift, then tools
    /// that run a pinned interpreter (python, ruby), which may itself be a build.
    public var installRound: Int {
        switch self {
        case .git: return 1
        case .pip, .gem: return 2
        case .url, .asdf, .swift: return 0
        }
    }

    /// Its installs are builds made here, which the team cache may hold.
    public var builds: Bool { self == .git || self == .asdf }

    /// Its installs are built with the Swift toolchain on PATH (built again when the pinned
    /// toolchain changes), unless the entry gives its own `build:` command.
    public var buildsWithSwift: Bool { self == .git }

    /// Its lock entries record each platform's download checksum (`sha256:`), which `--frozen`
    /// needs before it installs, and which the manifest's `checksum:` must agree with.
    public var checksumsPerPlatform: Bool { self == .url }

    /// A `ref:` pin of this kind records the ref it follows in tack.lock.
    public var locksRefs: Bool { self == .git }
}

extension ToolSource {
    /// The kind of backend this source names; nil for a short name the registry resolves.
    public var kind: BackendKind? { BackendKind(name: backend) }
}

extension LockedTool {
    /// The kind of backend the entry was locked with; nil for one this tack does not have.
    public var kind: BackendKind? { BackendKind(name: backend) }
}
