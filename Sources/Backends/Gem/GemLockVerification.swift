import BackendKinds
import TackCore

/// `tack lock --verify` of a gem tool: every gem file the entry has a checksum for, fetched
/// again from its source (never from the cache) and compared.
struct GemLockVerification {
    let backend: GemBackend
    /// `tack mirror`'s copy: each gem that matches its locked checksum is kept in it, by name.
    var copy: CopyWriter? = nil

    /// `tack lock --verify`: every gem file the entry has a checksum for, fetched again from
    /// the source (never from the cache) and compared.
    func verify(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let sums = GemLockRecord(entry.fields).sha256
        guard !sums.isEmpty else { return (0, []) }
        let tool = "\(entry.name) \(entry.version)"
        let files = sums.keys.sorted()
        let gems = files.compactMap { GemPin.pinned(stem: String($0.dropLast(".gem".count))) }
        let dir = scratch + "/gem-\(entry.name)"
        let fetched = await backend.fetchAll(gems, request: request, scratch: dir, jobs: jobs, tool: tool)
        var checked = 0
        var problems: [String] = []
        for (p, result) in zip(gems, fetched) {
            switch result {
            case .success(let (file, sum, path)):
                checked += 1
                if let expected = sums[file], !Checksum.same(expected, sum) {
                    problems.append("\(tool): \(file) from \(backend.gemSource(request)) is \(sum), but tack.lock says \(expected) — was the gem replaced? tack.lock is unchanged")
                } else if let copy {
                    do { try copy.keepGem(named: file, file: path) } catch { problems.append("\(tool): \(error.message)") }
                }
            case .failure(let error): problems.append("cannot verify \(p.file) of \(tool): \(error.message)")
            }
        }
        return (checked, problems)
    }
}
