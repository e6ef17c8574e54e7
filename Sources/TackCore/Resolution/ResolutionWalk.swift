/// The walk a resolution makes: each directory from the working directory up to `/`, then
/// the global manifest and `~/.tool-versions`, keeping the nearest pin of each tool and every
/// file it looked for (for the snapshot) or could not read (for the warnings).
struct ResolutionWalk {
    let settings: Settings
    var fs: any FileSystem { settings.fs }
    var pinned: [String: Resolution.Pin] = [:]
    var manifests: [Manifest] = []
    var probes: [(path: String, info: FileInfo?)] = []
    /// The probes that found a link leading nowhere (the walk reads it as nothing, or as an error
    /// for tack's own files).
    var brokenLinks: [String] = []
    /// Each directory read, stat'ed before any name in it was looked for, with the names
    /// looked for there where nothing was (not even a link that leads nowhere); those names
    /// are not in `probes`.
    var directories: [(path: String, info: FileInfo?, missing: [String])] = []
    var projectRoot: String?
    var firstPinningDirectory: String?
    var ignored: [IgnoredFile] = []
    /// Tools pinned only by the global manifest or `~/.tool-versions`.
    var global: Set<String> = []

    /// `Resolver.vouched`; and the names vouched for in the directory being read, now.
    var vouched: [String: (key: String, names: [String])] = [:]
    var vouchedHere: [String] = []

    /// `Settings.userToolVersions`, made once.
    let userToolVersions: String?

    init(settings: Settings) {
        self.settings = settings
        userToolVersions = settings.userToolVersions
    }

    /// One directory's pins: its compatible files, then tack.yml, then tack.local.yml, later
    /// ones overriding earlier ones; each tool not pinned nearer is pinned here.
    mutating func read(directory dir: String) throws(TackError) {
        let info = fs.info(dir)
        directories.append((dir, info, []))
        vouchedHere = []
        if let info, let record = vouched[dir], record.key == info.statKey { vouchedHere = record.names }
        var here: [String: ToolRequest] = [:]
        var order: [String] = []
        func add(_ r: ToolRequest) {
            if here[r.name] == nil { order.append(r.name) }
            here[r.name] = r
        }
        // Lowest precedence first; later files overwrite. ~/.tool-versions is asdf's
        // global default, read after the global manifest.
        for file in CompatibleFile.allCases.reversed() {
            // Vouched for: missing, without a look or even its path (the user's own
            // ~/.tool-versions, skipped below, is never recorded, so never vouched for).
            if !vouchedHere.isEmpty, vouchedHere.contains(file.rawValue) {
                directories[directories.count - 1].missing.append(file.rawValue)
                continue
            }
            let path = Paths.child(dir, file.rawValue)
            if path == userToolVersions { continue }
            if probe(path, named: file.rawValue) != nil {
                for r in readCompatible(file, path) { add(r) }
            }
        }
        let base = try manifest(Paths.child(dir, Resolver.manifestName), kind: .manifest, named: Resolver.manifestName)
        for r in base?.tools ?? [] { add(r) }
        let local = try manifest(Paths.child(dir, Resolver.localManifestName), kind: .localManifest, named: Resolver.localManifestName)
        for var r in local?.tools ?? [] {
            // A bare version in tack.local.yml changes only the version of the entry it
            // overrides; a mapping replaces the entry.
            if local?.bareEntries.contains(r.name) == true, let b = here[r.name] {
                r.source = b.source
                r.options = b.options
            }
            add(r)
        }
        if let local { manifests.append(local) }
        if let base { manifests.append(base) }
        if projectRoot == nil, base != nil || local != nil { projectRoot = dir }
        if firstPinningDirectory == nil, !order.isEmpty { firstPinningDirectory = dir }
        for name in order where pinned[name] == nil {
            if let request = here[name] { pinned[name] = .init(request: request, lockDirectory: dir, overridden: nil) }
        }
    }

    /// The global manifest, then asdf's `~/.tool-versions` below it, both locked beside the
    /// global manifest: each tool not pinned by a directory.
    mutating func readGlobal() throws(TackError) {
        vouchedHere = []
        if let path = settings.globalManifest, let m = try manifest(path, kind: .globalManifest) {
            manifests.append(m)
            for r in m.tools where pinned[r.name] == nil {
                pinned[r.name] = .init(request: r, lockDirectory: Paths.dirname(path), overridden: nil)
                global.insert(r.name)
            }
        }
        if let path = userToolVersions, probe(path) != nil {
            for r in readCompatible(.toolVersions, path) where pinned[r.name] == nil {
                pinned[r.name] = .init(request: r, lockDirectory: settings.globalManifest.map(Paths.dirname), overridden: nil)
                global.insert(r.name)
            }
        }
    }

    /// The manifest at `path`, when there is one.
    mutating func manifest(_ path: String, kind: Origin.Kind, named name: String? = nil) throws(TackError) -> Manifest? {
        guard try probeManifest(path, named: name) != nil else { return nil }
        return try Manifest.load(path, kind: kind, fs: fs, backends: settings.backends)
    }

    /// A version file's pins; a file tack cannot read pins nothing and is noted in `ignored`.
    mutating func readCompatible(_ file: CompatibleFile, _ path: String) -> [ToolRequest] {
        do {
            let reading = try file.read(path, fs: fs, backends: settings.backends)
            ignored += reading.skipped.map { IgnoredFile(path: path, problem: $0.message, pinsNothing: false) }
            return reading.pins
        } catch {
            ignored.append(IgnoredFile(path: path, problem: error.message, pinsNothing: true))
            return []
        }
    }

    /// What is at `path` (recorded), when it is a regular file. One system call where nothing
    /// is there (`FileSystem.probe`): a walk looks for nine names in every directory.
    /// `name`: the path is that name in the directory being read.
    mutating func probe(_ path: String, named name: String? = nil) -> FileInfo? {
        let found = look(path, named: name)
        record(path, found, named: name)
        return found.info?.kind == .file ? found.info : nil
    }

    /// tack's own files must be regular files: a directory, pipe, device or a link that
    /// leads nowhere in their place is an error, never "nothing pinned" (and a pipe is
    /// never opened, so it cannot hang tack).
    mutating func probeManifest(_ path: String, named name: String? = nil) throws(TackError) -> FileInfo? {
        let found = look(path, named: name)
        record(path, found, named: name)
        switch found {
        case .missing: return nil
        case .brokenLink: throw TackError("\(path) is a symbolic link that leads nowhere (a loop, or a missing target) — fix or remove it")
        case .present(let info):
            switch info.kind {
            case .file: return info
            case .directory: throw TackError("\(path) is a directory; tack reads its manifest from a file of that name — remove or rename the directory")
            case .other: throw TackError("\(path) is not a regular file (a pipe, socket or device); tack reads its manifest only from a file")
            }
        }
    }

    /// What is at `path`: missing, without a look, when it is a name the directory being read
    /// vouches for (unchanged since the last snapshot found it missing there).
    func look(_ path: String, named name: String?) -> FileProbe {
        if let name, !vouchedHere.isEmpty, vouchedHere.contains(name) { return .missing }
        return fs.probe(path)
    }

    /// What was found at `path`: nothing at a name directly in the directory being read goes
    /// with that directory (a snapshot may let the directory vouch for it), anything else in
    /// `probes` — a name in a subdirectory (`.config/mise.toml`) too, since it can appear
    /// without the directory read changing.
    mutating func record(_ path: String, _ found: FileProbe, named name: String?) {
        if found == .missing, let name, !name.utf8.contains(UInt8(ascii: "/")), !directories.isEmpty {
            directories[directories.count - 1].missing.append(name)
        } else {
            probes.append((path, found.info))
            if found == .brokenLink { brokenLinks.append(path) }
        }
    }
}
