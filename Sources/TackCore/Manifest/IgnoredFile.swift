/// A compatible file, or a line of one, that tack left out because it cannot read it. The
/// file's other tools, and every other file, still pin as before.
public struct IgnoredFile: Sendable, Equatable {
    public var path: String
    /// `file:line:column: why`.
    public var problem: String
    /// The whole file was left out (else one line of it was skipped).
    public var pinsNothing: Bool

    public init(path: String, problem: String, pinsNothing: Bool) {
        self.path = path
        self.problem = problem
        self.pinsNothing = pinsNothing
    }

    /// What is wrong, and what it means for the pins.
    public var message: String {
        pinsNothing ? "\(problem) — \(Paths.basename(path)) pins nothing until it is fixed" : problem
    }

    /// The warning line shown for it.
    public var warning: String { "warning: " + message }
}

/// Which ignored-file warnings were shown already, so each is shown once per version of the
/// file (not at every prompt): `state/warned/<hash of the path>` holds the file's stat key
/// and the warnings shown for it.
public struct WarningLedger: Sendable {
    let store: Store

    public init(store: Store) { self.store = store }

    /// The warnings of `ignored` not shown yet for these versions of their files; they are
    /// recorded as shown. Where nothing can be recorded, every warning is returned.
    public func unseen(_ ignored: [IgnoredFile]) -> [IgnoredFile] {
        var out: [IgnoredFile] = []
        var byPath: [String: [IgnoredFile]] = [:]
        for i in ignored { byPath[i.path, default: []].append(i) }
        for (path, items) in byPath.sorted(by: { $0.key < $1.key }) where isNew(path, items.map({ $0.warning }), kind: "ignored") {
            out += items
        }
        return out
    }

    /// Whether `warnings` about `path` were not shown yet for this version of it (and of
    /// `alsoKeyedBy`, files whose change shows them again); they are recorded as shown.
    public func isNew(_ path: String, _ warnings: [String], kind: String, alsoKeyedBy: [String] = []) -> Bool {
        let keys = ([path] + alsoKeyedBy).map(store.fs.versionKey).joined(separator: " ")
        let record = Array((keys + "\n" + warnings.joined(separator: "\n") + "\n").utf8)
        let file = location(path, kind: kind)
        if let old = try? store.fs.read(file, limit: 1 << 16), old == record { return false }
        try? store.fs.createDirectory(Paths.dirname(file))
        try? store.fs.writeAtomically(file, record)
        return true
    }

    func location(_ path: String, kind: String) -> String {
        store.state + "/warned/" + FNV1a.hex(kind == "ignored" ? path : kind + "\u{0}" + path)
    }
}
