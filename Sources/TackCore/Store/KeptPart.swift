/// A part of an install that is worth more than its removal: when the install is removed
/// (`tack uninstall`, `tack prune`), the part is moved (one rename, no copy) into the cache
/// entry named here, with a `prefix` file beside it holding the install directory it came from
/// (the path its scripts name), for a later install of exactly the same thing to clone.
/// A pip tool's virtualenv is one: `venv` kept as `pip-envs/<key>`.
///
/// Recorded in the install's record as `built.keep: "PART:ENTRY"`; both are relative paths of
/// plain names (no `.`, `..` or empty component), so a record cannot move anything outside
/// the install or the cache.
public struct KeptPart: Sendable, Equatable {
    /// The part, relative to the install directory (`venv`).
    public var part: String
    /// Where it goes, relative to the cache directory (`pip-envs/<key>`).
    public var cacheEntry: String

    public init?(part: String, cacheEntry: String) {
        guard Self.isPlainRelative(part), Self.isPlainRelative(cacheEntry), cacheEntry.contains("/") else { return nil }
        self.part = part
        self.cacheEntry = cacheEntry
    }

    /// The install record's `built` key that holds it.
    public static let builtField = "keep"

    /// As the record holds it.
    public var recorded: String { part + ":" + cacheEntry }

    /// From the record's text; nil for anything else.
    public init?(recorded: String) {
        guard let colon = recorded.firstIndex(of: ":") else { return nil }
        self.init(part: String(recorded[..<colon]), cacheEntry: String(recorded[recorded.index(after: colon)...]))
    }

    static func isPlainRelative(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains(":") }
    }
}
