import Foundation
import Testing
import TackCore
import TackKit

/// `tack trust`, `tack uninstall` and `tack prune` as services, in-process.
@Suite(.ownThreads) struct MaintenanceServiceTests {
    let entry = "hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }"

    func trust(_ t: ServiceSetup, _ dir: String? = nil, untrust: Bool = false, in cwd: String = "app") throws -> [TrustService.Change] {
        var changes: [TrustService.Change] = []
        try TrustService(t.context(in: cwd)).trust(directory: dir, untrust: untrust) { changes.append($0) }
        return changes
    }

    @Test func trustCoversTheManifestsAndTheVersionFilesTackRead() throws {
        let t = try serviceSetup("tools:\n  \(entry)\nenv:\n  GREETING: hi\n")
        try t.sandbox.write("app/.tool-versions", "other path:/opt/other\n")
        try t.sandbox.mkdir("app/sub")
        let root = t.sandbox.root + "/app"
        #expect(try trust(t, "sub") == [.trusted(root + "/.tool-versions"), .trusted(root + "/tack.yml")])
        let policy = TrustPolicy(settings: t.context().settings)
        #expect(policy.isTrusted(root + "/tack.yml"))
        // Changed since: no longer trusted.
        try t.sandbox.write("app/tack.yml", "tools:\n  \(entry)\nenv:\n  GREETING: bye\n")
        #expect(!TrustPolicy(settings: t.context().settings).isTrusted(root + "/tack.yml"))
        #expect(try trust(t, untrust: true) == [.untrusted(root + "/.tool-versions"), .untrusted(root + "/tack.yml")])
        #expect(try trust(t, untrust: true) == [.wasNotTrusted(root + "/.tool-versions"), .wasNotTrusted(root + "/tack.yml")])
    }

    @Test func trustSaysWhatIsWrong() throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        #expect(throws: TackError.self) { _ = try trust(t, "nowhere") }
        try t.sandbox.mkdir("elsewhere")
        do {
            _ = try trust(t, in: "elsewhere")
            Issue.record("a directory outside any project has nothing to trust")
        } catch {
            let message = (error as? TackError)?.message ?? "\(error)"
            #expect(message.hasPrefix("no tack.yml above"), "\(message)")
        }
    }

    @Test func uninstallRemovesEveryBuildAndSaysWhatIsInstalledInstead() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        let v = try #require(Version("1.0.0"))
        try UninstallService(t.context()).uninstall("hello", v)
        #expect(!FileManager.default.fileExists(atPath: t.sandbox.root + "/tack-home/installs/hello/1.0.0"))
        do {
            try UninstallService(t.context()).uninstall("hello", v)
            Issue.record("uninstalled twice")
        } catch {
            #expect(error.message.hasPrefix("hello 1.0.0 is not installed"), "\(error.message)")
        }
    }

    @Test func pruneKeepsWhatKnownProjectsPinAndForgetsProjectsThatAreGone() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        try t.sandbox.write("other/tack.yml", "tools:\n  \(entry.replacingOccurrences(of: "1.0.0", with: "1.1.0"))\n")
        #expect(await InstallService(try Workspace(t.context(in: "other"))).run().status == 0)
        #expect(t.backend.installs == ["hello@1.0.0", "hello@1.1.0"])
        func prune(dryRun: Bool) throws -> ([PruneService.Step], Int) {
            var steps: [PruneService.Step] = []
            let n = try PruneService(try Workspace(t.context())).prune(dryRun: dryRun) { steps.append($0) }
            return (steps, n)
        }
        #expect(try prune(dryRun: false).1 == 0, "both versions are pinned by a known project")
        try FileManager.default.removeItem(atPath: t.sandbox.root + "/other")
        let (wouldSteps, _) = try prune(dryRun: true)
        #expect(wouldSteps.contains(.version(tool: "hello", version: "1.1.0")))
        #expect(wouldSteps.contains(.forgotten(project: t.sandbox.root + "/other")))
        #expect(FileManager.default.fileExists(atPath: t.sandbox.root + "/tack-home/installs/hello/1.1.0"), "a dry run removes nothing")
        let (steps, n) = try prune(dryRun: false)
        #expect(steps.first == .version(tool: "hello", version: "1.1.0") && n >= 1)
        #expect(!FileManager.default.fileExists(atPath: t.sandbox.root + "/tack-home/installs/hello/1.1.0"))
        #expect(FileManager.default.fileExists(atPath: t.sandbox.root + "/tack-home/installs/hello/1.0.0"))
        #expect(try prune(dryRun: false).0.isEmpty)
    }

    /// A version another known project still pins is uninstalled when asked (the user named
    /// it), and the next install there brings it back.
    @Test func anUninstalledVersionComesBackWithTheNextInstall() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        try UninstallService(t.context()).uninstall("hello", try #require(Version("1.0.0")))
        let again = await InstallService(try Workspace(t.context())).run()
        var expected = InstallSummary(installed: 1, pulled: 0, already: 0, failed: 0)
        expected.prebuilt = 1
        #expect(again.summary == expected)
        #expect(t.backend.installs == ["hello@1.0.0", "hello@1.0.0"])
    }

    @Test func untrustingForgetsOnlyThatProject() throws {
        let t = try serviceSetup("tools:\n  \(entry)\nenv:\n  A: b\n")
        try t.sandbox.write("other/tack.yml", "tools:\n  \(entry)\nenv:\n  C: d\n")
        _ = try trust(t)
        _ = try trust(t, in: "other")
        #expect(try trust(t, untrust: true) == [.untrusted(t.sandbox.root + "/app/tack.yml")])
        let policy = TrustPolicy(settings: t.context().settings)
        #expect(!policy.isTrusted(t.sandbox.root + "/app/tack.yml") && policy.isTrusted(t.sandbox.root + "/other/tack.yml"))
    }
}
