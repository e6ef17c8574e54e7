import Foundation
import Testing
import TackCore
import TackKit

/// The install service run in-process, with a backend from memory: what `tack install` does
/// without a process, a network or a build.
@Suite struct InstallServiceTests {
    @Test func locksTheNewestAllowedAndInstallsIt() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 1.0\" }\n")
        let report = await InstallService(try Workspace(t.context())).run()
        #expect(report.status == 0, "\(t.notices.problems)")
        #expect(report.summary == InstallSummary(installed: 1, pulled: 0, already: 0, failed: 0))
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
        #expect(t.notices.problems.contains { $0.contains("does not match what is pinned") && $0.contains("the requirement is ~> 2.0 (set by") }, "\(t.notices.problems)")
        #expect(t.sandbox.read("app/tack.lock") == before)
        #expect(t.backend.installs == ["hello@1.1.0"])
    }

    @Test func anUnresolvableToolIsCountedAndTheLockIsLeftAlone() async throws {
        let t = try serviceSetup("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"~> 3.0\" }\n")
        let report = await InstallService(try Workspace(t.context())).run()
        #expect(report.status == 1)
        #expect(report.summary.failed == 1)
        #expect(t.notices.all.contains { if case .unresolved("hello") = $0 { true } else { false } })
        #expect(t.notices.problems.contains { $0.contains("no version of hello matches ~> 3.0") }, "\(t.notices.problems)")
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
}
