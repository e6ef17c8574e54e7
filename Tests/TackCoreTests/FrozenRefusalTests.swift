import Testing
@testable import TackCore

/// Each --frozen refusal in the words a user reads, said in one place
/// (`FrozenRefusal.message`): the command tests match the case, and this holds the words.
@Suite struct FrozenRefusalTests {
    @Test func eachRefusalSaysWhatIsMissingAndWhatToRun() {
        let cases: [(FrozenRefusal, String)] = [
            (.lockUncovered(covered: ["darwin-arm64", "linux-x86_64"], platform: "linux-arm64"),
             "tack.lock covers darwin-arm64, linux-x86_64, not linux-arm64, and --frozen installs only what it can verify — run `tack lock --platform linux-arm64` (on any machine) and commit tack.lock; nothing was installed"),
            (.setUncovered(noun: "gems", tool: "rake 13.0", covered: ["darwin-arm64"], platform: "linux-x86_64"),
             "tack.lock locks the gems of rake 13.0 for darwin-arm64, not linux-x86_64, and --frozen installs only what it can verify — run `tack lock --platform linux-x86_64` (on any machine) and commit tack.lock; nothing was installed"),
            (.setUnrecorded(noun: "distributions", tool: "black 24.1.0"),
             "tack.lock records no distributions for black 24.1.0, and --frozen installs only what it records — run `tack install` without --frozen once"),
            (.noChecksum(tool: "jq 1.7.1", of: "linux-x86_64", remedy: .lock),
             "tack.lock has no checksum of jq 1.7.1 for linux-x86_64, and --frozen installs only what it can verify — run `tack lock` to add it; nothing was installed"),
            (.noChecksum(tool: "swift 6.0.3", of: nil, remedy: .installOnce),
             "tack.lock has no checksum of swift 6.0.3, and --frozen installs only what it can verify — run `tack install` without --frozen once to record it; nothing was installed"),
            (.lockDiffers(lock: "~/app/tack.lock", differences: [
                .disagrees(tool: "a", .requirement(pinned: "1.1", locked: "1.0.0"), setBy: "~/app/tack.yml:2"),
                .disagrees(tool: "b", .source(pinned: "git /src/b", locked: "git /src/a"), setBy: "~/app/tack.yml:3"),
                .noChecksum(tool: "jq", platform: "linux-x86_64"),
                .unlocked(tool: "d", requirement: "1.0.0", setBy: "~/app/tack.yml:4"),
                .unpinned(tool: "c"),
            ]), """
                ~/app/tack.lock does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it — nothing was installed:
                  - a: the requirement is 1.1 (set by ~/app/tack.yml:2), but tack.lock was resolved for 1.0.0
                  - b: the source is git /src/b (set by ~/app/tack.yml:3), but tack.lock has git /src/a
                  - jq: tack.lock has no checksum for linux-x86_64 — run `tack lock` to add it
                  - d 1.0.0 is pinned (set by ~/app/tack.yml:4) but not in tack.lock
                  - c is in tack.lock but no longer pinned
                run `tack lock` and commit tack.lock
                """),
        ]
        for (refusal, words) in cases {
            #expect(refusal.message == words)
            let error = TackError(refusal)
            #expect(error.message == words && error.cause == .frozen(refusal))
        }
    }
}
