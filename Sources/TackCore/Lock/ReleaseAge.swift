/// `min_release_age: 3d` (tack.yml, the global manifest, or `TACK_MIN_RELEASE_AGE`): resolution
/// skips versions published more recently than that, where the version index says when each
/// was published, so a release pulled within days of a compromise never reaches a lock. An
/// exact pin younger than that is an error naming its age.
public struct ReleaseAge: Sendable, Equatable {
    public var seconds: Int64
    /// As written: `3d`.
    public var text: String
    /// Where it was set: `~/app/tack.yml:3`, `TACK_MIN_RELEASE_AGE`.
    public var origin: String

    public init(seconds: Int64, text: String, origin: String) {
        self.seconds = seconds
        self.text = text
        self.origin = origin
    }

    /// `90m`, `12h`, `3d`, `2w` (or `0`, which turns it off): seconds, or nil when it is none of those.
    public static func seconds(_ text: String) -> Int64? {
        if text == "0" { return 0 }
        guard let unit = text.last, let n = Int64(text.dropLast()), n >= 0, n < 100_000 else { return nil }
        switch unit {
        case "m": return n * 60
        case "h": return n * 3600
        case "d": return n * 86400
        case "w": return n * 7 * 86400
        default: return nil
        }
    }

    /// The age in force: `TACK_MIN_RELEASE_AGE`, else the nearest manifest's (the project's
    /// before the global one); nil when none sets one, or it is `0`.
    public static func inForce(_ resolution: Resolution, settings: Settings, home: String?) throws(TackError) -> ReleaseAge? {
        if let text = settings.environment["TACK_MIN_RELEASE_AGE"], !text.isEmpty {
            guard let s = seconds(text) else {
                throw TackError("TACK_MIN_RELEASE_AGE is \(quoted(text)); write an age like 3d, 12h, 2w or 90m (0 turns it off)")
            }
            return s == 0 ? nil : ReleaseAge(seconds: s, text: text, origin: "TACK_MIN_RELEASE_AGE")
        }
        for manifest in resolution.manifests {
            guard let age = manifest.minReleaseAge else { continue }
            return age.seconds == 0 ? nil : ReleaseAge(seconds: age.seconds, text: age.text, origin: "\(Paths.abbreviate(manifest.path, home: home)):\(age.line)")
        }
        return nil
    }

    /// Whether a version published at `published` (seconds since 1970) is too young at `now`.
    public func holdsBack(_ published: Int64, now: Int64) -> Bool { now - published < seconds }

    /// `3 days`, `5 hours`, `40 minutes`: how long ago `published` was.
    public static func describe(_ published: Int64, now: Int64) -> String {
        let s = max(0, now - published)
        func plural(_ n: Int64, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if s >= 86400 { return plural(s / 86400, "day") }
        if s >= 3600 { return plural(s / 3600, "hour") }
        return plural(max(1, s / 60), "minute")
    }

    /// An ISO 8601 date or time (`2024-11-20`, `2024-11-20T10:15:00Z`, with a fraction or an
    /// offset): seconds since 1970, or nil.
    public static func timestamp(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var n: Int64 = 0
            for c in b[from..<(from + count)] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                n = n * 10 + Int64(c - 0x30)
            }
            return n
        }
        guard b.count >= 10, b[4] == 0x2D, b[7] == 0x2D, let y = number(0, 4), let m = number(5, 2), let d = number(8, 2),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        var seconds = (era * 146097 + doe - 719468) * 86400
        guard b.count > 10 else { return seconds }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let h = number(11, 2), let mi = number(14, 2) else { return nil }
        seconds += h * 3600 + mi * 60 + (number(17, 2) ?? 0)
        // An offset (`+02:00`) after the seconds and any fraction; `Z` or none is UTC.
        var i = 16
        while i < b.count, b[i] != UInt8(ascii: "+"), b[i] != UInt8(ascii: "-") { i += 1 }
        if i < b.count, let oh = number(i + 1, 2) {
            let om = number(i + 4, 2) ?? number(i + 3, 2) ?? 0
            let offset = oh * 3600 + om * 60
            seconds += b[i] == UInt8(ascii: "+") ? -offset : offset
        }
        return seconds
    }
}
