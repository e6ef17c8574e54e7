/// Everything a build depends on, for the team cache: what the backend says the build depends
/// on (source, commit, products or build command, `bin:`, the Swift toolchain), the platform
/// (os, arch, and the C library and distribution it links against) and tack's install format.
/// Two machines with equal keys would build the same thing, so one may use the other's build.
///
/// The registry tag is a digest of the key; the fields themselves go on the artifact's
/// manifest as annotations (`dev.tack.key.<field>`), and a pull whose annotations do not match
/// is refused.
public struct CacheKey: Sendable, Equatable {
    /// The layout of an install in the cache: bump when what an install directory holds, or
    /// how it is packed, changes incompatibly.
    public static let formatVersion = "1"
    public static let annotationPrefix = "dev.tack.key."

    public var tool: String
    public var fields: [String: String]

    /// `inputs` from the backend; `platform` from `BuildPlatform`.
    public init(tool: String, inputs: [String: String], platform: [String: String]) {
        self.tool = tool
        var all = inputs
        for (k, v) in platform { all["platform." + k] = v }
        all["format"] = CacheKey.formatVersion
        fields = all
    }

    public init(tool: String, fields: [String: String]) {
        self.tool = tool
        self.fields = fields
    }

    /// `field="value"` lines, sorted: what the digest is taken of. Values are quoted with
    /// JSON escapes, so a newline in one cannot forge another field.
    public var canonical: String {
        fields.keys.sorted().map { "\($0)=\(quoted(fields[$0] ?? ""))\n" }.joined()
    }

    /// The SHA-256 of `canonical`, hex: the registry tag.
    public var tag: String { SHA256Digest.hex(Array(canonical.utf8)) }

    /// The key as manifest annotations.
    public var annotations: [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields { out[CacheKey.annotationPrefix + k] = v }
        return out
    }

    /// The fields where `annotations` (a pulled manifest's) disagree with this key, each
    /// `field: expected X, found Y`; empty when they match.
    public func mismatches(_ annotations: [String: String]) -> [String] {
        var out: [String] = []
        for k in fields.keys.sorted() {
            let found = annotations[CacheKey.annotationPrefix + k]
            if found != fields[k] { out.append("\(k): expected \(quoted(fields[k] ?? "")), found \(found.map(quoted) ?? "nothing")") }
        }
        for k in annotations.keys.sorted() where k.hasPrefix(CacheKey.annotationPrefix) {
            let field = String(k.dropFirst(CacheKey.annotationPrefix.count))
            if fields[field] == nil { out.append("\(field): not part of this key, found \(quoted(annotations[k] ?? ""))") }
        }
        return out
    }

    /// The lock field that records, per key (tag), the manifest digest first pulled or pushed.
    public static let lockField = "cache"
}
