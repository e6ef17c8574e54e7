/// Why a pin has no version tack can lock or run: one case for each, with what it names (`setBy`:
/// where the pin was set, as said to the user), said
/// in one place (`message`), so every such error reads alike and tests match the case.
public enum ResolutionFailure: Sendable, Equatable {
    /// No version `source`'s index lists satisfies the requirement; `hint` says what there is.
    case noVersion(tool: String, requirement: String, setBy: String, source: String, hint: Hint)
    /// The one version the pin would take was published `age` ago, younger than min_release_age:
    /// the only one `requirement` allows, or (nil) the version the pin names.
    case tooYoung(tool: String, version: String, requirement: String?, setBy: String, age: String, minimum: ReleaseAge)
    /// TACK_OFFLINE is set, and the pin needs what only the network answers.
    case offline(tool: String, requirement: String, setBy: String, needs: OfflineNeed)
    /// A range pin of a url tool whose manifest entry gives no `versions:` index to list.
    case noVersionIndex(tool: String, setBy: String)
    /// The pin names what tack runs but never installs (`path:`, `system`).
    case notInstallable(tool: String, requirement: String)
    /// A pinned version (`jq 1.7.1`) that is not installed.
    case notInstalled(tool: String, version: String, setBy: String)

    /// What a `noVersion` error adds about the versions there are.
    public enum Hint: Sendable, Equatable {
        /// Nothing to add (the index lists only pre-releases, none near).
        case none
        /// The newest release.
        case newest(String)
        /// Up to three versions around the one the requirement names, and the newest release
        /// where it is not the last of them.
        case nearest([String], newest: String?)
        /// The index lists no version at all.
        case noVersions
        /// An `lts` pin, and the index says nothing of LTS lines.
        case noLTSLines
    }

    /// What TACK_OFFLINE kept tack from looking up.
    public enum OfflineNeed: Sendable, Equatable {
        /// The commit a `ref:` pin follows (tack.lock records none).
        case commit
        /// An installed version the requirement allows (none is).
        case install
    }

    /// The failure in words, with what to do.
    public var message: String {
        switch self {
        case .noVersion(let tool, let requirement, let setBy, let source, let hint):
            let more: String
            switch hint {
            case .none: more = ""
            case .newest(let v): more = "; the newest is \(v)"
            case .nearest(let near, let newest): more = "; the nearest are \(near.joined(separator: ", "))" + (newest.map { "; the newest is \($0)" } ?? "")
            case .noVersions: more = "; it has no versions at all"
            case .noLTSLines: more = "; its version index says nothing of LTS lines (a url tool's `versions.regex` names them with a `(?<lts>…)` group)"
            }
            return "no version of \(tool) matches \(requirement) (set by \(setBy)) at \(source)\(more) — nothing was locked"
        case .tooYoung(let tool, let version, let requirement, let setBy, let age, let minimum):
            guard let requirement else {
                return "\(tool) \(version) was published \(age) ago, and min_release_age is \(minimum.text) (set by \(minimum.origin)) — pin an older version, wait, or allow it once with TACK_MIN_RELEASE_AGE=0 (set by \(setBy))"
            }
            return "\(tool) \(version) is the only version \(requirement) allows (set by \(setBy)), and it was published \(age) ago; min_release_age is \(minimum.text) (set by \(minimum.origin)) — wait, or allow it with TACK_MIN_RELEASE_AGE=0"
        case .offline(let tool, let requirement, let setBy, let needs):
            switch needs {
            case .commit:
                return "TACK_OFFLINE is set, and tack.lock has no commit for \(tool) \(requirement) (set by \(setBy)) — unset TACK_OFFLINE to resolve it"
            case .install:
                return "TACK_OFFLINE is set, and no installed version of \(tool) matches \(requirement) (set by \(setBy)) — unset TACK_OFFLINE to fetch it"
            }
        case .noVersionIndex(let tool, let setBy):
            return "\(tool) is a url tool without a `versions:` index, so tack cannot list its versions — pin an exact version like 1.2.3, or add `versions: { url: …, regex: … }` (set by \(setBy))"
        case .notInstallable(let tool, let requirement):
            return "\(tool) is pinned to `\(requirement)`, which tack runs but does not install"
        case .notInstalled(let tool, let version, let setBy):
            return "\(tool) \(version) is not installed (set by \(setBy)) — run `tack install`"
        }
    }
}

extension TackError {
    /// A resolution failure, in its words (`ResolutionFailure.message`).
    public init(_ failure: ResolutionFailure) {
        self.init(failure.message)
        cause = .resolution(failure)
    }
}
