import BackendKinds
import TackCore

/// One locked distribution: `name==version` and the hashes any of its files may have.
struct PipPin: Equatable {
    var name: String
    var version: String
    var hashes: [String]
    var line: String { "\(name)==\(version) " + hashes.map { "--hash=sha256:\($0)" }.joined(separator: " ") }
}

extension PipPin {
    /// `name==version --hash=sha256:…` lines, continuation backslashes joined.
    static func parseRequirements(_ text: String) -> [PipPin] {
        let joined = text.replacingOccurrences(of: "\\\n", with: " ")
        var out: [PipPin] = []
        for line in joined.split(separator: "\n") {
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = tokens.first, !first.hasPrefix("#"), !first.hasPrefix("-"), let eq = first.range(of: "==") else { continue }
            let hashes = tokens.compactMap { t -> String? in t.hasPrefix("--hash=sha256:") ? String(t.dropFirst("--hash=sha256:".count)) : nil }
            var name = String(first[..<eq.lowerBound])
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            out.append(PipPin(name: PipName.normalize(name), version: String(first[eq.upperBound...]), hashes: hashes))
        }
        return out
    }

    /// `more` added to `pinned`: each distribution's hashes joined. One version of each on
    /// every platform, so another version is refused (the constraints make it rare).
    static func merge(_ pinned: [PipPin], _ more: [PipPin], tool: String, platform: Platform) throws(TackError) -> [PipPin] {
        var byName = Dictionary(pinned.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for p in more {
            guard var existing = byName[p.name] else {
                byName[p.name] = p
                continue
            }
            guard existing.version == p.version else {
                throw TackError("\(tool) needs \(p.name) \(p.version) on \(platform), but tack.lock has \(p.name) \(existing.version) for its other platforms, and a lock keeps one version of each on every platform — drop \(platform) from `platforms:`, or lock another version of the tool; nothing was changed")
            }
            for h in p.hashes where !existing.hashes.contains(where: { $0.lowercased() == h.lowercased() }) { existing.hashes.append(h) }
            byName[p.name] = existing
        }
        return byName.keys.sorted().compactMap { byName[$0] }
    }


    /// The downloaded files, each as a pinned distribution with its SHA-256.
    static func hashes(ofDownloadsIn dir: String, fs: any FileSystem) throws(TackError) -> [PipPin] {
        guard let files = try? fs.list(dir) else { throw TackError("pip downloaded nothing into \(dir)") }
        var out: [PipPin] = []
        for file in files.sorted() {
            guard let d = PipName.distribution(file), let data = try? fs.read(dir + "/" + file, limit: Int.max) else { continue }
            out.append(PipPin(name: d.project, version: d.version, hashes: [Hashing.sha256(data)]))
        }
        return out
    }
}

extension PipLockRecord {
    init(_ pinned: [PipPin]) {
        self.init()
        for p in pinned {
            packages[p.name] = p.version
            hashes[p.name] = p.hashes.map { "sha256:" + $0 }.joined(separator: " ")
        }
    }

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
