/// The kinds of backend a process knows, looked up by the names and keys that name them: what
/// reads manifests (source and option keys), tack.lock (each kind's fields) and answers what a
/// backend is like. `BackendCatalog.standard` (in the `BackendKinds` module) lists tack's own;
/// a test adds its own kinds to it. Carried by `Settings`, never global.
public struct BackendCatalog: Sendable {
    public let kinds: [any BackendKind]
    let byName: [String: Int]
    let bySourceKey: [String: Int]
    let byOptionKey: [String: Int]
    /// Every field an entry or install record of any kind may have (made once: each entry
    /// read asks).
    public let lockFields: Set<String>
    /// Every kind's own keys (`BackendKind.ownKeys`), made once: an entry that uses none of
    /// them needs no check of which kind it may name.
    public let ownKeys: Set<String>

    /// `kinds`, the first of any two that share a name or key winning (`BackendCatalogTests`
    /// checks that tack's own share none).
    public init(_ kinds: [any BackendKind]) {
        self.kinds = kinds
        var byName: [String: Int] = [:], bySourceKey: [String: Int] = [:], byOptionKey: [String: Int] = [:]
        for (i, kind) in kinds.enumerated() {
            if byName[kind.name] == nil { byName[kind.name] = i }
            for key in kind.sourceKeys where bySourceKey[key] == nil { bySourceKey[key] = i }
            for key in kind.options.keys where byOptionKey[key] == nil { byOptionKey[key] = i }
        }
        (self.byName, self.bySourceKey, self.byOptionKey) = (byName, bySourceKey, byOptionKey)
        lockFields = LockedTool.knownFields.union(kinds.flatMap({ $0.lockFields }))
        ownKeys = Set(kinds.flatMap({ $0.ownKeys }))
    }

    /// These kinds and `more` after them.
    public func adding(_ more: any BackendKind...) -> BackendCatalog { BackendCatalog(kinds + more) }

    /// The kind tack.lock names `backend:`; nil for one this tack does not have.
    public func kind(named name: String) -> (any BackendKind)? { byName[name].map { kinds[$0] } }

    /// The kind an entry was locked with; nil for one this tack does not have.
    public func kind(of entry: LockedTool) -> (any BackendKind)? { kind(named: entry.backend) }

    /// The kind whose source `key` names (`github` → git).
    public func kind(sourceKey key: String) -> (any BackendKind)? { bySourceKey[key].map { kinds[$0] } }

    /// The kind whose option `key` is (`products` → git).
    public func kind(optionKey key: String) -> (any BackendKind)? { byOptionKey[key].map { kinds[$0] } }

    /// Every manifest key that names a source, in the kinds' order, and `path`.
    public var sourceKeys: [String] { kinds.flatMap({ $0.sourceKeys }) + ["path"] }

    /// The source keys, as a sentence lists them (`git, github, … or swift`).
    public var sourceKeysInWords: String {
        let keys = kinds.flatMap({ $0.sourceKeys })
        guard let last = keys.last, keys.count > 1 else { return keys.first ?? "" }
        return keys.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Every key a tool's mapping may have: its source, its version (or ref), the keys every
    /// kind shares, and each kind's own.
    public var toolKeys: [String] {
        var out = sourceKeys + ["version", "ref"] + ToolOptions.sharedKeys
        for kind in kinds { out += kind.options.keys }
        return out
    }
}
