import Foundation
import Testing
@testable import Backends
import BackendKinds
import TackCore

/// The rules pip and gem tools share (`PackageSet`): which part of a set locked for several
/// platforms this one installs, what `--frozen` refuses, and the lock fields an install records.
@Suite struct PackageSetTests {
    static let origin = Origin(kind: .manifest, file: "/p/tack.yml", line: 2, column: 3)
    static let other = Platform.current.description == "linux-arm64" ? "darwin-arm64" : "linux-arm64"

    func job(_ fields: [String: LockValue], frozen: Bool = false, phases: Phases = Phases()) -> InstallJob {
        let request = ToolRequest(name: "black", requirement: .latest, source: .pip("black"), origin: Self.origin)
        let locked = LockedTool(name: "black", version: Version("24.1.0")!, requested: "24", backend: "pip", source: "black", fields: fields)
        var job = InstallJob(request: request, locked: locked, directory: "/i", scratch: "/s", cache: "/c", report: { phases.add($0) })
        job.frozen = frozen
        return job
    }

    final class Phases: @unchecked Sendable {
        private let lock = NSLock()
        private var said: [InstallPhase] = []
        func add(_ p: InstallPhase) { lock.withLock { said.append(p) } }
        var all: [InstallPhase] { lock.withLock { said } }
    }

    func selection(_ byPlatform: [String: String]) -> [String: LockValue] { [PlatformSelection.field: .map(byPlatform)] }

    @Test func aLockForThisPlatformGivesItsOwnNames() async throws {
        let j = job(selection([Platform.current.description: "black click", Self.other: "black"]))
        var chosen = PlatformSelection(j.locked)
        let here = try await PackageSet(j.locked, noun: "distributions").forThisPlatform(&chosen, job: j, recorded: { $0 }, name: { $0 }) { () async throws(TackError) in
            Issue.record("resolved though the lock covers this platform")
            return []
        }
        #expect(here?.pins == ["black", "click"] && here?.resolvedHere == false)
        #expect(chosen == PlatformSelection(j.locked))
    }

    @Test func aLockForOtherPlatformsIsResolvedHereAndRecorded() async throws {
        let phases = Phases()
        let j = job(selection([Self.other: "black"]), phases: phases)
        var chosen = PlatformSelection(j.locked)
        let here = try await PackageSet(j.locked, noun: "gems").forThisPlatform(&chosen, job: j, recorded: { $0 }, name: { $0 }) { () async throws(TackError) in ["black", "mypy"] }
        #expect(here?.pins == ["black", "mypy"] && here?.resolvedHere == true)
        #expect(chosen.names(for: .current) == ["black", "mypy"] && chosen.covered == [Self.other, Platform.current.description])
        #expect(phases.all == [.custom("resolving for \(Platform.current)")])
    }

    @Test func frozenRefusesAPlatformTheLockDoesNotCover() async throws {
        for noun in ["distributions", "gems"] {
            let j = job(selection([Self.other: "black"]), frozen: true)
            var chosen = PlatformSelection(j.locked)
            do {
                _ = try await PackageSet(j.locked, noun: noun).forThisPlatform(&chosen, job: j, recorded: { $0 }, name: { $0 }) { () async throws(TackError) in
                    Issue.record("resolved under --frozen")
                    return []
                }
                Issue.record("--frozen installed for a platform the lock does not cover")
            } catch {
                #expect(error.cause == .frozen(.setUncovered(noun: noun, tool: "black 24.1.0", covered: [Self.other], platform: Platform.current.description)))
            }
        }
    }

    @Test func aLockWithNoSelectionIsTheWholeSetAndFrozenNeedsOne() async throws {
        let j = job([:])
        var chosen = PlatformSelection(j.locked)
        #expect(try await PackageSet(j.locked, noun: "gems").forThisPlatform(&chosen, job: j, recorded: { $0 }, name: { $0 }) { () async throws(TackError) in [] } == nil)
        try PackageSet(j.locked, noun: "gems").requireRecorded(j)
        #expect(throws: TackError(.setUnrecorded(noun: "gems", tool: "black 24.1.0"))) {
            try PackageSet(j.locked, noun: "gems").requireRecorded(job([:], frozen: true))
        }
    }

    @Test func whatAnInstallRecordsAndRefuses() throws {
        let record: [String: LockValue] = ["gems": .map(["black": "24.1.0"])]
        #expect(PackageSet.lockFields(record, selection: PlatformSelection(job([:]).locked)) == record)
        let several = PlatformSelection(job(selection([Self.other: "black"])).locked)
        #expect(PackageSet.lockFields(record, selection: several) == record.merging([PlatformSelection.field: several.lockValue]) { $1 })
        let set = PackageSet(tool: "black 24.1.0", noun: "distributions")
        try set.requireSelected(true, package: "black")
        #expect(throws: TackError("resolving black 24.1.0 for \(Self.other) did not select blak itself — is `blak` the package's name?\nwhat it said")) {
            try set.requireSelected(false, package: "blak", platform: Platform(key: Self.other), output: "what it said")
        }
        #expect(throws: TackError("the gem rake 13.0 has no executables, so there is nothing to run — is it a library rather than a tool?")) {
            try PackageSet.requireSomething([], package: "the gem rake 13.0", programs: "executables")
        }
    }
}
