import TackCore

/// What tack.lock records of a pip tool's version: every distribution installed, with its
/// version and the SHA-256 of each file that may be installed for it.
struct PipLockRecord: Equatable {
    /// Version by distribution name.
    var packages: [String: String] = [:]
    /// `sha256:…` digests (space-separated) by distribution name.
    var hashes: [String: String] = [:]

    init(_ fields: [String: LockValue]) {
        if case .map(let m)? = fields["packages"] { packages = m }
        if case .map(let m)? = fields["hashes"] { hashes = m }
    }

    init(_ pinned: [PipPin]) {
        for p in pinned {
            packages[p.name] = p.version
            hashes[p.name] = p.hashes.map { "sha256:" + $0 }.joined(separator: " ")
        }
    }

    var fields: [String: LockValue] { ["packages": .map(packages), "hashes": .map(hashes)] }

    /// The distributions, each name, version and hash checked before any of them reaches a
    /// requirements file: a newline or an option (`--extra-index-url`) in a locked value would
    /// otherwise become pip's input. `tool` names the entry in messages.
    func distributions(of tool: String) throws(TackError) -> [PipPin] {
        for name in hashes.keys where packages[name] == nil {
            throw TackError("tack.lock's entry for \(tool) has hashes for \(quoted(name)), which it does not list in `packages` — nothing was installed; run `tack lock` again")
        }
        var out: [PipPin] = []
        for name in packages.keys.sorted() {
            guard let v = packages[name], let h = hashes[name] else {
                throw TackError("tack.lock's entry for \(tool) has no hashes for \(quoted(name)) — nothing was installed; run `tack lock` again")
            }
            guard PipName.isDistributionName(name) else { throw TackError("tack.lock's entry for \(tool) names the distribution \(quoted(name)), which is not a package name — nothing was installed") }
            guard PipName.isDistributionVersion(v) else { throw TackError("tack.lock's entry for \(tool) gives \(name) the version \(quoted(v)), which is not a version — nothing was installed") }
            let list = h.split(separator: " ").map { String($0.hasPrefix("sha256:") ? $0.dropFirst(7) : $0) }
            guard !list.isEmpty, list.allSatisfy(Checksum.isSHA256) else {
                throw TackError("tack.lock's entry for \(tool) gives \(name) the hashes \(quoted(h)), which are not SHA-256 digests — nothing was installed")
            }
            out.append(PipPin(name: name, version: v, hashes: list))
        }
        return out
    }
}
