#if !hasFeature(Embedded)
import YAML
#endif

/// A kind of backend, as the rest of tack knows it: the manifest keys that name its source and
/// its options, what its pins, locks and installs are like, and what `tack sbom`, `tack doctor`
/// and trust say of its tools. Each backend's folder under `Sources/Backends` has one (`GitKind`,
/// `PipKind`, …), listed in `BackendCatalog.standard`; TackCore asks only this protocol, so it
/// names no backend. Foundation-free: the static `tack-front` reads manifests with it.
public protocol BackendKind: AnyObject, Sendable {
    /// tack.lock's `backend:`, and the `Backend.name` of its implementation.
    var name: String { get }
    /// The manifest keys that name a source of this kind (`git`, `github`).
    var sourceKeys: [String] { get }
    /// Reads one of `sourceKeys` into the source's identity (a URL, a package name), through
    /// `reader`'s checks and messages.
    func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String
    /// Its tools' options (`OptionSetReader(GitOptions.self)`, …), whose keys a mapping may
    /// have beside its source.
    var options: OptionSetReader { get }
    /// Keys of this kind besides its options' (git's `ref`): refused in another kind's entry.
    var otherOwnKeys: [String] { get }
    /// A source key of another kind that, beside this kind's source, is one of its options
    /// (git's `artifactbundle`): the option it sets from that source's identity.
    func companion(_ key: String, identity: String, into options: inout ToolOptions) -> Bool

    /// Whether an entry that takes its source from the registry may be of this kind, so its
    /// keys fit a short-name pin (`registryName` fits only the tool of that name).
    var registryMayName: Bool { get }
    var registryName: String? { get }
    /// The round its installs go in (0–2), each with what the earlier ones installed on PATH:
    /// downloads (a pinned toolchain among them) first, then builds with that toolchain, then
    /// tools that run a pinned interpreter (python, ruby), which may itself be a build.
    var installRound: Int { get }
    /// Its installs are builds made here, which the team cache may hold.
    var builds: Bool { get }
    /// Whether `request`'s install is built with the Swift toolchain on PATH (built again when
    /// the pinned toolchain changes).
    func buildsWithSwift(_ request: ToolRequest) -> Bool
    /// Its lock entries record each platform's download checksum (`sha256:`), which `--frozen`
    /// needs before it installs, and which the manifest's `checksum:` must agree with.
    var checksumsPerPlatform: Bool { get }
    /// A `ref:` pin of this kind records the ref it follows in tack.lock.
    var locksRefs: Bool { get }
    /// It is the Swift toolchain, which builds use and whose SDKs install beside it.
    var isSwiftToolchain: Bool { get }

    /// The fields its tack.lock entries and install records may have, besides those every kind
    /// writes (an unknown key makes tack.lock unreadable).
    var lockFields: [String] { get }
    /// Paths in an install whose coming or going decides whether the install is due (a
    /// toolchain's SDK directory): the snapshot watches them.
    func watchedPaths(install: String) -> [String]
    /// Why installing `request` would run code its manifest chose (a `build:` command, a
    /// plugin's scripts, an interpreter), in words; nil when it runs none.
    func runsChosenCode(_ request: ToolRequest) -> String?
    /// Whether `request` runs only the code a registry's `entry` of the same source runs (so
    /// it needs no trust, as the registry's own pin would not): by default, when both say the
    /// same of it.
    func runsSameCode(_ request: ToolRequest, as entry: ToolRequest) -> Bool
    /// How an entry of this kind (locked from `request`) is verified.
    func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification
    /// The ref (branch, tag or commit) a `ref:` pin's entry follows, as tack.lock records it.
    func lockedRef(_ entry: LockedTool) -> String?
    /// The exact revision an entry pins besides its version (a git commit), as people read it.
    func revision(_ entry: LockedTool) -> String?
    /// Revisions an install of the entry keeps in `$TACK_HOME/cache` (an asdf plugin's
    /// commit): `tack prune` keeps the cached copies they name.
    func cachedRevisions(_ entry: LockedTool) -> [String]
    /// The entries of the kind's own cache folders that no install uses (`use`), as paths:
    /// what `tack prune` removes from `$TACK_HOME/cache`.
    func unusedCache(_ store: Store, use: CacheUse) -> [String]
    /// Fills in what `tack sbom` says of an entry of this kind: package URL, hashes, location,
    /// parts. `component` comes with the entry's name, version, source and verification.
    func describe(_ entry: LockedTool, in component: inout BillOfMaterials.Component)
}

extension BackendKind {
    public var otherOwnKeys: [String] { [] }
    public func companion(_ key: String, identity: String, into options: inout ToolOptions) -> Bool { false }
    public var registryMayName: Bool { false }
    public var registryName: String? { nil }
    public var installRound: Int { 0 }
    public var builds: Bool { false }
    public func buildsWithSwift(_ request: ToolRequest) -> Bool { false }
    public var checksumsPerPlatform: Bool { false }
    public var locksRefs: Bool { false }
    public var isSwiftToolchain: Bool { false }
    public var lockFields: [String] { [] }
    public func watchedPaths(install: String) -> [String] { [] }
    public func lockedRef(_ entry: LockedTool) -> String? { nil }
    public func revision(_ entry: LockedTool) -> String? { nil }
    public func cachedRevisions(_ entry: LockedTool) -> [String] { [] }
    public func unusedCache(_ store: Store, use: CacheUse) -> [String] { [] }
    public func runsChosenCode(_ request: ToolRequest) -> String? { nil }
    public func runsSameCode(_ request: ToolRequest, as entry: ToolRequest) -> Bool {
        runsChosenCode(request) == runsChosenCode(entry)
    }
    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification { .recorded }
    public func describe(_ entry: LockedTool, in component: inout BillOfMaterials.Component) {
        component.location = entry.source
    }

    /// The manifest keys only this kind's entries may have (besides its source keys).
    public var ownKeys: [String] { otherOwnKeys + options.keys }

    /// Whether `name`'s entry, whose source is `source`, may have this kind's own keys: its
    /// own kind's, or a short name's the registry may give this kind.
    func fits(_ source: ToolSource, tool name: String) -> Bool {
        if let kind = source.kind { return kind.name == self.name }
        return registryMayName || registryName == name
    }
}
