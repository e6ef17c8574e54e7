/// Swift toolchain names, as swiftly writes them and as swift.org publishes them.
///
/// tack names a toolchain the way swiftly does: a release by its version (`6.0.3`), a
/// development snapshot by its branch and date (`main-snapshot-2024-08-30`,
/// `6.0-snapshot-2024-08-30`). Without a date (`main-snapshot`, `6.0-snapshot`) a name is a
/// series: the newest snapshot of that branch. swift.org's own names (`swift-6.0.3-RELEASE`,
/// `swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a`), which swiftenv's `.swift-version` holds, are
/// read as these.
public enum SwiftToolchain {
    /// The only source of toolchains (a mirror of it is TACK_SWIFT_MIRROR, not another source).
    public static let source = "swift.org"
    /// The registry's name of the toolchain: the tool `swift`.
    public static let registryName = "swift"

    public enum Name: Sendable, Equatable {
        /// A release: `6.0.3`, `6.0` (swift.org's name for 6.0.0).
        case release(Version)
        /// A development snapshot: branch `main` or `6.0`, date `2024-08-30` (nil: the newest).
        case snapshot(branch: String, date: String?)
    }

    /// What a version names, or nil when it names no Swift toolchain.
    public static func name(_ v: Version) -> Name? {
        let text = v.text.lowercased()
        if text == "main-snapshot" { return .snapshot(branch: "main", date: nil) }
        if let date = text.droppingPrefix("main-snapshot-") {
            return isDate(date) ? .snapshot(branch: "main", date: date) : nil
        }
        if let dash = text.firstIndex(of: "-") {
            let branch = String(text[..<dash])
            guard isBranch(branch) else { return nil }
            let rest = String(text[text.index(after: dash)...])
            if rest == "snapshot" { return .snapshot(branch: branch, date: nil) }
            if let date = rest.droppingPrefix("snapshot-"), isDate(date) { return .snapshot(branch: branch, date: date) }
            return nil
        }
        guard !v.isPrerelease, (2...3).contains(v.release.count) else { return nil }
        return .release(v)
    }

    /// Whether `v` names a series (`main-snapshot`, `6.0-snapshot`): the newest of a branch's
    /// snapshots, not one toolchain.
    public static func isSeries(_ v: Version) -> Bool {
        if case .snapshot(_, nil)? = name(v) { return true }
        return false
    }

    /// tack's name for a word from a `.swift-version` file: swiftenv's and swift.org's names
    /// (`swift-6.0.3-RELEASE`, `swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a`,
    /// `swift-6.0-DEVELOPMENT-SNAPSHOT-2024-08-30-a`, `2.2-SNAPSHOT-2016-01-11-a`) become
    /// swiftly's (`6.0.3`, `main-snapshot-2024-08-30`, `6.0-snapshot-2024-08-30`); anything
    /// else is returned as it is.
    public static func normalize(_ word: String) -> String {
        var w = word
        if let rest = w.droppingPrefix("swift-") { w = rest }
        let upper = w.uppercased()
        if let version = upper.droppingSuffix("-RELEASE"), Version(version) != nil, !version.contains("-") {
            return version
        }
        // DEVELOPMENT-SNAPSHOT-<date>-a, <branch>-DEVELOPMENT-SNAPSHOT-<date>-a, <branch>-SNAPSHOT-<date>-a
        for (marker, isMain) in [("DEVELOPMENT-SNAPSHOT-", true), ("-DEVELOPMENT-SNAPSHOT-", false), ("-SNAPSHOT-", false)] {
            guard let range = upper.range(of: marker) else { continue }
            let branch = String(upper[..<range.lowerBound])
            var date = String(upper[range.upperBound...])
            if date.count == 12, date.hasSuffix("-A") || date.hasSuffix("-B") || date.hasSuffix("-C") { date.removeLast(2) }
            guard isDate(date) else { continue }
            if isMain && branch.isEmpty { return "main-snapshot-" + date }
            if !isMain && isBranch(branch) { return branch + "-snapshot-" + date }
        }
        return word
    }

    /// swift.org's tag of a release: `swift-6.0.3-RELEASE`.
    public static func releaseTag(_ v: Version) -> String { "swift-\(v.text)-RELEASE" }

    /// Whether swift.org's tag `tag` is the toolchain `v` names: a release's
    /// `swift-6.0.3-RELEASE`, a snapshot's `swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a`. A lock's
    /// or a release list's tag is believed only when it passes this.
    public static func tag(_ tag: String, names v: Version) -> Bool {
        switch name(v) {
        case .release?: return tag == releaseTag(v)
        case .snapshot(_, _?)?: return snapshotVersion(dir: tag).map { $0.text == v.text } ?? false
        default: return false
        }
    }

    /// The directory below the download host that holds `v`'s builds: `swift-6.0.3-release`,
    /// `development`, `swift-6.0-branch`.
    public static func branchDirectory(_ v: Version) -> String? {
        switch name(v) {
        case .release?: return releaseDirectory(v)
        case .snapshot(let branch, _?)?: return snapshotDirectory(branch: branch)
        default: return nil
        }
    }

    /// The branch directory of a release on download.swift.org: `swift-6.0.3-release`.
    public static func releaseDirectory(_ v: Version) -> String { "swift-\(v.text)-release" }

    /// The branch directory of a branch's snapshots: `development` for main, `swift-6.0-branch`.
    public static func snapshotDirectory(branch: String) -> String {
        branch == "main" ? "development" : "swift-\(branch)-branch"
    }

    /// tack's name of a snapshot swift.org calls `dir` (`swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a`).
    public static func snapshotVersion(dir: String) -> Version? {
        let n = normalize(dir)
        guard n != dir, let v = Version(word: n), case .snapshot(_, _?)? = name(v) else { return nil }
        return v
    }

    /// `2024-08-30`.
    static func isDate(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D else { return false }
        return b.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (c >= 0x30 && c <= 0x39) }
    }

    /// A release branch: `6.0`, `5.10`.
    static func isBranch(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}

extension String {
    func droppingSuffix(_ suffix: String) -> String? {
        guard utf8.count >= suffix.utf8.count, hasSuffix(suffix) else { return nil }
        return String(decoding: utf8.dropLast(suffix.utf8.count), as: UTF8.self)
    }

    func range(of target: String) -> Range<String.Index>? {
        self[...].range(of: target)
    }
}
