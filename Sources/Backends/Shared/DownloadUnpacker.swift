import Archive
import TackCore

/// A verified download made into an install: an archive extracted safely into `files/` and
/// its executables linked into `bin/` (a Swift artifact bundle's variant for this machine),
/// or a bare program copied into `bin/`. What the url and release backends do once the
/// download's checksum holds.
struct DownloadUnpacker {
    let fs: any FileSystem
    let platform: Platform
    let limits: SafeExtractor.Limits

    /// The install's binaries (`bin/NAME`) and what extraction noted, from a download whose
    /// checksum and format (`DownloadFormat.checkFormat`) were checked. `bins`: the manifest's
    /// `bin:` (rendered); without it, the one executable named after the tool.
    /// `archive`: whether the download is an archive, where its name does not say (aqua's `format`).
    func install(_ file: String, url: String, bins: [String], job: InstallJob, tool: String, archive: Bool? = nil) throws(TackError) -> (binaries: [String], notes: [String]) {
        job.report(.extracting)
        guard archive ?? DownloadFormat.isArchive(url) else {
            let name = bins.first.map { BinSpec.split($0).name } ?? job.locked.name
            guard ToolName.isValidBinaryName(name) else { throw TackError("`\(name)` is not a valid binary name") }
            try fs.makeDirectory(job.directory + "/bin")
            try fs.copyReplacing(file, to: job.directory + "/bin/" + name)
            do { try fs.makeExecutable(job.directory + "/bin/" + name) } catch { throw TackError("cannot make bin/\(name) executable: \(error)") }
            return (["bin/" + name], [])
        }
        let files = job.directory + "/files"
        try fs.makeDirectory(files)
        let notes: [String]
        do {
            notes = ExtractionNotes.of(try SafeExtractor.extract(file, into: files, limits: limits), tool: tool)
        } catch {
            throw TackError("\(url) \(DownloadFormat.describeBadArchive(file)): \(error.message) — nothing was installed")
        }
        let binaries = DownloadFormat.isArtifactBundle(url)
            ? try linkBundle(bins, job: job, files: files, tool: tool)
            : try linkBinaries(bins, job: job, files: files, tool: tool)
        return (binaries, notes)
    }

    /// A single compressed program (`.gz`, `.bz2`, `.xz`, `.zst`) decompressed into `bin/NAME`,
    /// which must then be a program (ELF, Mach-O or a script).
    func installCompressed(_ file: String, name: String, job: InstallJob, tool: String) throws(TackError) -> [String] {
        guard ToolName.isValidBinaryName(name) else { throw TackError("`\(name)` is not a valid binary name") }
        job.report(.extracting)
        try fs.makeDirectory(job.directory + "/bin")
        let program = job.directory + "/bin/" + name
        do { try SafeExtractor.decompress(file, to: program, limits: limits) } catch {
            throw TackError("the download of \(tool) cannot be decompressed: \(error.message) — nothing was installed")
        }
        guard DownloadFormat.isExecutableFormat(DownloadFormat.head(program, count: 4)) else {
            throw TackError("the download of \(tool) decompresses to a file that is not a program (ELF, Mach-O or a `#!` script) — nothing was installed")
        }
        return ["bin/" + name]
    }

    /// `bin/<name>` links to the archive's executables named by `bin:`, or to the one
    /// executable named after the tool.
    func linkBinaries(_ bins: [String], job: InstallJob, files: String, tool: String) throws(TackError) -> [String] {
        var paths = bins
        if paths.isEmpty {
            let found = fs.walk(files).filter {
                Paths.basename($0) == job.locked.name && fs.isExecutable(files + "/" + $0)
            }.sorted { $0.count < $1.count }
            guard let first = found.first else {
                throw TackError("the archive of \(tool) has no executable named \(job.locked.name); name its binaries with `bin:`")
            }
            paths = [first]
        }
        try fs.makeDirectory(job.directory + "/bin")
        var out: [String] = []
        for spec in paths {
            let (path, name) = BinSpec.split(spec)
            guard BinSpec.isSafeRelativePath(path) else { throw TackError("`bin: \(path)` of \(job.locked.name) must be a path inside the archive") }
            guard ToolName.isValidBinaryName(name) else { throw TackError("`\(name)` (in `bin: \(spec)`) is not a valid command name") }
            out.append(try InstallLinks.link(name, to: path, directory: job.directory, files: files, fs: fs,
                                             missing: "the archive of \(tool) has no executable \(path) (named by `bin:`)"))
        }
        return out
    }

    /// `bin/<artifact>` for each executable artifact of the bundle (or those `bin:` names,
    /// `ARTIFACT=COMMAND` to rename), linked to its variant for this machine.
    func linkBundle(_ bins: [String], job: InstallJob, files: String, tool: String) throws(TackError) -> [String] {
        let found = try ArtifactBundle.find(in: files, fs: fs, tool: tool)
        let executables = found.bundle.executables
        guard !executables.isEmpty else { throw TackError("the artifact bundle of \(tool) has no executable artifact — nothing was installed") }
        let chosen = bins.isEmpty ? executables.map { ($0.name, $0.name) } : bins.map { BinSpec.split($0) }
        let paths: [(command: String, path: String)]
        switch try found.bundle.variantPaths(chosen.map { (artifact: $0.0, command: $0.1) }, root: found.root, for: platform, tool: tool) {
        case .success(let p): paths = p
        case .failure(let none):
            throw TackError("the artifact bundle of \(tool) has no \(none.artifact) for \(platform) (\(ArtifactBundle.triple(of: platform))); it has \(none.triples.isEmpty ? "no variants" : none.triples.joined(separator: ", ")) — nothing was installed")
        }
        try fs.makeDirectory(job.directory + "/bin")
        var out: [String] = []
        for (command, path) in paths {
            out.append(try InstallLinks.link(command, to: path, directory: job.directory, files: files, fs: fs,
                                             missing: "the artifact bundle of \(tool) names \(path) for \(command), but it is not an executable in the bundle — nothing was installed"))
        }
        return out
    }
}
