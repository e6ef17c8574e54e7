import Foundation
import TackCore
import Testing

/// The lock planner in-process with a backend from memory: entries that still describe their
/// pin are kept, a failed resolution loses nothing, offline picks from what is installed, and
/// a requirement nothing meets says what exists instead.
@Suite(.ownThreads) struct LockPlannerTests {
    let origin = Origin(kind: .manifest, file: "/app/tack.yml", line: 2, column: 3)

    func request(_ name: String, _ requirement: String) throws -> ToolRequest {
        ToolRequest(name: name, requirement: try Requirement.parse(requirement), source: .url("https://example.com/\(name)-{version}"), origin: origin)
    }

    @Test func keptEntriesRemovedToolsAndAFailedUpdateThatLosesNothing() async throws {
        let backend = MemoryBackend(versions: ["1.0.0", "1.1.0", "2.0.0"])
        let planner = LockPlanner(registry: BackendRegistry([backend]))
        let first = await planner.plan([try request("hello", "~> 1.0"), try request("gone", "1.0.0")], existing: Lockfile(), update: .none)
        #expect(first.failures.isEmpty && first.lock.tools["hello"]?.version.text == "1.1.0")
        #expect(first.changes.map(\.description) == ["locked gone 1.0.0", "locked hello 1.1.0"])
        backend.publish("1.2.0")
        // The pin still matches its entry: kept, even with a newer release; `gone` is dropped.
        let second = await planner.plan([try request("hello", "~> 1.0")], existing: first.lock, update: .none)
        #expect(second.lock.tools["hello"] == first.lock.tools["hello"])
        #expect(second.changes.map(\.description) == ["removed gone 1.0.0 from tack.lock"])
        // An update to a requirement nothing meets fails and keeps the old entry.
        let failed = await planner.plan([try request("hello", "~> 3.0")], existing: second.lock, update: .all)
        guard case .resolution(.noVersion(let tool, let requirement, _, _, _))? = failed.failures["hello"]?.cause else {
            Issue.record("\(String(describing: failed.failures["hello"]))")
            return
        }
        #expect(tool == "hello" && requirement == "~> 3.0")
        #expect(failed.lock.tools["hello"] == second.lock.tools["hello"] && failed.changes.isEmpty)
    }

    @Test func offlineChoosesTheNewestMatchingInstallAndSaysWhenThereIsNone() async throws {
        let planner = LockPlanner(registry: BackendRegistry([MemoryBackend(versions: ["9.9.9"])]))
        let pin = try request("hello", "~> 1.0")
        func installed(_ v: String) -> LockedTool {
            var e = LockedTool(name: "hello", version: Version(v)!, requested: v, backend: "url", source: "https://example.com/hello-{version}")
            e.fields["binaries"] = .list(["bin/hello"])
            return e
        }
        let entry = try await planner.resolve(pin, installed: [installed("1.0.0"), installed("1.4.0"), installed("2.0.0")], offline: true)
        #expect(entry.version.text == "1.4.0" && entry.requested == "~> 1.0" && entry.fields["binaries"] == nil)
        await #expect(throws: TackError.self) { _ = try await planner.resolve(pin, installed: [installed("2.0.0")], offline: true) }
        let missing = try request("hello", "1.0.9")
        do {
            _ = try await LockPlanner(registry: BackendRegistry([MemoryBackend(versions: ["1.0.2", "1.0.3", "1.1.0"])])).resolve(missing)
            Issue.record("1.0.9 resolved")
        } catch {
            #expect(error.message.contains("the nearest are 1.0.2, 1.0.3, 1.1.0"), "\(error.message)")
        }
    }
}
