/// Where an install came from: a download of what its publisher built, the team cache, or a
/// build made here (and how long it took). Said in the install's summary and kept in its
/// record (`built: { from: …, seconds: … }`), which `tack ls --json` shows.
public enum InstallOrigin: Sendable, Equatable {
    case prebuilt
    case teamCache
    case builtHere(seconds: Double)

    /// The record's `built.from`.
    public var word: String {
        switch self {
        case .prebuilt: return "prebuilt"
        case .teamCache: return "team-cache"
        case .builtHere: return "built"
        }
    }

    /// What the record's `built` map says of it.
    public var recordFields: [String: String] {
        var out = ["from": word]
        if case .builtHere(let seconds) = self { out["seconds"] = InstallOrigin.format(seconds) }
        return out
    }

    /// `record` without where it came from: what a push sends, the same from every machine.
    public static func withoutOrigin(_ record: LockedTool) -> LockedTool {
        var out = record
        out.built["from"] = nil
        out.built["seconds"] = nil
        return out
    }

    /// The origin a record's `built` map says; nil for a record made before tack kept it.
    public init?(record: [String: String]) {
        switch record["from"] {
        case "prebuilt": self = .prebuilt
        case "team-cache": self = .teamCache
        // A time the record cannot mean (not a number, infinite, negative, decades) reads as 0:
        // the record is a file, and what it says is only shown.
        case "built": self = .builtHere(seconds: Double(record["seconds"] ?? "").flatMap { $0.isFinite && $0 >= 0 && $0 < 1e9 ? $0 : nil } ?? 0)
        default: return nil
        }
    }

    public static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "0" }
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// `2.3s`, `2m 56s` (`Elapsed`, as progress lines say it).
    public static func duration(_ seconds: Double) -> String { Elapsed.text(seconds, tenths: true) }
}
