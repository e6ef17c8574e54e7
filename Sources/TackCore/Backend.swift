/// Something an install saw for the first time that a lock records: what (`the checksum of its
/// linux-x86_64 download`) and its value.
public struct Learned: Sendable, Equatable {
    public var what: String
    public var value: String
    public init(_ what: String, _ value: String) {
        self.what = what
        self.value = value
    }
}

/// One version a backend can install, with what the lock must record to install it again
/// exactly (a tag and its commit, checksums).
public struct AvailableVersion: Sendable, Equatable {
    public var version: Version
    public var fields: [String: LockValue]
    /// The long-term-support line this release belongs to (node's `Iron`), where the version
    /// index says; what `lts/*` and `lts/<codename>` select by. Not recorded in the lock.
    public var lts: String?
    public init(version: Version, fields: [String: LockValue] = [:], lts: String? = nil) {
        self.version = version
        self.fields = fields
        self.lts = lts
    }
}

/// What a backend is asked to do: fill `directory` (a fresh temporary directory that becomes
/// the install when complete) with the tool described by `locked`.
public struct InstallJob: Sendable {
    public var request: ToolRequest
    /// TACK_OFFLINE: use only what is cached.
    public var offline = false
    /// --frozen: the lock will not be written, so nothing new can be recorded in it.
    public var frozen = false
    public var locked: LockedTool
    public var directory: String
    /// Where `directory` is renamed to when the install completes (for what must name its
    /// final place: a virtualenv's script shebangs, a wrapper's paths).
    public var destination: String
    /// A scratch directory for sources and builds, removed afterwards.
    public var scratch: String
    public var cache: String
    public var report: @Sendable (InstallPhase) -> Void

    public init(request: ToolRequest, locked: LockedTool, directory: String, scratch: String, cache: String, report: @escaping @Sendable (InstallPhase) -> Void) {
        self.request = request
        self.locked = locked
        self.directory = directory
        self.destination = directory
        self.scratch = scratch
        self.cache = cache
        self.report = report
    }
}

public enum InstallPhase: Sendable, Equatable {
    /// SwiftPM's progress in one line of its output: `[12/345]`, or nil.
    public static func swiftBuildStep(_ line: String) -> String? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let inside = line[line.index(after: line.startIndex)..<close]
        let parts = inside.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 && $0.allSatisfy({ $0 >= "0" && $0 <= "9" }) }) else { return nil }
        return "[\(inside)]"
    }

    case waiting
    case fetching
    case building
    /// SwiftPM's `[n/m]` while it builds (`Compiling…`, `Linking…`).
    case buildStep(String)
    case copying
    case downloading(received: Int64, total: Int64?)
    case extracting
    case custom(String)

    public var label: String {
        switch self {
        case .waiting: return "waiting for another tack"
        case .fetching: return "fetching"
        case .building: return "building"
        case .buildStep(let step): return "building \(step)"
        case .copying: return "copying"
        case .extracting: return "extracting"
        case .downloading(let r, let t):
            if let t, t > 0 { return "downloading \(formatSize(Int(r))) of \(formatSize(Int(t)))" }
            return "downloading \(formatSize(Int(r)))"
        case .custom(let s): return s
        }
    }
}

/// What an install produced, beyond the files: recorded in the install's metadata.
public struct InstallOutcome: Sendable, Equatable {
    /// Executables, relative to the install directory (`bin/ink-cli`).
    public var binaries: [String]
    /// Facts about this machine's build (the Swift toolchain a tool was built with).
    public var metadata: [String: String]
    /// What the lock should learn (a checksum first seen on this platform), merged into the
    /// lock entry after the install.
    public var lockFields: [String: LockValue]
    /// Things the user should know (a setuid bit removed).
    public var notes: [String]
    /// What this install saw first and the lock should learn, for the user (the checksum of
    /// its linux-x86_64 download, and its value): said as recorded in tack.lock only where the
    /// lock is written.
    public var learned: [Learned] = []
    /// Why this build must not go to the team cache (its source tree changed while it was
    /// built), or nil.
    public var unshareable: String?
    public init(binaries: [String], metadata: [String: String] = [:], lockFields: [String: LockValue] = [:], notes: [String] = [], unshareable: String? = nil) {
        self.binaries = binaries
        self.metadata = metadata
        self.lockFields = lockFields
        self.notes = notes
        self.unshareable = unshareable
    }
}

/// A way of getting tools: list versions, install one version, say what goes in the lock.
/// Adding a backend is one type conforming to this and one line in the registry.
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
}

extension Backend {
    public func source(of request: ToolRequest) -> String { request.source.identity ?? "" }
    public func checkPin(_ locked: LockedTool, for request: ToolRequest, scratch: String) async throws(TackError) {}
    public func buildInputs(_ request: ToolRequest, _ locked: LockedTool, destination: String, built: [String: String]?) async throws(TackError) -> [String: String]? { nil }
    public func completeLock(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform], jobs: Int) async throws(TackError) -> [String: LockValue] { [:] }
    public func verifyLock(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) { (0, []) }
    public func available(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        var all = request
        all.requirement = .latest
        return try await versions(of: all)
    }

    public func resolve(ref: String, of request: ToolRequest) async throws(TackError) -> AvailableVersion {
        throw TackError("\(request.name) comes from the \(name) backend, which has no refs; `ref:` pins are for git tools (set by \(request.origin.describe(home: nil)))")
    }
}

/// Versions for `ref:` pins, as Go does for commits: `0.0.0-ref.<first 12 of the SHA>`. They
/// name the commit, sort below every release, and are valid store directory names.
public enum RefVersion {
    public static func version(commit: String) -> Version {
        Version("0.0.0-ref." + commit.prefix(12))!
    }
}

/// Maps a request's source to the backend that handles it.
public struct BackendRegistry: Sendable {
    public var backends: [String: any Backend]
    public init(_ backends: [any Backend]) {
        self.backends = Dictionary(uniqueKeysWithValues: backends.map { ($0.name, $0) })
    }

    public func backend(for request: ToolRequest) throws(TackError) -> any Backend {
        if case .registry = request.source {
            throw TackError("\(request.name) has no source, and the built-in registry does not know it yet (set by \(request.origin.describe(home: nil))) — give it one, like `\(request.name): { git: https://github.com/OWNER/REPO.git, version: \(request.requirement) }`")
        }
        guard let b = backends[request.source.backend] else {
            throw TackError("\(request.name) uses the \(request.source.backend) backend, which this tack does not have yet (set by \(request.origin.describe(home: nil)))")
        }
        return b
    }
}
