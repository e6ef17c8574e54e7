@testable import TackCore
import TackKit
import Testing

/// What an install says at its end, and what the team cache remembers of a key.
@Suite(.ownThreads) struct InstallSummaryTests {
    @Test func theLastLineSaysWhatHappenedAndNothingWhenNothingDid() {
        #expect(InstallSummary(installed: 0, pulled: 0, already: 3, failed: 0).line == nil)
        #expect(InstallSummary(installed: 2, pulled: 1, already: 3, failed: 0).line == "2 installed (1 from the team cache), 3 already installed")
        #expect(InstallSummary(installed: 0, pulled: 0, already: 0, failed: 1).line == "0 installed, 1 failed")
        // Where each came from: prebuilt downloads, the team cache, builds here and how long.
        var mixed = InstallSummary(installed: 4, pulled: 1, already: 0, failed: 0)
        for origin in [InstallOrigin.prebuilt, .prebuilt, .builtHere(seconds: 100.4)] { mixed.add(origin) }
        #expect(mixed.line == "4 installed (2 prebuilt, 1 from the team cache, 1 built here in 1m 40s)")
        var quick = InstallSummary(installed: 1)
        quick.add(.builtHere(seconds: 2.34))
        #expect(quick.line == "1 installed (1 built here in 2.3s)")
        // Builds that ran together are not added up (issue 43, item 10): the time it all took,
        // then each build's own, the longest first.
        var parallel = InstallSummary(installed: 2)
        parallel.add(.builtHere(seconds: 18 * 60 + 45), tool: "swiftlint")
        parallel.add(.builtHere(seconds: 20 * 60 + 10), tool: "ink")
        parallel.wallSeconds = 23 * 60 + 2
        #expect(parallel.line == "2 installed in 23m 02s (2 built here: ink 20m 10s, swiftlint 18m 45s)")
        #expect(!(parallel.line ?? "").contains("38m"))
        // One way of saying a time, in the summary and in progress lines alike.
        #expect(Elapsed.text(59.96, tenths: true) == "1m 00s" && Elapsed.text(125.4, tenths: true) == "2m 05s")
        #expect(Elapsed.text(0.4, tenths: false) == "" && Elapsed.text(7.9, tenths: false) == "7s")
        #expect(Elapsed.text(125.9, tenths: false) == "2m 05s" && Elapsed.text(3725, tenths: false) == "1h 02m")
        #expect(InstallOrigin(record: InstallOrigin.builtHere(seconds: 2.34).recordFields) == .builtHere(seconds: 2.3))
        #expect(InstallOrigin(record: ["swift": "Swift version 6.0"]) == nil, "a record made before tack kept it")
        #expect(LockPlanner.Change(tool: "jq", from: "1.6", to: "1.7.1").description == "updated jq 1.6 → 1.7.1")
        #expect(LockPlanner.Change(tool: "jq", from: "1.7.1", to: "1.7.1").description == "relocked jq 1.7.1")
    }

    @Test func theCacheRemembersTheDigestFirstSeenForAKey() throws {
        let fs = InMemoryFileSystem()
        let store = try #require(Settings(environment: ["TACK_HOME": "/t", "HOME": "/h"], cwd: "/", fs: fs, backends: .standard).store)
        let tag = String(repeating: "a", count: 64), digest = "sha256:" + String(repeating: "b", count: 64)
        #expect(CacheDigests(store: store).digest(for: tag) == nil)
        CacheDigests(store: store).remember(tag, digest)
        #expect(CacheDigests(store: store).digest(for: tag) == digest)
        CacheDigests(store: store).remember("not-a-tag", digest)
        #expect(CacheDigests(store: store).digest(for: "not-a-tag") == nil, "only a SHA-256 tag is kept")
    }
}
