import BackendKinds
import TackCore

/// Locking a pip tool for platforms other than this one: uv resolves for each
/// (`uv pip compile --python-platform`), every version already locked held, and the sets are
/// merged into one entry (one version of each distribution on every platform).
struct PipPlatformLocking {
    let backend: PipBackend

    /// `tack lock` for platforms the entry does not cover yet: each resolved by uv for that
    /// platform, keeping every version already locked (one version of each distribution on
    /// every platform), and recorded with its wheels' hashes and what it installs.
    func complete(_ entry: LockedTool, for request: ToolRequest, cache: String, platforms: [Platform]) async throws(TackError) -> [String: LockValue] {
        var selection = PlatformSelection(entry)
        var everything = try PipLockRecord(entry.fields).distributions(of: "\(entry.name) \(entry.version)")
        // Without uv, pip resolves only by installing: this platform's set is recorded by the
        // install, as before (uv, which bootstrap and most setups have, records it here).
        let missing = selection.missing(platforms, recordsArtifacts: !everything.isEmpty || backend.programs.locate("uv") == nil)
        guard !missing.isEmpty else { return [:] }
        let tool = "\(entry.name) \(entry.version)"
        let scratch = try lockScratchDirectory(in: cache)
        defer { try? backend.fs.remove(scratch) }
        for platform in missing {
            let resolved = try await resolve(request, version: entry.version, for: platform, constraints: everything, scratch: scratch)
            everything = try PipPin.merge(everything, resolved, tool: tool, platform: platform)
            selection.set(resolved.map(\.name), for: platform)
        }
        return PackageSet.lockFields(PipLockRecord(everything).fields, selection: selection)
    }

    /// The distributions `request` at `version` installs on `platform`, with their hashes, as
    /// uv resolves them for that platform (`--python-platform`, and this interpreter's Python
    /// version), every distribution in `constraints` held to its locked version.
    func resolve(_ request: ToolRequest, version: Version, for platform: Platform, constraints: [PipPin], scratch: String) async throws(TackError) -> [PipPin] {
        let tool = "\(request.name) \(version)"
        guard let uv = backend.programs.locate("uv") else {
            throw TackError("locking \(tool) for \(platform) needs uv on PATH: pip resolves only for the machine it runs on, uv for any (`uv pip compile --python-platform`) — install uv (https://docs.astral.sh/uv/); nothing was changed")
        }
        let python = try await backend.programs.interpreter(request)
        let pythonVersion = python.version.split(separator: ".").prefix(2).joined(separator: ".")
        // Files of their own: uv takes an existing output file's pins (and hashes) as given.
        let input = scratch + "/\(platform).in", held = scratch + "/\(platform)-constraints.txt", output = scratch + "/\(platform).txt"
        try? backend.fs.remove(output)
        try backend.write(input, backend.wanted(request, version) + "\n")
        try backend.write(held, constraints.map { "\($0.name)==\($0.version)\n" }.joined())
        var args = ["pip", "compile", "--quiet", "--generate-hashes", "--no-header", "--no-annotate",
                    "--python", python.path, "--python-platform", PipPlatforms.uvTarget(platform), "--python-version", pythonVersion]
        args += backend.sources(request) + ["--constraint", held, input, "-o", output]
        let out: ProcessOutput
        do { out = try await backend.runner.run(uv, args, directory: scratch, environment: backend.toolEnvironment) } catch {
            throw TackError("cannot run uv to resolve \(tool) for \(platform): \(error.message)")
        }
        guard out.status == 0 else { throw await backend.existence(request, version) ?? PipPlatforms.resolutionFailure(out, tool: tool, platform: platform, python: pythonVersion) }
        let pinned = PipPin.parseRequirements(backend.text(output))
        let package = backend.source(of: request)
        try PackageSet(tool: tool, noun: "distributions").requireSelected(pinned.contains { $0.name == PipName.normalize(package) }, package: package, platform: platform)
        return pinned
    }
}
