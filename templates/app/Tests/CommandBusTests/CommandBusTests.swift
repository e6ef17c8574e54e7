import CommandBus
import Foundation
import Synchronization
import Testing

struct Append: Command {
    static let typeName = "test.append"
    var id = UUID()
    var value: Int
}

struct Fail: Command {
    static let typeName = "test.fail"
    var id = UUID()
}

struct Unhandled: Command {
    static let typeName = "test.unhandled"
    var id = UUID()
}

final class Log: Sendable {
    let values = Mutex<[Int]>([])
    func add(_ v: Int) { values.withLock { $0.append(v) } }
    var all: [Int] { values.withLock { $0 } }
}

struct Boom: Error {}

@Suite struct CommandBusTests {
    func handlers(_ log: Log, delay: Bool = false) throws -> Handlers {
        var h = Handlers()
        try h.register(Append.self) { c in
            // Later commands sleep less: only the bus's ordering keeps them in order.
            if delay { try await Task.sleep(nanoseconds: UInt64(max(0, 20 - c.value)) * 1_000_000) }
            log.add(c.value)
        }
        try h.register(Fail.self) { _ in throw Boom() }
        return h
    }

    @Test func twoHandlersForOneTypeIsAnError() throws {
        var h = try handlers(Log())
        #expect(throws: CommandBusError.duplicateHandler("test.append")) { try h.register(Append.self) { _ in } }
    }

    @Test func runsInTheOrderSentAndJournalsFirst() async throws {
        let log = Log()
        let journal = MemoryJournal()
        let bus = CommandBus(handlers: try handlers(log, delay: true), journal: journal)
        // Sent one after another without waiting for each to finish; earlier commands' handlers
        // take longer, so without the bus's ordering they would finish out of order.
        var tasks: [Task<Void, any Error>] = []
        for i in 0..<10 {
            tasks.append(Task { try await bus.send(Append(value: i)) })
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        for t in tasks { try await t.value }
        #expect(log.all == Array(0..<10))
        let journaled = try await journal.entries().map { try $0.decode(Append.self).value }
        #expect(journaled == Array(0..<10))
    }

    @Test func reportsAcceptedCompletedAndFailed() async throws {
        let bus = CommandBus(handlers: try handlers(Log()))
        let ok = Append(value: 1), bad = Fail()
        try await bus.send(ok)
        await #expect(throws: Boom.self) { try await bus.send(bad) }
        await #expect(throws: CommandBusError.noHandler("test.unhandled")) { try await bus.send(Unhandled()) }
        await bus.finish()
        var events: [BusEvent] = []
        for await e in bus.events { events.append(e) }
        #expect(events.count == 4)
        #expect(Array(events.prefix(3)) == [.accepted(id: ok.id, type: "test.append"), .completed(id: ok.id, type: "test.append"), .accepted(id: bad.id, type: "test.fail")])
        if case .failed(let id, let type, _) = events[3] { #expect(id == bad.id && type == "test.fail") } else { Issue.record("\(events[3])") }
    }

    @Test func replaysAJournalAfterACrashOrWithoutOneEntryToUndoIt() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("journal.jsonl")
        let first = Log()
        let bus = CommandBus(handlers: try handlers(first), journal: try FileJournal(url: url))
        let commands = (1...4).map { Append(value: $0) }
        for c in commands { try await bus.send(c) }
        // A crash mid-write leaves a torn last line; it is ignored.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"id\":\"tor".utf8))
        try handle.close()

        // "After the crash": a fresh process replays the journal on a fresh state.
        let replayed = Log()
        let again = CommandBus(handlers: try handlers(replayed), journal: try FileJournal(url: url))
        try await again.replayJournal()
        #expect(replayed.all == [1, 2, 3, 4])
        // Undo the third: replay without it.
        let undone = Log()
        let third = CommandBus(handlers: try handlers(undone), journal: try FileJournal(url: url))
        try await third.replayJournal(skipping: [commands[2].id])
        #expect(undone.all == [1, 2, 4])
    }
}
