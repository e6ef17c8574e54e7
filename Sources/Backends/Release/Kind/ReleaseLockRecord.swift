#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of a release tool's version beyond every kind's fields: the tag of
/// its release and each platform's asset (`assets: { linux-x86_64: gh_2.62.0_linux_amd64.tar.gz }`);
/// each asset's SHA-256 is in `sha256`, as for a url tool.
public struct ReleaseLockRecord: Equatable, Sendable {
    public var tag: String?
    public var assets: [String: String] = [:]

    public static let fieldNames = ["tag", "assets"]

    public init(tag: String? = nil, assets: [String: String] = [:]) {
        self.tag = tag
        self.assets = assets
    }

    public init(_ fields: [String: LockValue]) {
        if case .string(let t)? = fields["tag"] { tag = t }
        if case .map(let m)? = fields["assets"] { assets = m }
    }

    public var fields: [String: LockValue] {
        var out: [String: LockValue] = [:]
        if let tag { out["tag"] = .string(tag) }
        if !assets.isEmpty { out["assets"] = .map(assets) }
        return out
    }

    /// Whether `name` can only be one asset's file name: no path, nothing hidden, no
    /// character that would change the URL it is put in.
    public static func isAssetName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != ".", name.utf8.count <= 255, name != "..", !name.contains("..") else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"/\\?#%\"'<>`".unicodeScalars.contains($0) }
    }

    /// Whether `tag` can be put in a download URL as one path segment's worth: printable
    /// ASCII without `..`, a query or an escape (a `/`, as monorepos tag, stays a `/`).
    public static func isTag(_ tag: String) -> Bool {
        guard let first = tag.unicodeScalars.first, first != "/", first != "-", tag.utf8.count <= 255, !tag.contains(".."), !tag.hasSuffix("/") else { return false }
        return tag.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"\\?#%\"'<>`".unicodeScalars.contains($0) }
    }

    /// github.com's download URL of `platform`'s asset (before any mirror), when the record
    /// names a tag and an asset that are safe to put in it.
    public func downloadURL(repository: String, platform: String) -> String? {
        guard let tag, Self.isTag(tag), let asset = assets[platform], Self.isAssetName(asset), GitHub.isValidRepository(repository) else { return nil }
        return "https://github.com/\(repository)/releases/download/\(tag)/\(asset)"
    }
}
