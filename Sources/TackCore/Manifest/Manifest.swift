#if !hasFeature(Embedded)
import YAML
#endif

/// A decoded tack.yml (or tack.local.yml, or the global manifest).
public struct Manifest: Sendable, Equatable {
    public struct EnvEntry: Sendable, Equatable {
        public var name: String
        public var value: String
        public var line: Int
    }
    public struct Bootstrap: Sendable, Equatable {
        public var packages: [String: [String]] = [:]
        public var run: [String] = []
    }

    public var path: String
    /// Tools in the order the file lists them.
    public var tools: [ToolRequest]
    /// Tools whose entry is a bare requirement (`swiftlint: 0.57.0`), which in tack.local.yml
    /// changes only the version of the entry it overrides.
    public var bareEntries: Set<String>
    public var env: [EnvEntry]
    public var bootstrap: Bootstrap?
    /// The team cache this file names (`cache: oci://…` or `cache: {url:, push:, insecure:}`).
    public var cache: TeamCache?
    /// `min_release_age: 3d`: versions published more recently are not resolved to (`ReleaseAge`).
    public var minReleaseAge: AgeSetting?

    public struct AgeSetting: Sendable, Equatable {
        public var seconds: Int64
        public var text: String
        public var line: Int
    }
    /// The platforms the lock covers (`platforms: [linux-x86_64, darwin-arm64]`); empty: this one.
    public var platforms: [Platform] = []
    /// `mirrors:` (the global manifest only): URL prefixes and where to fetch them instead, in
    /// the file's order (`DownloadMirrors`).
    public var mirrors: [DownloadMirrors.Rule] = []

    public static let topLevelKeys = ["tools", "env", "bootstrap", "cache", "platforms", "min_release_age", "mirrors"]
    public static let packageManagers = ["apt", "dnf", "pacman", "apk", "brew"]

    public init(path: String, tools: [ToolRequest] = [], bareEntries: Set<String> = [], env: [EnvEntry] = [], bootstrap: Bootstrap? = nil) {
        self.path = path
        self.tools = tools
        self.bareEntries = bareEntries
        self.env = env
        self.bootstrap = bootstrap
    }

    /// Whether running this manifest's tools would apply settings that need `tack trust`.
    public var needsTrust: Bool { !env.isEmpty || !(bootstrap?.run.isEmpty ?? true) || cache != nil }

    public static func load(_ path: String, kind: Origin.Kind, fs: any FileSystem, backends: BackendCatalog) throws(TackError) -> Manifest {
        let bytes: [UInt8]
        do { bytes = try fs.read(path) } catch { throw TackError(error.description) }
        return try decode(bytes, path: path, kind: kind, backends: backends)
    }

    public static func decode(_ bytes: [UInt8], path: String, kind: Origin.Kind, backends: BackendCatalog) throws(TackError) -> Manifest {
        let root: Node?
        do { root = try YAMLParser.parse(bytes) } catch {
            throw TackError.at(path, error.mark.line, error.mark.column, error.message)
        }
        var d = ManifestDecoder(path: path, kind: kind, backends: backends)
        guard let root, !(root.isNullScalar) else {
            throw TackError.at(path, 1, 1, "the file is empty; expected `tools:` with one tool per line, for example `  swiftlint: 0.57.0`")
        }
        return try d.decode(root)
    }
}
