/// The layout of `$TACK_HOME`. Every path built here comes from a validated tool name and a
/// parsed version, so none can leave the store.
public struct Store: Sendable {
    public let root: String
    public let fs: any FileSystem

    public init(root: String, fs: any FileSystem) {
        self.root = root
        self.fs = fs
    }

    public var installs: String { root + "/installs" }
    public var shims: String { root + "/shims" }
    public var cache: String { root + "/cache" }
    public var state: String { root + "/state" }

    public func toolDirectory(_ name: String) -> String {
        precondition(ToolName.isValid(name), "tool names are validated where they enter")
        return installs + "/" + name
    }

    public func installDirectory(_ name: String, _ version: Version) -> String {
        toolDirectory(name) + "/" + version.text
    }

    /// Installed versions of a tool, oldest first. Temporary directories (starting with `.`)
    /// of installs in progress are never listed.
    public func installedVersions(_ name: String) -> [Version] {
        guard let names = try? fs.list(toolDirectory(name)) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.compactMap { n in
            Version(word: n).flatMap { $0.text == n && fs.isDirectory(toolDirectory(name) + "/" + n) ? $0 : nil }
        }.sorted()
    }
}

extension Store {
    /// The lock entry an install was made from, with its binaries and build facts: nil unless
    /// the install is complete (its record is written last).
    public func installedEntry(_ name: String, _ version: Version) -> LockedTool? {
        let path = installDirectory(name, version) + "/" + Installer.metadataFile
        return (try? Lockfile.load(path, fs: fs))?.tools[name]
    }

    /// The project roots tack has installed for (`state/projects`), for `prune` and `doctor`.
    public func knownProjects() -> [String] { projectsFile.lines() }

    /// `state/projects`, one project root a line.
    public var projectsFile: StateFile { StateFile(state + "/projects", fs: fs) }

    /// Every complete install of a tool, oldest first.
    public func installedEntries(_ name: String) -> [LockedTool] {
        installedVersions(name).compactMap { installedEntry(name, $0) }
    }

    /// Installs built with a Swift toolchain other than `toolchain` (`Swift version 6.3.1 (…)`).
    public func staleBuilds(toolchain: String) -> [LockedTool] {
        installedTools().flatMap { installedEntries($0) }.filter { entry in
            if case .map(let built)? = entry.fields["built"], let swift = built["swift"] { return swift != toolchain }
            return false
        }
    }

    /// Every tool with at least one version directory.
    public func installedTools() -> [String] {
        ((try? fs.list(installs)) ?? []).filter(ToolName.isValid)
    }
}

