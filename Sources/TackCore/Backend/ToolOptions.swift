#if !hasFeature(Embedded)
import YAML
#endif

/// The options of a tool's mapping in tack.yml: the keys every kind shares (`bin`, a
/// toolchain's `platform`) and the sets of the kinds whose keys the mapping has, read where
/// their keys are met. A backend reads its own set as `options[GitOptions.self]` (each
/// backend's folder names it, as `options.git`).
public struct ToolOptions: Sendable, Hashable {
    /// Paths in the install that are commands (`bin/tool`, `tool=name`).
    public var bin: [String] = []
    /// `platform:` of a Swift toolchain: the swift.org platform to install (`ubuntu2204`,
    /// `debian12`), where this machine's distribution has no build of its own.
    public var toolchainPlatform: String?
    /// The sets that differ from their defaults, one of each kind.
    var sets: [AnyOptionSetBox] = []
    public init() {}

    /// The keys every kind may have.
    public static let sharedKeys = ["bin", "platform"]

    /// One kind's options (its defaults when the pin sets none).
    public subscript<Set: BackendOptionSet>(_ type: Set.Type) -> Set {
        get {
            for box in sets { if let box = box as? OptionSetBox<Set> { return box.value } }
            return Set()
        }
        set {
            let i = sets.firstIndex { $0 is OptionSetBox<Set> }
            switch (i, newValue == Set()) {
            case (let i?, true): sets.remove(at: i)
            case (let i?, false): sets[i] = OptionSetBox(newValue)
            case (nil, false): sets.append(OptionSetBox(newValue))
            case (nil, true): break
            }
        }
    }

    /// Reads one shared key; false for any other.
    mutating func decodeShared(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> Bool {
        switch key.value {
        case "platform":
            let text = try reader.string(value, "`platform`")
            guard SwiftPlatform.isValidIdentifier(text) else {
                throw reader.fail(value.mark, "expected a swift.org platform like `ubuntu2204` or `debian12`, found \(quoted(text))")
            }
            toolchainPlatform = SwiftPlatform.identifier(text)
        case "bin": bin = try reader.binPaths(value)
        default: return false
        }
        return true
    }

    /// The options that change what gets installed, as tack.lock's `options:` records them:
    /// only those set, each as one string (lists joined by `, `), so the map is empty for a
    /// plain pin and the lock stays short.
    public var lockRecord: [String: String] {
        var out: [String: String] = [:]
        for set in sets {
            for (name, value) in set.lockRecord { out[name] = value }
        }
        if !bin.isEmpty { out["bin"] = bin.joined(separator: ", ") }
        if let toolchainPlatform { out["platform"] = toolchainPlatform }
        return out
    }

    /// The publisher's signing key a set names, if any.
    public var signingKey: SigningKey? { sets.lazy.compactMap({ $0.signingKey }).first }

    /// The checksum the manifest gives for `platform`'s download, if any.
    public func manifestChecksum(platform: String) -> String? { sets.lazy.compactMap { $0.manifestChecksum(platform: platform) }.first }

    /// Command names the sets say the install provides.
    public var commands: [String] { sets.flatMap({ $0.commands }) }

    /// These options with every field `other` sets replacing ours.
    func overlaid(by other: ToolOptions) -> ToolOptions {
        var o = self
        if !other.bin.isEmpty { o.bin = other.bin }
        if other.toolchainPlatform != nil { o.toolchainPlatform = other.toolchainPlatform }
        for set in other.sets {
            if let i = o.sets.firstIndex(where: { $0.isSameKind(as: set) }) {
                o.sets[i] = o.sets[i].overlaid(by: set)
            } else {
                o.sets.append(set)
            }
        }
        return o
    }

    public static func == (a: ToolOptions, b: ToolOptions) -> Bool {
        a.bin == b.bin && a.toolchainPlatform == b.toolchainPlatform && a.sets.count == b.sets.count
            && a.sets.allSatisfy { set in b.sets.contains { set.isEqual(to: $0) } }
    }

    public func hash(into h: inout Hasher) {
        h.combine(bin)
        h.combine(toolchainPlatform)
        h.combine(sets.count)
    }
}
