/// What each platform installs of a lock entry that pins more than one artifact (a pip tool's
/// distributions, a gem tool's gem files): the entry's `platforms` map, a platform key to the
/// space-separated names it installs (`linux-x86_64: "black click"`, or for gems the file stems
/// `nokogiri-1.16.0-x86_64-linux`). An entry without the map was locked for one platform, the
/// one that installed it, and everything it pins is installed.
public struct PlatformSelection: Sendable, Equatable {
    public static let field = "platforms"

    public private(set) var byPlatform: [String: [String]]

    public init(_ entry: LockedTool) {
        var out: [String: [String]] = [:]
        if case .map(let m)? = entry.fields[Self.field] {
            for (platform, names) in m { out[platform] = names.split(separator: " ").map(String.init).sorted() }
        }
        byPlatform = out
    }

    /// Whether the entry records a selection at all.
    public var isRecorded: Bool { !byPlatform.isEmpty }

    /// The platforms the entry's selection covers.
    public var covered: Set<String> { Set(byPlatform.keys) }

    /// What `platform` installs, or nil when the selection does not cover it.
    public func names(for platform: Platform) -> [String]? { byPlatform[platform.description] }

    public mutating func set(_ names: [String], for platform: Platform) {
        byPlatform[platform.description] = Array(Set(names)).sorted()
    }

    /// Every name some platform installs.
    public var allNames: Set<String> { Set(byPlatform.values.joined()) }

    public var lockValue: LockValue { .map(byPlatform.mapValues { $0.joined(separator: " ") }) }

    /// The platforms of `wanted` this selection has yet to cover. An entry with no selection
    /// that is locked for this platform only and already records what it installs (an install
    /// recorded it) needs none; one that records nothing yet is resolved for this platform too,
    /// so a lock `tack lock` wrote is enough for a frozen install.
    public func missing(_ wanted: [Platform], recordsArtifacts: Bool, current: Platform = .current) -> [Platform] {
        if !isRecorded && recordsArtifacts && wanted.allSatisfy({ $0 == current }) { return [] }
        return wanted.filter { byPlatform[$0.description] == nil }
    }
}
