/// Whether an install is the one a lock entry describes (the install identity rule). What
/// tack.lock records of a pin's options is `ToolOptions.lockRecord`; whether an entry still
/// describes its pin is `LockMatch`'s.
extension LockedTool {
    /// Whether a url tool's entry records its checksum for `platform` (what --frozen needs).
    public func hasChecksum(for platform: Platform) -> Bool {
        checksums[platform.description] != nil
    }

    /// The fields that say which bytes an install is: single values, and maps (checksums by
    /// platform or file, hashes by distribution, versions by gem).
    static let identityValues = ["commit", "plugin-commit", "build"]
    static let identityMaps = ["sha256", "hashes", "packages", "gems", "signed-by"]

    /// Options that add to an install rather than make another build of it: a toolchain's
    /// Swift SDKs go into its install beside it (`SwiftSDK`), so pinning one never makes a
    /// second copy of the toolchain.
    public static let addOnOptions: Set<String> = ["sdks"]

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
        for key in Set(mine.keys).union(theirs.keys).sorted() where key != "products" && !Self.addOnOptions.contains(key) && mine[key] != theirs[key] {
            out.append("options.\(key)")
        }
        if !Self.sameProducts(wanted: mine["products"], installed: installed) { out.append("options.git.products") }
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
        guard let effective = installed.built["products"] else { return false }
        if let wanted { return Set(Self.words(wanted)) == Set(Self.words(effective)) }
        guard let declared = installed.built["declared"] else { return false }
        return Set(Self.words(effective)) == Set(Self.words(declared))
    }

    static func words(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}
