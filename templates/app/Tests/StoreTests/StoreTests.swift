import CommandBus
import Foundation
import Store
import Synchronization
import Testing

struct Counter: Codable, Sendable, Equatable { var count = 0 }

struct Increment: Command {
    static let typeName = "counter.increment"
    var id = UUID()
    var by = 1
}

@Suite struct StoreTests {
    func temporary() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)") }

    func wired(_ url: URL, warn: @escaping @Sendable (String) -> Void = { _ in }) throws -> (Store<Counter>, CommandBus) {
        let store = Store(snapshotURL: url, initial: Counter(), warn: warn)
        var handlers = Handlers()
        try handlers.register(Increment.self, on: store) { c, state in state.count += c.by }
        return (store, CommandBus(handlers: handlers))
    }

    @Test func handlersChangeStateObserversSeeItAndTheNextLaunchRestoresIt() async throws {
        let dir = temporary()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state.json")
        let (store, bus) = try wired(url)
        let seen = Mutex<[Int]>([])
        store.observe { state in seen.withLock { $0.append(state.count) } }
        try await bus.send(Increment())
        try await bus.send(Increment(by: 5))
        #expect(store.state.count == 6)
        #expect(seen.withLock { $0 } == [1, 6])
        await store.flush()
        // The next launch: restored synchronously, in the initializer.
        let (restored, _) = try wired(url)
        #expect(restored.state.count == 6)
        // Written atomically: no temporary files left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state.json"])
    }

    @Test func aCorruptSnapshotStartsFreshAndIsKeptAside() throws {
        let dir = temporary()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("state.json")
        try Data("{\"count\": \"not a number".utf8).write(to: url)
        let warnings = Mutex<[String]>([])
        let (store, _) = try wired(url) { w in warnings.withLock { $0.append(w) } }
        #expect(store.state == Counter())
        #expect(warnings.withLock { $0.count } == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files.count == 1 && files[0].hasPrefix("state.json.corrupt-"), "\(files)")
        #expect(try String(contentsOf: dir.appendingPathComponent(files[0]), encoding: .utf8) == "{\"count\": \"not a number")
    }
}
