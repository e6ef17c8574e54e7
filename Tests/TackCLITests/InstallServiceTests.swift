import Foundation
import Testing
import TackCore
import TackKit

/// The install service run in-process, with a backend from memory: what `tack install` does
/// without a process, a network or a build.
@Suite(.ownThreads) struct InstallServiceTests {
    @Test func locksTheNewestAllowedAndInstallsIt() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 1.0\" }\n")
        let report = await InstallService(try Workspace(t.context())).run()
        #expect(report.status == 0, "\(t.notices.problems)")
        var expected = InstallSummary(installed: 1, pulled: 0, already: 0, failed: 0)
        expected.prebuilt = 1
        #expect(report.summary == expected)
        #expect(report.summary.line == "1 installed (1 prebuilt)")
        #expect(t.backend.installs == ["hello@1.1.0"])
        #expect(t.notices.lockChanges == ["locked hello 1.1.0"])
        let lock = try #require(t.sandbox.read("app/tack.lock"))
        #expect(lock.contains("version: \"1.1.0\""), "\(lock)")
        #expect(FileManager.default.isExecutableFile(atPath: t.sandbox.root + "/tack-home/installs/hello/1.1.0/bin/hello"))
        // Again: nothing to do, and nothing said.
        let again = await InstallService(try Workspace(t.context())).run()
        #expect(again.status == 0 && again.summary == InstallSummary(installed: 0, pulled: 0, already: 1, failed: 0))
        #expect(t.backend.installs == ["hello@1.1.0"])
        #expect(again.summary.line == nil)
    }

    @Test func frozenRefusesALockThatNoLongerMatchesAndInstallsNothing() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 1.0\" }\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        try t.sandbox.write("app/tack.yml", "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 2.0\" }\n")
        let before = t.sandbox.read("app/tack.lock")
        let report = await InstallService(try Workspace(t.context(environment: ["TACK_FROZEN": "1"]))).run()
        #expect(report.status == 1)
        // (The first install's own problem, that no tack binary is there to point shims at, aside.)
        #expect(t.notices.failures.compactMap(\.cause) == [.frozen(.lockDiffers(lock: t.sandbox.root + "/app/tack.lock", differences: [
            .disagrees(tool: "hello", .requirement(pinned: "~> 2.0", locked: "~> 1.0"), setBy: t.sandbox.root + "/app/tack.yml:2"),
            .noChecksum(tool: "hello", platform: Platform.current.description),
        ]))], "\(t.notices.problems)")
        #expect(t.sandbox.read("app/tack.lock") == before)
        #expect(t.backend.installs == ["hello@1.1.0"])
    }

    @Test func anUnresolvableToolIsCountedAndTheLockIsLeftAlone() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 3.0\" }\n")
        let report = await InstallService(try Workspace(t.context())).run()
        #expect(report.status == 1)
        #expect(report.summary.failed == 1)
        #expect(t.notices.all.contains { if case .unresolved("hello") = $0 { true } else { false } })
        #expect(t.notices.failures.map(\.cause) == [.resolution(.noVersion(
            tool: "hello", requirement: "~> 3.0", setBy: t.sandbox.root + "/app/tack.yml:2", source: "https://example.com/hello-{version}",
            hint: .nearest(["1.1.0", "2.0.0"], newest: nil)))], "\(t.notices.problems)")
        #expect(t.sandbox.read("app/tack.lock") == nil)
        #expect(t.backend.installs.isEmpty)
    }

    @Test func lockOnlyWritesTheLock() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \">= 1.0\" }\n")
        let workspace = try Workspace(t.context())
        var options = InstallOptions(workspace.context)
        options.install = false
        let report = await InstallService(workspace, options: options).run()
        #expect(report.status == 0)
        #expect(t.backend.installs.isEmpty)
        #expect(t.sandbox.read("app/tack.lock")?.contains("version: \"2.0.0\"") == true)
    }

    static let two = """
        tools:
          hello: { url: "https://example.com/hello-{version}", version: "~> 1.0" }
          world: { url: "https://example.com/world-{version}", version: ">= 1.0" }

        """

    @Test func aLockedVersionStaysUntilAnUpdateAsksAndThenOnlyForWhatItNames() async throws {
        let t = try serviceSetup(Self.two)
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        #expect(Set(t.backend.installs) == ["hello@1.1.0", "world@2.0.0"])
        t.backend.publish("1.2.0")
        t.backend.publish("2.1.0")
        // A new release changes nothing by itself.
        let kept = await InstallService(try Workspace(t.context())).run()
        #expect(kept.summary == InstallSummary(installed: 0, pulled: 0, already: 2, failed: 0))
        // `update hello` moves hello alone, within its requirement.
        let workspace = try Workspace(t.context())
        var options = InstallOptions(workspace.context)
        options.update = .only(["hello"])
        #expect(await InstallService(workspace, options: options).run().status == 0)
        let lock = try #require(t.sandbox.read("app/tack.lock"))
        #expect(lock.contains("version: \"1.2.0\"") && lock.contains("version: \"2.0.0\"") && !lock.contains("2.1.0"), "\(lock)")
        #expect(t.notices.lockChanges.contains("updated hello 1.1.0 → 1.2.0"), "\(t.notices.lockChanges)")
    }

    @Test func onlyTheNamedToolIsInstalled() async throws {
        let t = try serviceSetup(Self.two)
        let workspace = try Workspace(t.context())
        var options = InstallOptions(workspace.context)
        options.only = ["world"]
        #expect(await InstallService(workspace, options: options).run().status == 0)
        #expect(t.backend.installs == ["world@2.0.0"])
    }

    @Test func aFailedInstallIsCountedAndTheRestStillInstall() async throws {
        let t = try serviceSetup(Self.two, failing: ["1.1.0"])
        let report = await InstallService(try Workspace(t.context())).run()
        #expect(report.status == 1)
        #expect(report.summary.failed == 1 && report.summary.installed == 1, "\(report.summary)")
        #expect(t.backend.installs == ["world@2.0.0"])
        #expect(t.notices.problems.contains { $0.contains("hello 1.1.0 does not build") }, "\(t.notices.problems)")
        #expect(!FileManager.default.fileExists(atPath: t.sandbox.root + "/tack-home/installs/hello/1.1.0"), "nothing of the failed install is left")
    }

    /// Two projects pinning the same version share one install; each is remembered, so
    /// pruning for one never takes the other's tools.
    @Test func twoProjectsShareOneInstallAndBothAreRemembered() async throws {
        let t = try serviceSetup(Self.two)
        try t.sandbox.write("other/tack.yml", "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.1.0\" }\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        let second = await InstallService(try Workspace(t.context(in: "other"))).run()
        #expect(second.summary == InstallSummary(installed: 0, pulled: 0, already: 1, failed: 0))
        #expect(t.backend.installs.filter { $0.hasPrefix("hello@") } == ["hello@1.1.0"])
        let known = Set((t.sandbox.read("tack-home/state/projects") ?? "").split(separator: "\n").map(String.init))
        #expect(known == [t.sandbox.root + "/app", t.sandbox.root + "/other"], "\(known)")
    }
}
