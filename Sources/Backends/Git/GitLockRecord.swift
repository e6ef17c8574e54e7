import Git
import TackCore

/// What tack.lock records of a git tool's version: the commit it builds, and the tag or the
/// ref (`ref:` pins) that named it. Read from an entry's fields (one of another kind reads as
/// absent) and written back as fields.
struct GitLockRecord: Equatable {
    var commit: String?
    var tag: String?
    var ref: String?

    init(commit: String?, tag: String? = nil, ref: String? = nil) {
        self.commit = commit
        self.tag = tag
        self.ref = ref
    }

    init(_ fields: [String: LockValue]) {
        func string(_ key: String) -> String? { if case .string(let s)? = fields[key] { s } else { nil } }
        self.init(commit: string("commit"), tag: string("tag"), ref: string("ref"))
    }

    /// The commit, when it is a full commit id (what a lock may name).
    var fullCommit: String? { commit.flatMap { Git.isCommitID($0) ? $0 : nil } }

    var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if let commit { out["commit"] = .string(commit) }
        if let tag { out["tag"] = .string(tag) }
        if let ref { out["ref"] = .string(ref) }
        return out
    }
}
