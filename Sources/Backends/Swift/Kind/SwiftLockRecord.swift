#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a Swift toolchain: its swift.org tag, and for each platform
/// (`ubuntu2204-x86_64`) the archive's name, its path below the download host, its SHA-256 and
/// the fingerprint of the key that signed it.
public struct SwiftLockRecord: Equatable {
    public var tag: String?
    public var sha256: [String: String] = [:]
    public var signedBy: [String: String] = [:]
    public var archive: [String: String] = [:]
    public var path: [String: String] = [:]

    public init(_ fields: [String: LockValue]) {
        func map(_ key: String) -> [String: String] { if case .map(let m)? = fields[key] { m } else { [:] } }
        if case .string(let t)? = fields["tag"] { tag = t }
        sha256 = map("sha256")
        signedBy = map("signed-by")
        archive = map("archive")
        path = map("path")
    }

    /// One platform's archive recorded (`key` its description).
    public mutating func record(_ key: String, sha256 sum: String, signer: String, archive name: String, path where: String) {
        sha256[key] = sum
        signedBy[key] = signer
        archive[key] = name
        path[key] = `where`
    }

    public var fields: [String: LockValue] {
        var out: [String: LockValue] = ["sha256": .map(sha256), "signed-by": .map(signedBy), "archive": .map(archive), "path": .map(path)]
        if let tag { out["tag"] = .string(tag) }
        return out
    }
}
