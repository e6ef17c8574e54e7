import Archive
import Foundation
import BackendKinds
import TackCore

/// A toolchain's Swift SDKs (`swift: { version: 6.0.3, sdks: [static-linux] }`): the bundles
/// swift.org publishes with exactly that release, each checked against the checksum its
/// release list gives (or tack.lock's) and against its `.sig`, installed into the toolchain's
/// install (`swift-sdks/`). The toolchain's SwiftPM commands read that directory and no
/// other (`SwiftPMWrapper`), so `swift build --swift-sdk x86_64-swift-linux-musl` through the
/// pinned toolchain sees exactly its own SDKs, and no other toolchain sees them.
extension SwiftBackend {
    public func lacksAddOns(_ locked: LockedTool, install: String) -> Bool {
        !SwiftSDK.missing(locked, install: install, fs: fs).isEmpty
    }

    public func installAddOns(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let v = job.locked.version
        let missing = SwiftSDK.missing(job.locked, install: job.directory, fs: fs)
        guard !missing.isEmpty else { return InstallOutcome(binaries: []) }
        try Self.checkSDKsPinnable(v)
        var record = SDKLockRecord(job.locked)
        var published: [String: String]?
        var learned: [Learned] = []
        var notes: [String] = []
        for name in missing {
            guard let sdk = SwiftSDK.named(name) else { throw TackError("tack.lock pins a Swift SDK tack does not know: \(quoted(name)) (it knows \(SwiftSDK.names))") }
            let tool = Self.label(sdk, v)
            let path = try record.checkedPath(sdk, v)
            var expected = record.sha256[name]?.lowercased()
            if let e = expected, !Checksum.isSHA256(e) { throw TackError("tack.lock's checksum for \(tool) is not a SHA-256: \(quoted(e))") }
            var from = ChecksumOrigin.lock
            if expected == nil {
                if job.frozen {
                    throw TackError(.noChecksum(tool: tool, of: nil, remedy: .installOnce))
                }
                if published == nil { published = try await publishedSDKs(v) }
                expected = try Self.publishedSum(sdk, v, in: published ?? [:])
                from = .publisher(says: "swift.org's release list says")
            }
            // Installed already from that very archive (another project's pin): the lock
            // learns what the install recorded when it verified it.
            if let have = sdk.installed(release: v, install: job.directory, fs: fs), let sum = expected, Checksum.same(have.sha256, sum),
               record.signedBy[name].map({ $0.uppercased() == have.signer.uppercased() }) ?? true {
                if record.sha256[name] == nil { learned.append(Learned("the checksum and signer of its \(name) SDK", have.sha256)) }
                record.record(name, path: path, sha256: have.sha256, signer: have.signer)
                continue
            }
            let url = downloadURL + "/" + path
            let file = try await downloader.fetch(url, expected: expected.map { ($0, from) }, tool: tool, platform: "every platform", cache: job.cache, offline: job.offline, report: job.report)
            job.report(.custom("verifying"))
            let signer = try await signatures.checkSignature(file.path, url: url, tool: tool)
            if let lockedSigner = record.signedBy[name], lockedSigner.uppercased() != signer.uppercased() {
                throw TackError("\(tool) is signed by \(OpenPGP.spaced(signer)), but tack.lock says \(OpenPGP.spaced(lockedSigner)) signed it — nothing was installed")
            }
            job.report(.extracting)
            notes += try placeSDK(file.path, sdk: sdk, version: v, job: job, tool: tool)
            do { try fs.writeAtomically(sdk.record(install: job.directory), Array("\(file.sum) \(signer)\n".utf8)) } catch {
                throw TackError("cannot record the install of \(tool): \(error)")
            }
            if record.sha256[name] == nil { learned.append(Learned("the checksum and signer of its \(name) SDK", file.sum)) }
            record.record(name, path: path, sha256: file.sum, signer: signer)
        }
        // A toolchain installed before tack pinned SDKs reads them from its own directory from now on.
        try SwiftPMWrapper(fs: fs).install(toolchain: job.directory, tool: "swift \(v)")
        var outcome = InstallOutcome(binaries: [], lockFields: record.fields, notes: notes)
        outcome.learned = learned
        return outcome
    }

    /// SDKs are published with releases; a snapshot's are not in the release list.
    static func checkSDKsPinnable(_ v: Version) throws(TackError) {
        guard case .release? = SwiftToolchain.name(v) else {
            throw TackError("`sdks:` pins the Swift SDKs swift.org publishes with a release, and \(v) is not one — pin a release like 6.0.3, or install a snapshot's SDK by hand with `tack exec -- swift sdk install URL`")
        }
    }

    static func label(_ sdk: SwiftSDK, _ v: Version) -> String { "the \(sdk.name) Swift SDK of swift \(v)" }

    /// The SDKs swift.org's release list publishes with `v`, each with its SHA-256.
    func publishedSDKs(_ v: Version) async throws(TackError) -> [String: String] {
        let all = try await releaseList.releases()
        guard let release = all.first(where: { $0.version.text == v.text }) ?? all.first(where: { $0.version == v }) else {
            throw TackError("swift.org lists no Swift \(v) release — run `tack ls-remote swift` for the versions it has")
        }
        return release.sdks
    }

    /// The checksum the release list gives `sdk`, or an error naming the SDKs the release has.
    static func publishedSum(_ sdk: SwiftSDK, _ v: Version, in published: [String: String]) throws(TackError) -> String {
        if let sum = published[sdk.name] { return sum }
        let has = SwiftSDK.all.map(\.name).filter { published[$0] != nil }
        throw TackError("swift \(v) has no \(sdk.name) Swift SDK; swift.org publishes \(has.isEmpty ? "no SDK" : has.joined(separator: ", ")) with it — see `tack ls-remote swift --sdks` (nothing was installed)")
    }

    /// The bundle archive extracted into the scratch directory, checked (one top directory,
    /// the bundle's name; an `info.json` whose every artifact is a Swift SDK of this release),
    /// and renamed into the toolchain's `swift-sdks/`, replacing the one there; what the user
    /// should know of the extraction (setuid bits removed).
    func placeSDK(_ file: String, sdk: SwiftSDK, version v: Version, job: InstallJob, tool: String) throws(TackError) -> [String] {
        let tag = SwiftToolchain.releaseTag(v)
        let bundle = sdk.bundle(tag: tag)
        let unpacked = job.scratch + "/" + sdk.name
        try? fs.remove(unpacked)
        try fs.makeDirectory(unpacked)
        let notes: [String]
        do { notes = ExtractionNotes.of(try SafeExtractor.extract(file, into: unpacked, limits: limits), tool: tool) } catch {
            throw TackError("the bundle of \(tool) cannot be extracted: \(error.message) — nothing was installed")
        }
        let top = (try? fs.list(unpacked)) ?? []
        guard top == [bundle] else {
            throw TackError("the archive of \(tool) holds \(top.isEmpty ? "nothing" : top.sorted().prefix(3).joined(separator: ", ")), not the bundle \(bundle) — nothing was installed")
        }
        try Self.checkBundle(unpacked + "/" + bundle, tag: tag, tool: tool, fs: fs)
        let sdks = SwiftSDK.directory(install: job.directory)
        try fs.makeDirectory(sdks)
        let final = sdks + "/" + bundle
        let old = job.scratch + "/old-" + sdk.name
        if fs.info(final) != nil {
            do { try fs.move(final, to: old) } catch { throw TackError("cannot replace \(final): \(error)") }
        }
        do { try fs.move(unpacked + "/" + bundle, to: final) } catch { throw TackError("cannot move \(tool) into \(sdks): \(error)") }
        return notes
    }

    /// A bundle's `info.json`: schema 1.x, and every artifact a `swiftSDK` whose id begins with
    /// the release's tag (`swift-6.0.3-RELEASE_static-linux-0.0.1`): a signed SDK of another
    /// release under this one's name is refused.
    static func checkBundle(_ directory: String, tag: String, tool: String, fs: any FileSystem) throws(TackError) {
        guard let bytes = try? fs.read(directory + "/info.json"),
              let info = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw TackError("the bundle of \(tool) has no readable info.json — nothing was installed")
        }
        guard let schema = info["schemaVersion"] as? String, schema.hasPrefix("1.") else {
            throw TackError("the bundle of \(tool) has an info.json of a schema tack does not read (\(quoted("\(info["schemaVersion"] ?? "none")"))) — nothing was installed")
        }
        guard let artifacts = info["artifacts"] as? [String: Any], !artifacts.isEmpty else {
            throw TackError("the bundle of \(tool) names no artifact in its info.json — nothing was installed")
        }
        for (id, value) in artifacts.sorted(by: { $0.key < $1.key }) {
            let type = (value as? [String: Any])?["type"] as? String
            guard type == "swiftSDK", id.hasPrefix(tag + "_") else {
                throw TackError("the bundle of \(tool) holds \(quoted(id)) (\(type ?? "no type")), not a Swift SDK of \(tag) — nothing was installed")
            }
        }
    }

    // MARK: tack lock

    /// The lock fields of the SDKs `entry` pins and does not record yet: each archive
    /// downloaded into `cache`, checked against the release list's checksum and its `.sig`.
    func lockSDKs(_ entry: LockedTool, cache: String) async throws(TackError) -> [String: LockValue] {
        var record = SDKLockRecord(entry)
        let names = SwiftSDK.pinned(entry).filter { record.sha256[$0] == nil }
        guard !names.isEmpty else { return [:] }
        let v = entry.version
        try Self.checkSDKsPinnable(v)
        let published = try await publishedSDKs(v)
        for name in names {
            guard let sdk = SwiftSDK.named(name) else { continue }
            let tool = Self.label(sdk, v)
            let path = sdk.path(release: v)
            let expected = try Self.publishedSum(sdk, v, in: published)
            let url = downloadURL + "/" + path
            let file = try await downloader.fetch(url, expected: (expected, .publisher(says: "swift.org's release list says")), tool: tool, platform: "every platform", cache: cache, offline: false) { _ in }
            let signer = try await signatures.checkSignature(file.path, url: url, tool: tool)
            record.record(name, path: path, sha256: file.sum, signer: signer)
        }
        return record.fields
    }

    /// `tack lock --verify` of the SDKs the entry records: each downloaded again into
    /// `scratch`, its SHA-256 and signer compared with the lock's.
    func verifySDKs(_ entry: LockedTool, scratch: String) async -> (checked: Int, problems: [String]) {
        let record = SDKLockRecord(entry)
        var checked = 0
        var problems: [String] = []
        for name in record.sha256.keys.sorted() {
            guard let sdk = SwiftSDK.named(name) else {
                problems.append("swift \(entry.version): tack.lock records a Swift SDK tack does not know: \(quoted(name))")
                continue
            }
            let tool = Self.label(sdk, entry.version)
            let path: String
            do { path = try record.checkedPath(sdk, entry.version) } catch { problems.append(error.message); continue }
            let url = downloadURL + "/" + path
            do throws(TackError) {
                let file = try await downloader.fetch(url, expected: nil, tool: tool, platform: "every platform", cache: scratch + "/swift-sdks", offline: false) { _ in }
                defer { try? fs.remove(file.path) }
                let signer = try await signatures.checkSignature(file.path, url: url, tool: tool)
                checked += 1
                if let locked = record.sha256[name], !Checksum.same(locked, file.sum) {
                    problems.append("\(tool): tack.lock says \(locked), but \(url) now serves \(file.sum)")
                } else if let locked = record.signedBy[name], locked.uppercased() != signer.uppercased() {
                    problems.append("\(tool): signed by \(OpenPGP.spaced(signer)) now, but tack.lock says \(OpenPGP.spaced(locked))")
                }
            } catch {
                problems.append("cannot verify \(tool): \(error.message)")
            }
        }
        return (checked, problems)
    }
}

/// What tack.lock records of a toolchain's SDKs, each a map by SDK name: the archive's path
/// below the download host, its SHA-256 and the key that signed it.
struct SDKLockRecord {
    var path: [String: String]
    var sha256: [String: String]
    var signedBy: [String: String]

    init(_ entry: LockedTool) {
        path = entry.fieldMap(SwiftSDK.lockPath)
        sha256 = entry.fieldMap(SwiftSDK.lockSHA256)
        signedBy = entry.fieldMap(SwiftSDK.lockSigner)
    }

    mutating func record(_ name: String, path p: String, sha256 sum: String, signer: String) {
        path[name] = p
        sha256[name] = sum
        signedBy[name] = signer
    }

    /// The archive's path, derived from the version; a lock that records another (another
    /// release's SDK, a path leaving swift.org's layout) is refused.
    func checkedPath(_ sdk: SwiftSDK, _ v: Version) throws(TackError) -> String {
        let derived = sdk.path(release: v)
        if let locked = path[sdk.name], locked != derived {
            throw TackError("tack.lock's path for \(SwiftBackend.label(sdk, v)) is \(quoted(locked)), which is not that SDK's (\(derived)) — nothing was installed; run `tack lock` again")
        }
        return derived
    }

    var fields: [String: LockValue] {
        [SwiftSDK.lockPath: .map(path), SwiftSDK.lockSHA256: .map(sha256), SwiftSDK.lockSigner: .map(signedBy)]
    }
}
