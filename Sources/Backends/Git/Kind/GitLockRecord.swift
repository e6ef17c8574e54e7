#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a git tool's version: the commit it builds, and the tag or the
/// ref (`ref:` pins) that named it. Read from an entry's fields (one of another kind reads as
/// absent) and written back as fields.
public struct GitLockRecord: Equatable {
    public var commit: String?
    public var tag: String?
    public var ref: String?
    /// The release's prebuilt bundle installed instead of a build (its `url` and `sha256`);
    /// written by `PrebuiltBundle`.
    public var prebuilt: [String: String]?

    public init(commit: String?, tag: String? = nil, ref: String? = nil) {
        self.commit = commit
        self.tag = tag
        self.ref = ref
    }

    public init(_ fields: [String: LockValue]) {
        func string(_ key: String) -> String? { if case .string(let s)? = fields[key] { s } else { nil } }
        self.init(commit: string("commit"), tag: string("tag"), ref: string("ref"))
        if case .map(let m)? = fields["prebuilt"] { prebuilt = m }
    }

    public var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if let commit { out["commit"] = .string(commit) }
        if let tag { out["tag"] = .string(tag) }
        if let ref { out["ref"] = .string(ref) }
        if let prebuilt { out["prebuilt"] = .map(prebuilt) }
        return out
    }
}
