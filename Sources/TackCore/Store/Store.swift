/// The layout of `$TACK_HOME`. Every path built here comes from a validated tool name and a
/// parsed version, so none can leave the store.
public struct Store: Sendable {
    /// An install's record, the file written last into its directory: what was installed
    /// there and from what (see InstallRecord).
    public static let installRecordFile = ".tack-install.lock"

    public let root: String
    public let fs: any FileSystem
    /// The kinds of backend whose install records it reads.
    public let backends: BackendCatalog

    public init(root: String, fs: any FileSystem, backends: BackendCatalog) {
        self.root = root
        self.fs = fs
        self.backends = backends
        installs = Paths.child(root, "installs")
    }

    /// Made once: a resolution asks for a path under it a dozen times for every pinned tool.
    public let installs: String
    public var shims: String { root + "/shims" }
    public var cache: String { root + "/cache" }
    public var state: String { root + "/state" }

    public func toolDirectory(_ name: String) -> String {
        precondition(ToolName.isValid(name), "tool names are validated where they enter")
        return Paths.child(installs, name)
    }

    public func installDirectory(_ name: String, _ version: Version) -> String {
        Paths.child(toolDirectory(name), version.text)
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
        let path = installDirectory(name, version) + "/" + Store.installRecordFile
        return (try? Lockfile.load(path, fs: fs, backends: backends))?.tools[name]
    }

    /// The project roots tack has installed for (`state/projects`), for `prune` and `doctor`.
    public func knownProjects() -> [String] { projectsFile.lines() }

    /// `state/projects`, one project root a line.
    public var projectsFile: StateFile { StateFile(state + "/projects", fs: fs) }

    /// Remembers a project root, so `tack prune` keeps what it pins: by every command that
    /// installs for it, and wherever tack finds it up to date (a project whose tools other
    /// projects installed never installs anything itself). Written only when it is new.
    public func rememberProject(_ root: String) {
        guard StateFile.isStorable(root), !projectsFile.lines().contains(root) else { return }
        try? projectsFile.update { (lines) throws(TackError) in
            (lines.contains(root) ? lines : (lines + [root]).sorted(), ())
        }
    }

    /// Where other builds of one version live when the version's own directory holds another
    /// build (a fork's tag, other `bin:`): `installs/TOOL/.variants/VERSION/ID/`, side by side,
    /// so two projects that pin really different builds never evict each other's.
    public func variantsDirectory(_ name: String, _ version: Version) -> String {
        variantsRoot(name) + "/" + version.text
    }

    /// `installs/TOOL/.variants`, holding every version's variants; most tools have none.
    public func variantsRoot(_ name: String) -> String {
        toolDirectory(name) + "/.variants"
    }

    /// Every complete install of one version, with its record: the version's directory first,
    /// then its variants.
    public func installs(_ name: String, _ version: Version) -> [(directory: String, record: LockedTool)] {
        var out: [(directory: String, record: LockedTool)] = []
        if let record = installedEntry(name, version) { out.append((installDirectory(name, version), record)) }
        // `.variants` listed first: missing, it says at one look that no version has any (what
        // a snapshot then keys, `Snapshot.make`).
        guard ((try? fs.list(variantsRoot(name))) ?? []).contains(version.text) else { return out }
        let variants = variantsDirectory(name, version)
        for id in ((try? fs.list(variants)) ?? []).sorted() where !id.hasPrefix(".") {
            let dir = variants + "/" + id
            if let record = (try? Lockfile.load(dir + "/" + Store.installRecordFile, fs: fs, backends: backends))?.tools[name], record.version == version {
                out.append((dir, record))
            }
        }
        return out
    }

    /// The directory of the install that is `entry`'s build (the install identity rule), or nil.
    public func installDirectory(for entry: LockedTool) -> String? {
        installs(entry.name, entry.version).first { entry.isSameInstall(as: $0.record) }?.directory
    }

    /// Where a new install of `entry` goes: the install that holds this very build (a rebuild
    /// replaces it; one build is never kept twice), else the version's directory when it is
    /// free, else a new variant.
    public func installTarget(for entry: LockedTool) -> String {
        if let existing = installDirectory(for: entry) { return existing }
        let primary = installDirectory(entry.name, entry.version)
        guard installedEntry(entry.name, entry.version) != nil else { return primary }
        return variantsDirectory(entry.name, entry.version) + "/" + Self.variantID(entry)
    }

    /// A variant's directory name: a hash of what makes the build what it is.
    static func variantID(_ entry: LockedTool) -> String {
        var text = "\(entry.backend)\n\(entry.source)\n"
        for (k, v) in entry.options.sorted(by: { $0.key < $1.key }) where !LockedTool.addOnOptions.contains(k) { text += "\(k)=\(v)\n" }
        for key in LockedTool.identityValues { if case .string(let v)? = entry.fields[key] { text += "\(key)=\(v.lowercased())\n" } }
        for key in LockedTool.identityMaps {
            guard case .map(let m)? = entry.fields[key] else { continue }
            for (k, v) in m.sorted(by: { $0.key < $1.key }) { text += "\(key).\(k)=\(v.lowercased())\n" }
        }
        return FNV1a.hex(text)
    }

    /// Every complete install of a tool, variants included, oldest version first.
    public func installedEntries(_ name: String) -> [LockedTool] {
        installedVersions(name).flatMap { installs(name, $0).map({ $0.record }) }
    }

    /// Installs built with a Swift toolchain other than `toolchain` (`Swift version 6.3.1 (…)`).
    public func staleBuilds(toolchain: String) -> [LockedTool] {
        installedTools().flatMap { installedEntries($0) }.filter { entry in
            if let swift = entry.builtWithSwift { return swift != toolchain }
            return false
        }
    }

    /// Every tool with at least one version directory.
    /// The tools installed here: directories of `installs/`, never a link out of the store
    /// (nothing tack lists, runs or removes is reached through one).
    public func installedTools() -> [String] {
        ((try? fs.list(installs)) ?? []).filter { ToolName.isValid($0) && fs.linkTarget(installs + "/" + $0) == nil }
    }
}

