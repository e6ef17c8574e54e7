import Testing
@testable import TackCore

/// Each resolution failure in the words a user reads, said in one place
/// (`ResolutionFailure.message`): the command tests match the case, and this holds the words.
@Suite struct ResolutionFailureTests {
    @Test func eachFailureSaysWhatThereIsAndWhatToDo() {
        let at = "/work/app/tack.yml:2"
        let age = ReleaseAge(seconds: 3 * 86400, text: "3d", origin: "TACK_MIN_RELEASE_AGE")
        let cases: [(ResolutionFailure, String)] = [
            (.noVersion(tool: "jq", requirement: "9.9", setBy: at, source: "https://example.com/jq", hint: .newest("1.7.1")),
             "no version of jq matches 9.9 (set by /work/app/tack.yml:2) at https://example.com/jq; the newest is 1.7.1 — nothing was locked"),
            (.noVersion(tool: "swift", requirement: "6.0.9", setBy: at, source: "swift.org", hint: .nearest(["6.0.2", "6.0.3", "6.1"], newest: "6.2")),
             "no version of swift matches 6.0.9 (set by /work/app/tack.yml:2) at swift.org; the nearest are 6.0.2, 6.0.3, 6.1; the newest is 6.2 — nothing was locked"),
            (.noVersion(tool: "swift", requirement: "6.0.9", setBy: at, source: "swift.org", hint: .nearest(["6.0.2", "6.1"], newest: nil)),
             "no version of swift matches 6.0.9 (set by /work/app/tack.yml:2) at swift.org; the nearest are 6.0.2, 6.1 — nothing was locked"),
            (.noVersion(tool: "jq", requirement: "latest", setBy: at, source: "https://example.com/jq", hint: .noVersions),
             "no version of jq matches latest (set by /work/app/tack.yml:2) at https://example.com/jq; it has no versions at all — nothing was locked"),
            (.noVersion(tool: "jq", requirement: "2.0.0-rc9", setBy: at, source: "https://example.com/jq", hint: .none),
             "no version of jq matches 2.0.0-rc9 (set by /work/app/tack.yml:2) at https://example.com/jq — nothing was locked"),
            (.noVersion(tool: "node", requirement: "lts", setBy: at, source: "https://example.com/node", hint: .noLTSLines),
             "no version of node matches lts (set by /work/app/tack.yml:2) at https://example.com/node; its version index says nothing of LTS lines (a url tool's `versions.regex` names them with a `(?<lts>…)` group) — nothing was locked"),
            (.tooYoung(tool: "hello", version: "1.1.0", requirement: nil, setBy: at, age: "1 day", minimum: age),
             "hello 1.1.0 was published 1 day ago, and min_release_age is 3d (set by TACK_MIN_RELEASE_AGE) — pin an older version, wait, or allow it once with TACK_MIN_RELEASE_AGE=0 (set by /work/app/tack.yml:2)"),
            (.tooYoung(tool: "hello", version: "2.0.0", requirement: "~> 2.0", setBy: at, age: "5 hours", minimum: age),
             "hello 2.0.0 is the only version ~> 2.0 allows (set by /work/app/tack.yml:2), and it was published 5 hours ago; min_release_age is 3d (set by TACK_MIN_RELEASE_AGE) — wait, or allow it with TACK_MIN_RELEASE_AGE=0"),
            (.offline(tool: "lib", requirement: "ref: main", setBy: at, needs: .commit),
             "TACK_OFFLINE is set, and tack.lock has no commit for lib ref: main (set by /work/app/tack.yml:2) — unset TACK_OFFLINE to resolve it"),
            (.offline(tool: "hello", requirement: "1.0.0", setBy: at, needs: .install),
             "TACK_OFFLINE is set, and no installed version of hello matches 1.0.0 (set by /work/app/tack.yml:2) — unset TACK_OFFLINE to fetch it"),
            (.noVersionIndex(tool: "hello", setBy: at),
             "hello is a url tool without a `versions:` index, so tack cannot list its versions — pin an exact version like 1.2.3, or add `versions: { url: …, regex: … }` (set by /work/app/tack.yml:2)"),
            (.notInstallable(tool: "ruby", requirement: "system"),
             "ruby is pinned to `system`, which tack runs but does not install"),
            (.notInstalled(tool: "jq", version: "1.7.1", setBy: "~/app/tack.yml:2"),
             "jq 1.7.1 is not installed (set by ~/app/tack.yml:2) — run `tack install`"),
        ]
        for (failure, words) in cases {
            #expect(failure.message == words)
            let error = TackError(failure)
            #expect(error.message == words && error.cause == .resolution(failure))
        }
        #expect(TackError.notInstalled("jq", "1.7.1", setBy: "TACK_JQ_VERSION").cause == .resolution(.notInstalled(tool: "jq", version: "1.7.1", setBy: "TACK_JQ_VERSION")))
    }

    /// What a "no version" error adds: the versions around the one asked for and the newest
    /// release, or the newest alone, or that there are none.
    @Test func theHintNamesWhatThereIs() throws {
        func available(_ versions: String...) -> [AvailableVersion] { versions.compactMap { Version($0).map { AvailableVersion(version: $0) } } }
        func hint(_ requirement: String, _ versions: [AvailableVersion]) throws -> ResolutionFailure.Hint {
            LockPlanner.hint(try Requirement.parse(requirement), among: versions)
        }
        #expect(try hint("9.9", available("1.0.0")) == .newest("1.0.0"))
        #expect(try hint("6.0.9", available("6.0.2", "6.0.3", "6.1", "6.2")) == .nearest(["6.0.2", "6.0.3", "6.1"], newest: "6.2"))
        #expect(try hint("6.0.9", available("6.0.2", "6.1")) == .nearest(["6.0.2", "6.1"], newest: nil))
        #expect(try hint("1.0", available()) == .noVersions)
        #expect(try hint("lts/*", available("20.1.0")) == .noLTSLines)
    }
}
