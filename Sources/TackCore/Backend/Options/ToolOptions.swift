import YAML

/// The options of a tool's mapping in tack.yml: the keys every kind shares (`bin`, a
/// toolchain's `platform`) and each kind's own set, read where its keys are met.
public struct ToolOptions: Sendable, Hashable {
    /// Paths in the install that are commands (`bin/tool`, `tool=name`).
    public var bin: [String] = []
    /// `platform:` of a Swift toolchain: the swift.org platform to install (`ubuntu2204`,
    /// `debian12`), where this machine's distribution has no build of its own.
    public var toolchainPlatform: String?
    public var git = GitOptions()
    public var url = URLOptions()
    public var pip = PipOptions()
    public var gem = GemOptions()
    public var asdf = AsdfOptions()
    public var swift = SwiftOptions()
    public init() {}

    /// The keys every kind may have.
    public static let sharedKeys = ["bin", "platform"]

    /// Reads one option key; false when no kind (and no shared key) has it.
    mutating func decode(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> Bool {
        switch key.value {
        case "platform":
            let text = try reader.string(value, "`platform`")
            guard SwiftPlatform.isValidIdentifier(text) else {
                throw reader.fail(value.mark, "expected a swift.org platform like `ubuntu2204` or `debian12`, found \(quoted(text))")
            }
            toolchainPlatform = SwiftPlatform.identifier(text)
        case "bin": bin = try reader.binPaths(value)
        case _ where GitOptions.keys.contains(key.value): try git.decode(key, value, reader)
        case _ where URLOptions.keys.contains(key.value): try url.decode(key, value, reader)
        case _ where PipOptions.keys.contains(key.value): try pip.decode(key, value, reader)
        case _ where GemOptions.keys.contains(key.value): try gem.decode(key, value, reader)
        case _ where AsdfOptions.keys.contains(key.value): try asdf.decode(key, value, reader)
        case _ where SwiftOptions.keys.contains(key.value): try swift.decode(key, value, reader)
        default: return false
        }
        return true
    }

    /// The options that change what gets installed, as tack.lock's `options:` records them:
    /// only those set, each as one string (lists joined by `, `), so the map is empty for a
    /// plain pin and the lock stays short.
    public var lockRecord: [String: String] {
        var out = git.lockRecord
        out.merge(url.lockRecord) { $1 }
        out.merge(pip.lockRecord) { $1 }
        out.merge(gem.lockRecord) { $1 }
        out.merge(asdf.lockRecord) { $1 }
        out.merge(swift.lockRecord) { $1 }
        if !bin.isEmpty { out["bin"] = bin.joined(separator: ", ") }
        if let toolchainPlatform { out["platform"] = toolchainPlatform }
        return out
    }

    /// These options with every field `other` sets replacing ours.
    func overlaid(by other: ToolOptions) -> ToolOptions {
        var o = self
        if !other.bin.isEmpty { o.bin = other.bin }
        if other.toolchainPlatform != nil { o.toolchainPlatform = other.toolchainPlatform }
        o.git = git.overlaid(by: other.git)
        o.url = url.overlaid(by: other.url)
        o.pip = pip.overlaid(by: other.pip)
        o.gem = gem.overlaid(by: other.gem)
        o.asdf = asdf.overlaid(by: other.asdf)
        o.swift = swift.overlaid(by: other.swift)
        return o
    }
}
