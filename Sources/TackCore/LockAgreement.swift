/// Whether a lock entry still describes a pin, and whether an install is the one an entry
/// describes: the two checks that keep tack.lock from lying (PRODUCT.md, Safety rules).
extension ToolOptions {
    /// The options that change what gets installed, as tack.lock's `options:` records them:
    /// only those set, each as one string (lists joined by `, `), so the map is empty for a
    /// plain pin and the lock stays short.
    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        if !products.isEmpty { out["products"] = products.joined(separator: ", ") }
        if !bin.isEmpty { out["bin"] = bin.joined(separator: ", ") }
        if let build { out["build"] = build }
        if let checksum { out["checksum"] = checksum.lowercased() }
        for (platform, fields) in platforms {
            for (key, value) in fields { out["platforms.\(platform).\(key)"] = key == "checksum" ? value.lowercased() : value }
        }
        if let python { out["python"] = python }
        if let indexURL { out["index_url"] = indexURL }
        if let findLinks { out["find_links"] = findLinks }
        if !extras.isEmpty { out["extras"] = extras.joined(separator: ", ") }
        if let gemSource { out["source"] = gemSource }
        if let toolchainPlatform { out["platform"] = toolchainPlatform }
        return out
    }
}

extension LockedTool {
    /// The entry's `options:` (empty when it has none).
    public var options: [String: String] { fieldMap("options") }

    /// A map field of the entry (checksums by platform or file, signers, paths), empty when
    /// the entry has none.
    public func fieldMap(_ field: String) -> [String: String] {
        if case .map(let m)? = fields[field] { return m }
        return [:]
    }

    /// Whether a url tool's entry records its checksum for `platform` (what --frozen needs).
    public func hasChecksum(for platform: Platform) -> Bool {
        if case .map(let sums)? = fields["sha256"] { return sums[platform.description] != nil }
        return false
    }

    /// Why this entry does not describe `request` from `backend` at `source`, one phrase per
    /// difference; empty when it does. A locked version that no longer satisfies the
    /// requirement, another backend, source or options, or a checksum that contradicts the
    /// manifest's: each means the lock was written for another pin (or by hand).
    public func disagreements(with request: ToolRequest, backend: String, source: String, platform: Platform = .current) -> [String] {
        var out: [String] = []
        let requirement = request.requirement
        if requested != requirement.description {
            out.append("the requirement is \(requirement), but tack.lock was resolved for \(requested)")
        }
        if self.backend != backend || self.source != source {
            out.append("the source is \(backend) \(source), but tack.lock has \(self.backend) \(self.source)")
        }
        switch requirement {
        case .ref(let ref):
            if case .string(let locked)? = fields["ref"] {
                if locked != ref { out.append("the ref is \(ref), but tack.lock followed \(locked)") }
            } else if backend == "git" {
                out.append("the pin follows ref \(ref), but tack.lock records no ref")
            }
        case .system, .path, .lts:
            // (An LTS line is known only from the version index, not from the lock.)
            break
        default:
            // A lock field the pin did not ask for is a disagreement too: a `ref:` under a
            // version pin would choose a commit no tag names.
            if case .string(let locked)? = fields["ref"] {
                out.append("tack.lock follows ref \(locked), which the pin (\(requirement)) does not ask for")
            }
            // (A changed requirement says so above; this is a lock edited to another version.)
            if requested == requirement.description && !requirement.matches(version) {
                out.append("tack.lock has \(version), which does not satisfy \(requirement)")
            }
        }
        let wanted = request.options.lockRecord
        if options != wanted {
            let keys = Set(options.keys).union(wanted.keys).filter { options[$0] != wanted[$0] }.sorted()
            out.append("the options differ from tack.lock's (\(keys.joined(separator: ", ")))")
        }
        if backend == "url", case .map(let sums)? = fields["sha256"] {
            let key = platform.description
            let wantedSum = request.options.platforms[key]?["checksum"] ?? request.options.checksum
            if let wantedSum, let locked = sums[key], !Checksum.same(wantedSum, locked) {
                out.append("the manifest's checksum for \(key) is \(wantedSum.lowercased()), but tack.lock has \(locked.lowercased())")
            }
        }
        return out
    }

    /// The fields that say which bytes an install is: single values, and maps (checksums by
    /// platform or file, hashes by distribution, versions by gem).
    static let identityValues = ["commit", "plugin-commit"]
    static let identityMaps = ["sha256", "hashes", "packages", "gems", "signed-by"]

    static func hashSet(_ value: String) -> Set<String> { Set(value.lowercased().split(separator: " ").map(String.init)) }

    /// Whether this record (or entry) was made from `request`'s pin: its backend, source and
    /// options, whatever version and commit it holds.
    public func isFrom(_ request: ToolRequest, backend: String, source: String) -> Bool {
        var wanted = request.options.lockRecord, mine = options
        let products = wanted.removeValue(forKey: "products")
        mine.removeValue(forKey: "products")
        return self.backend == backend && self.source == source && mine == wanted && Self.sameProducts(wanted: products, installed: self)
    }

    /// Whether an install made from `installed` (its record) is the one this entry describes
    /// (the install identity rule: one install per build, whichever pin asked for it).
    public func isSameInstall(as installed: LockedTool) -> Bool {
        installDifferences(from: installed).isEmpty
    }

    /// What makes an install made from `installed` (its record) another build than this entry
    /// describes, one field name each (`source`, `commit`, `options.bin`, `sha256`); empty when
    /// it is the same: same backend, source, version and options — where `products:` counts as
    /// the products actually built, so a pin naming a package's only executable and one naming
    /// none are one build — and no identity field (commit, checksums, hashes, plugin commit)
    /// that both record and that differs. A field only one side has is what the lock has yet
    /// to learn from the install.
    public func installDifferences(from installed: LockedTool) -> [String] {
        var out: [String] = []
        if backend != installed.backend { out.append("backend") }
        if source != installed.source { out.append("source") }
        if version != installed.version || version.text != installed.version.text { out.append("version") }
        let mine = options, theirs = installed.options
        for key in Set(mine.keys).union(theirs.keys).sorted() where key != "products" && mine[key] != theirs[key] {
            out.append("options.\(key)")
        }
        if !Self.sameProducts(wanted: mine["products"], installed: installed) { out.append("options.products") }
        for key in Self.identityValues {
            if case .string(let a)? = fields[key], case .string(let b)? = installed.fields[key], a.lowercased() != b.lowercased() { out.append(key) }
        }
        for key in Self.identityMaps {
            guard case .map(let a)? = fields[key], case .map(let b)? = installed.fields[key] else { continue }
            for (k, v) in a.sorted(by: { $0.key < $1.key }) {
                guard let w = b[k] else { continue }
                // A pip distribution's hashes are a set (one per file, for every platform the
                // lock covers): the install is this entry's when each hash it was made with is
                // still one the entry allows.
                if key == "hashes" ? !Self.hashSet(w).isSubset(of: Self.hashSet(v)) : !Checksum.same(v, w) {
                    out.append(key)
                    break
                }
            }
        }
        return out
    }

    /// Whether an install built `wanted` (`products:` as the lock records it, nil for none):
    /// the same words, or, where the install records what it built (`built.products`) and the
    /// package's executables (`built.declared`), the same products in effect.
    static func sameProducts(wanted: String?, installed: LockedTool) -> Bool {
        let recorded = installed.options["products"]
        if wanted == recorded { return true }
        guard case .map(let built)? = installed.fields["built"], let effective = built["products"] else { return false }
        if let wanted { return Set(Self.words(wanted)) == Set(Self.words(effective)) }
        guard let declared = built["declared"] else { return false }
        return Set(Self.words(effective)) == Set(Self.words(declared))
    }

    static func words(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}
