import BackendKinds
import TackCore

/// What tack checks of an aqua tool's lock beyond an install: `tack lock --verify` (each
/// locked platform's download fetched again, its signatures checked again), `--offline` (the
/// kept keyless signatures), and `tack mirror` (the pinned registry file, then what
/// `--verify` fetches), all from the package the entry's pinned registry describes.
struct AquaLockVerification {
    let backend: AquaBackend

    /// The package the entry's pinned registry describes, and the entry's tag.
    func lockedPackage(_ entry: LockedTool, _ request: ToolRequest) async throws(TackError) -> (AquaPackage, String) {
        let record = AquaLockRecord(entry.fields)
        let registry = try await backend.registries.load(tag: record.registry, sha256: record.registrySHA256, file: backend.registryFile(request))
        let package = try backend.package(request, in: registry)
        return (package, try backend.lockedTag(record, entry, package))
    }

    /// `tack lock --verify --offline`: each locked platform's keyless signatures, as the
    /// download cache kept them, checked again against the locked SHA-256, the (cached,
    /// pinned) registry's policy and the signer tack.lock records.
    func verifyOffline(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String])? {
        let record = AquaLockRecord(entry.fields)
        let tool = "\(entry.name) \(entry.version)"
        let package: AquaPackage, tag: String
        do { (package, tag) = try await lockedPackage(entry, request) } catch { return (0, ["\(tool): \(error.message)"]) }
        var checked = 0, problems: [String] = []
        for (key, sum) in entry.checksums.sorted(by: { $0.key < $1.key }) {
            guard let p = Platform(key: key) else { continue }
            do throws(TackError) {
                let download = try package.download(version: tag, platform: p, vars: request.options.aqua.vars)
                let (signers, _) = try await backend.verifyKeyless(download, path: AquaBackend.signaturesPath(cache, sum: sum), sum: sum, tool: "\(tool) (\(p))", cache: cache, fresh: false, offline: true)
                if let locked = record.signedBy[key], locked != signers {
                    problems.append("\(tool) (\(p)): tack.lock says \(locked) signed it, but its kept signatures are \(signers.isEmpty ? "nobody's" : signers + "'s")")
                    continue
                }
                checked += 1
            } catch {
                problems.append(error.message)
            }
        }
        return (checked, problems)
    }

    /// `tack lock --verify`: each locked platform's download fetched again (never from the
    /// cache) and compared with tack.lock's SHA-256, and its signatures — minisign, cosign
    /// bundles, attestations, provenance — fetched and checked again against the pinned
    /// registry's policy and the signer tack.lock records.
    func verify(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let record = AquaLockRecord(entry.fields)
        let tool = "\(entry.name) \(entry.version)"
        let package: AquaPackage, tag: String
        do { (package, tag) = try await lockedPackage(entry, request) } catch { return (0, ["\(tool): \(error.message)"]) }
        var checked = 0, problems: [String] = []
        for (key, locked) in entry.checksums.sorted(by: { $0.key < $1.key }) {
            guard let p = Platform(key: key) else { continue }
            do throws(TackError) {
                let download = try package.download(version: tag, platform: p, vars: request.options.aqua.vars)
                let fetched = try await backend.downloader.fetch(backend.mirrors.apply(download.url), expected: nil, tool: tool, platform: key, cache: scratch, offline: false) { _ in }
                defer { try? backend.fs.remove(fetched.path) }
                guard fetched.sum == locked.lowercased() else {
                    problems.append("\(tool) (\(p)): tack.lock says \(locked), but \(Redact.url(download.url)) now serves \(fetched.sum)")
                    continue
                }
                if let minisign = download.minisign {
                    try await backend.verifyDownload(fetched.path, sum: fetched.sum, url: download.url, signedWith: minisign, tool: "\(tool) (\(p))", cache: scratch)
                }
                let (signers, _) = try await backend.verifyKeyless(download, path: AquaBackend.signaturesPath(scratch, sum: fetched.sum), sum: fetched.sum, tool: "\(tool) (\(p))", cache: scratch, fresh: true)
                if let lockedSigners = record.signedBy[key], lockedSigners != signers {
                    problems.append("\(tool) (\(p)): tack.lock says \(lockedSigners) signed it, but its signatures now say \(signers.isEmpty ? "nobody" : signers)")
                    continue
                }
                checked += 1
            } catch {
                problems.append(error.message)
            }
        }
        return (checked, problems)
    }

    /// `tack mirror`: the pinned registry file (kept in the copy even when the download cache
    /// already holds it) and what `tack lock --verify` fetches of each platform.
    func carry(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (carried: Int, problems: [String])? {
        let record = AquaLockRecord(entry.fields)
        let custom = backend.environment["TACK_AQUA_REGISTRY"].map { !$0.isEmpty } ?? false
        if let copy = backend.copy, let tag = record.registry, tag != "local", backend.registryFile(request) == nil, !custom, ReleaseLockRecord.isTag(tag), !tag.contains("/") {
            do {
                let registry = try await backend.registries.load(tag: tag, sha256: record.registrySHA256)
                let bytes = try backend.fs.read("\(backend.cache)/aqua/registry-\(registry.tag).yaml", limit: 256 << 20)
                try copy.keep(url: AquaRegistrySource.url(tag: registry.tag), bytes: bytes)
            } catch let error as TackError {
                return (0, ["\(entry.name) \(entry.version): \(error.message)"])
            } catch {
                return (0, ["\(entry.name) \(entry.version): cannot read aqua's registry \(tag) from \(backend.cache)/aqua: \(error)"])
            }
        }
        let verified = await verify(entry, for: request, scratch: scratch, jobs: jobs)
        return (verified.checked, verified.problems)
    }

}
