import Foundation
import Testing
import TackCore
import TackKit

/// `tack use` as a service, in-process: pinned, locked and installed, or both files as they were.
@Suite(.ownThreads) struct PinServiceTests {
    let entry = "hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }"

    @Test func changesTheVersionInPlaceKeepingTheRestOfTheFile() async throws {
        let t = try serviceSetup("# our tools\ntools:\n  \(entry)  # the greeter\n")
        let (requirement, outcome) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: try Requirement.parse("1.1.0")))
        #expect(requirement.description == "1.1.0")
        #expect(outcome == .pinned(file: t.sandbox.root + "/app/tack.yml"))
        let yml = try #require(t.sandbox.read("app/tack.yml"))
        #expect(yml == "# our tools\ntools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.1.0\" }  # the greeter\n", "\(yml)")
        #expect(t.sandbox.read("app/tack.lock")?.contains("version: \"1.1.0\"") == true)
        #expect(t.backend.installs == ["hello@1.1.0"])
    }

    @Test func withoutAVersionPinsTheNewestExactly() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        let (requirement, outcome) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: nil))
        #expect(requirement.description == "2.0.0")
        #expect(outcome == .pinned(file: t.sandbox.root + "/app/tack.yml"))
        #expect(t.backend.installs == ["hello@2.0.0"])
    }

    @Test func aFailedInstallPutsBothFilesBack() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n", failing: ["2.0.0"])
        let (_, first) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: try Requirement.parse("1.0.0")))
        #expect(first == .pinned(file: t.sandbox.root + "/app/tack.yml"))
        let yml = t.sandbox.read("app/tack.yml"), lock = t.sandbox.read("app/tack.lock")
        let (_, outcome) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: try Requirement.parse("2.0.0")))
        guard case .failed(let file, let report) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(file == t.sandbox.root + "/app/tack.yml" && report.status == 1)
        #expect(t.sandbox.read("app/tack.yml") == yml)
        #expect(t.sandbox.read("app/tack.lock") == lock)
        #expect(t.notices.problems.contains { $0.contains("hello 2.0.0 does not build") }, "\(t.notices.problems)")
    }

    @Test func aNearerPinIsSaid() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        try t.sandbox.write("app/tack.local.yml", "tools:\n  hello: 1.0.0\n")
        let (_, outcome) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: try Requirement.parse("1.1.0")))
        guard case .shadowed(let file, let winner) = outcome else {
            Issue.record("expected the pin to be shadowed, got \(outcome)")
            return
        }
        #expect(file == t.sandbox.root + "/app/tack.yml")
        #expect(winner.contains("tack.local.yml"), "\(winner)")
        #expect(t.backend.installs.isEmpty)
    }

    @Test func frozenChangesNothing() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        await #expect(throws: TackError.self) {
            _ = try await PinService(t.context(environment: ["TACK_FROZEN": "1"])).pin(.init(tool: "hello", requirement: nil))
        }
        #expect(t.sandbox.read("app/tack.yml") == "tools:\n  \(entry)\n")
        #expect(t.sandbox.read("app/tack.lock") == nil)
    }

    @Test func aNewToolIsAddedWithItsSourceAndTheGlobalManifestWhenAsked() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        var pin = PinService.Pin(tool: "world", requirement: try Requirement.parse("1.1.0"))
        pin.entrySource = "url: \"https://example.com/world-{version}\""
        let (_, outcome) = try await PinService(t.context()).pin(pin)
        #expect(outcome == .pinned(file: t.sandbox.root + "/app/tack.yml"))
        let yml = try #require(t.sandbox.read("app/tack.yml"))
        #expect(yml.hasPrefix("tools:\n  \(entry)\n  world: {"), "\(yml)")
        #expect(yml.contains("version: \"1.1.0\"") || yml.contains("version: 1.1.0"), "\(yml)")
        #expect(t.backend.installs == ["world@1.1.0"])
        // --global: the user's own manifest, not the project's.
        var global = PinService.Pin(tool: "hello", requirement: try Requirement.parse("2.0.0"))
        global.global = true
        global.entrySource = "url: \"https://example.com/hello-{version}\""
        let (_, globalOutcome) = try await PinService(t.context()).pin(global)
        let manifest = try #require(t.context().settings.globalManifest)
        // The project pins hello itself, so here the global pin is written and shadowed.
        guard case .shadowed(let file, let winner) = globalOutcome else {
            Issue.record("expected the global pin to be shadowed here, got \(globalOutcome)")
            return
        }
        #expect(file == manifest && winner.contains("app/tack.yml"), "\(file) \(winner)")
        #expect(t.sandbox.read(String(manifest.dropFirst(t.sandbox.root.count + 1)))?.contains("hello") == true)
        #expect(t.sandbox.read("app/tack.yml") == yml, "the project's file is untouched")
    }

    @Test func aRequirementNoReleaseMeetsChangesNothing() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        let (_, outcome) = try await PinService(t.context()).pin(.init(tool: "hello", requirement: try Requirement.parse("~> 9.0")))
        guard case .failed(_, let report) = outcome else {
            Issue.record("a requirement no release meets was pinned: \(outcome)")
            return
        }
        #expect(report.status == 1)
        #expect(t.sandbox.read("app/tack.yml") == "tools:\n  \(entry)\n")
        #expect(t.backend.installs.isEmpty)
    }
}
