import BackendKinds
import TackCore

/// `tack lock --verify` of a pip tool: every file tack.lock allows for the distributions the
/// covered platforms install, found on the index again, downloaded (never from a cache) and
/// hashed.
struct PipLockVerification {
    let index: PipIndex
    let http: any HTTPClient
    let fs: any FileSystem
    /// `tack mirror`'s copy: every file that matches a locked hash is kept in it, by name.
    var copy: CopyWriter? = nil

    /// `tack lock --verify`: every file tack.lock allows for each distribution the covered
    /// platforms install, found on the index again (by the hash its page declares, or among a
    /// directory's files), downloaded (never from a cache) and hashed. A locked hash no file
    /// there has any more is named with the files that took its place.
    func verify(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let everything: [PipPin]
        do { everything = try PipLockRecord(entry.fields).distributions(of: "\(entry.name) \(entry.version)") } catch { return (0, [error.message]) }
        guard !everything.isEmpty else { return (0, []) }
        let tool = "\(entry.name) \(entry.version)"
        let selection = PlatformSelection(entry)
        let covered = selection.isRecorded ? selection.byPlatform.keys.sorted().compactMap { Platform(key: $0) } : [Platform.current]
        let used = selection.isRecorded ? selection.allNames : Set(everything.map(\.name))
        var problems: [String] = []
        var fetches: [(pin: PipPin, file: PipIndexFile)] = []
        var offered: [String: [PipIndexFile]] = [:]
        for pin in everything where used.contains(pin.name) {
            let files: [PipIndexFile]
            do { files = try await index.distributionFiles(pin, request) } catch {
                problems.append("cannot verify \(pin.name) \(pin.version) of \(tool): \(error.message)")
                continue
            }
            offered[pin.name] = files
            let locked = Set(pin.hashes.map { $0.lowercased() })
            // Files whose page vouches for a locked hash, and files with no declared hash.
            fetches += files.filter { $0.declared.map(locked.contains) ?? true }.map { (pin, $0) }
        }
        let sums = await hash(fetches.map(\.file), tool: tool, scratch: scratch, jobs: jobs)
        var checked = 0
        var served: [String: Set<String>] = [:]
        for (item, result) in zip(fetches, sums) {
            switch result {
            case .failure(let error):
                problems.append("cannot verify \(item.file.name) of \(tool): \(error.message)")
            case .success(let (sum, path)):
                checked += 1
                served[item.pin.name, default: []].insert(sum)
                if let copy, let path, Set(item.pin.hashes.map { $0.lowercased() }).contains(sum) {
                    do { try copy.keepWheel(named: item.file.name, file: path) } catch { problems.append("\(tool): \(error.message)") }
                }
                if let path, !item.file.location.hasPrefix("/") { try? fs.remove(path) }
                if let declared = item.file.declared, declared != sum {
                    problems.append("\(tool): \(item.file.name) from the index is \(sum), but its page and tack.lock say \(declared) — was the file replaced? tack.lock is unchanged")
                }
            }
        }
        for pin in everything where used.contains(pin.name) && offered[pin.name] != nil {
            let have = served[pin.name] ?? []
            let locked = Set(pin.hashes.map { $0.lowercased() })
            for hash in pin.hashes.map({ $0.lowercased() }).sorted() where !have.contains(hash) {
                // What took its place: files for the covered platforms with hashes the lock lacks.
                let others = (offered[pin.name] ?? []).filter { file in
                    PipPlatforms.concerns(file.name, covered) && !(file.declared.map(locked.contains) ?? false)
                }.map { file in "\(file.name)\(file.declared.map { " (sha256 \($0))" } ?? "")" }
                problems.append("\(tool): the index no longer serves the file of \(pin.name) \(pin.version) that tack.lock locks with sha256 \(hash)"
                    + (others.isEmpty ? "" : "; it now offers \(others.joined(separator: ", "))") + " — was it replaced? tack.lock is unchanged")
            }
        }
        return (checked, problems)
    }

    /// Each file's SHA-256 and where it is now (the caller removes a downloaded one): a local
    /// one read, a remote one downloaded again (never from the download cache), at most `jobs`
    /// at once.
    func hash(_ files: [PipIndexFile], tool: String, scratch: String, jobs: Int) async -> [Result<(sum: String, path: String?), TackError>] {
        let downloader = Downloader(http: http, retryDelays: [0.25, 0.5, 1])
        return await Concurrently.map(files, jobs: jobs) { file -> Result<(sum: String, path: String?), TackError> in
            if file.location.hasPrefix("/") {
                guard let sum = Hashing.sha256(file: file.location) else { return .failure(TackError("cannot read \(file.location)")) }
                return .success((sum.hex, file.location))
            }
            do throws(TackError) {
                let fetched = try await downloader.fetch(file.location, expected: nil, tool: tool, platform: "", cache: scratch + "/pip", offline: false) { _ in }
                return .success((fetched.sum, fetched.path))
            } catch {
                return .failure(error)
            }
        }
    }
}
