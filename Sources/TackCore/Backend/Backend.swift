/// A way of getting tools: list versions, install one version, say what goes in the lock.
/// Each backend folder has one, which its kind makes (`BackendMaking`); ARCHITECTURE.md, "Adding
/// a backend", has the whole recipe.
public protocol Backend: Sendable {
    /// The name recorded in tack.lock (`git`, `url`, ...).
    var name: String { get }
    /// The identity of the request's source, as tack.lock records it (by default the
    /// identity the manifest's source gives: the URL, the package, the plugin).
    func source(of request: ToolRequest) -> String
    /// The versions resolution may choose from for this request, with what the lock records
    /// for each (an exact url pin needs no index: just its version).
    func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion]
    /// Every version that exists, whatever the request pins (`ls-remote`, `outdated`).
    func available(of request: ToolRequest) async throws(TackError) -> [AvailableVersion]
    /// Installs `job.locked` into `job.directory`, verifying what the lock records.
    func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome
    /// The commit a `ref:` pin (branch, tag or commit) names now, as a version to lock.
    func resolve(ref: String, of request: ToolRequest) async throws(TackError) -> AvailableVersion
    /// What `tack lock` adds to an entry without installing it (a url tool's checksum for each
    /// of `platforms`, from downloads into `cache`, at most `jobs` at once): the fields to
    /// merge, empty when nothing is missing.
    func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue]
    /// `tack lock --verify`: every platform's download the entry has a checksum for, fetched
    /// again (into `scratch`, never from the download cache) and compared; how many were
    /// checked, and each mismatch or failure.
    func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String])
    /// `tack lock --verify --offline`: what the download cache (`cache`) kept of the entry's
    /// platforms — downloads, signatures, bundles — checked again with no network; nil when
    /// this backend keeps nothing it could check.
    func verifyLockOffline(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String])?
    /// `tack mirror`: fetches everything installing `entry` needs on each platform it covers
    /// (downloads, signatures, bundles, registry files, repositories, distributions) through
    /// this backend's HTTP client and remotes — which keep what they fetch in the copy being
    /// made — and checks it against the lock as `verifyLock` does: how many artifacts were
    /// carried, and each problem. Nil when this backend's tools cannot be carried.
    func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])?
    /// What a build of `locked` depends on, for the team cache's key (source, commit, products
    /// or build command, `bin:`, the toolchain), or nil when this backend's installs are not
    /// builds (downloads are verified by checksum instead). `built` is an install's record of
    /// how it was built (for pushing an existing install); nil asks about a build made now.
    func buildInputs(_ request: ToolRequest, _ locked: LockedTool, destination: String, built: [String: String]?) async throws(TackError) -> [String: String]?
    /// Checks what `locked` chooses against the pin's source (a tag's commit, a plugin commit a
    /// release reaches), fetching into `scratch` if it must: what the installer asks before the
    /// team cache, which would otherwise install whatever the lock names. `install` makes the
    /// same checks itself.
    func checkPin(_ locked: LockedTool, for request: ToolRequest, scratch: String) async throws(TackError)
    /// A build pulled from the team cache into `job.directory`, made where its record says
    /// (`built`), moved to where `job.destination` is: what a relocatable build must change
    /// (paths in its scripts). Backends whose builds name no path do nothing.
    func relocate(_ job: InstallJob, built: [String: String]) throws(TackError)
    /// Whether the complete install at `install` lacks an add-on `locked` pins beside the
    /// build (a toolchain's Swift SDKs); cheap: no download, no process.
    func lacksAddOns(_ locked: LockedTool, install: String) -> Bool
    /// Adds what `lacksAddOns` found missing to the complete install at `job.directory`
    /// (`job.scratch` for downloads): what the lock learns and the user should know. The
    /// installer calls it under the install's lock, after a build and when the install was
    /// already there.
    func installAddOns(_ job: InstallJob) async throws(TackError) -> InstallOutcome
    /// `versions` with when each was published, where the source says it apart from its
    /// listing (PyPI's JSON API, rubygems.org's): asked only where `min_release_age` is in
    /// force, so a plain resolution never fetches it. By default, `versions` as they are.
    func published(_ versions: [AvailableVersion], of request: ToolRequest) async -> [AvailableVersion]
    /// What the backend's catalog of tools (aqua's registry) says `name` is, or nil when it
    /// has no catalog or knows no such name. By default, no catalog.
    func catalogEntry(named name: String) async throws(TackError) -> CatalogAnswer?
    /// The catalog's entries whose name or description has `word`. By default, none.
    func searchCatalog(_ word: String) async throws(TackError) -> [CatalogEntry]
}

extension Backend {
    public func source(of request: ToolRequest) -> String { request.source.identity ?? "" }
    public func catalogEntry(named name: String) async throws(TackError) -> CatalogAnswer? { nil }
    public func searchCatalog(_ word: String) async throws(TackError) -> [CatalogEntry] { [] }
    public func checkPin(_ locked: LockedTool, for request: ToolRequest, scratch: String) async throws(TackError) {}
    public func relocate(_ job: InstallJob, built: [String: String]) throws(TackError) {}
    public func lacksAddOns(_ locked: LockedTool, install: String) -> Bool { false }
    public func installAddOns(_ job: InstallJob) async throws(TackError) -> InstallOutcome { InstallOutcome(binaries: []) }
    public func published(_ versions: [AvailableVersion], of request: ToolRequest) async -> [AvailableVersion] { versions }
    public func buildInputs(_ request: ToolRequest, _ locked: LockedTool, destination: String, built: [String: String]?) async throws(TackError) -> [String: String]? { nil }
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] { [:] }
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) { (0, []) }
    public func verifyLockOffline(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String])? { nil }
    public func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? { nil }
    public func available(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        var all = request
        all.requirement = .latest
        return try await versions(of: all)
    }

    public func resolve(ref: String, of request: ToolRequest) async throws(TackError) -> AvailableVersion {
        throw TackError("\(request.name) comes from the \(name) backend, which has no refs; `ref:` pins are for git tools (set by \(request.origin.describe(home: nil)))")
    }
}

extension LockMatch {
    /// With the backend the registry chose for the pin.
    public init(_ request: ToolRequest, backend: any Backend) {
        self.init(request, backend: backend.name, source: backend.source(of: request))
    }
}
