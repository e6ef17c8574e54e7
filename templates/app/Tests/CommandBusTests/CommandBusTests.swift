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

final class Log: Sendable {
    let values = Mutex<[Int]>([])
    func add(_ v: Int) { values.withLock { $0.append(v) } }
    var all: [Int] { values.withLock { $0 } }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("CommandBusTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct CommandBusTests {
    func handlers(_ log: Log, delay: Bool = false, replaysApplied: Bool = false) throws -> Handlers {
        var h = Handlers()
        try h.register(Append.self, replaysApplied: replaysApplied) { c, _ in
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

    @Test func runsInTheOrderSentAndJournalsBeforeRunning() async throws {
        let log = Log()
        let journal = MemoryJournal()
        var h = Handlers()
        try h.register(Append.self, replaysApplied: false) { c, context in
            // The command is in the journal before its handler runs.
            #expect(journal.records().contains(JournalRecord(seq: context.seq, .command(try JournalEntry(c)))))
            try await Task.sleep(nanoseconds: UInt64(max(0, 20 - c.value)) * 1_000_000)
            log.add(c.value)
        }
        let bus = try CommandBus(handlers: h, journal: journal)
        var tasks: [Task<Void, any Error>] = []
        for i in 0..<10 {
            tasks.append(Task { try await bus.send(Append(value: i)) })
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        for t in tasks { try await t.value }
        #expect(log.all == Array(0..<10))
        let commands = try journal.commands(after: 0)
        #expect(commands.map(\.seq) == Array(1...10))
        #expect(try commands.map { try $0.entry.decode(Append.self).value } == Array(0..<10))
        #expect(commands.allSatisfy { $0.outcome == .applied })
    }

    @Test func eachRecordHasASequenceNumberALengthAChecksumAndTheOutcome() async throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("journal.log")
        let bus = try CommandBus(handlers: try handlers(Log()), journal: try FileJournal(url: url))
        try await bus.send(Append(value: 7))
        await #expect(throws: Boom.self) { try await bus.send(Fail()) }
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let fields = lines.map { $0.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init) }
        #expect(fields.map { $0[0] + $0[1] } == ["1C", "1A", "2C", "2F"])
        for f in fields {
            let body = f.count > 4 ? f[4] : ""
            #expect(Int(f[2]) == body.utf8.count)
            let crc = CRC32.checksum(Array(body.utf8), continuing: CRC32.checksum(Array("\(f[0]) \(f[1]) \(f[2]) ".utf8)))
            #expect(f[3] == String(format: "%08x", crc))
        }
        #expect(fields[3][4] == "boom")
    }

    /// Before: a handler that sent a follow-up waited on the chain that waited on it, forever.
    @Test(.timeLimit(.minutes(1))) func aHandlerMaySendFollowUpsWithoutDeadlock() async throws {
        let log = Log()
        let bus = Mutex<CommandBus?>(nil)
        var h = Handlers()
        try h.register(Append.self) { c in
            log.add(c.value)
            if c.value < 10, let bus = bus.withLock({ $0 }) { try await bus.send(Append(value: c.value + 10)) }
        }
        let b = try CommandBus(handlers: h)
        bus.withLock { $0 = b }
        try await b.send(Append(value: 1))
        try await b.send(Append(value: 2))
        // The follow-up runs after the command that sent it, before the next one sent.
        #expect(log.all == [1, 11, 2, 12])
    }

    /// Before: the next append landed after the torn bytes, and reading dropped it too.
    @Test func aTornTailIsTruncatedSoTheNextRecordIsKept() async throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("journal.log")
        do {
            let bus = try CommandBus(handlers: try handlers(Log()), journal: try FileJournal(url: url))
            try await bus.send(Append(value: 1))
        }
        let whole = try Data(contentsOf: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("2 C 61 0bad".utf8))  // a crash in the middle of a write
        try handle.close()
        let journal = try FileJournal(url: url)
        #expect(try Data(contentsOf: url) == whole)
        let bus = try CommandBus(handlers: try handlers(Log()), journal: journal)
        try await bus.send(Append(value: 2))
        let reopened = try FileJournal(url: url).commands(after: 0)
        #expect(try reopened.map { try $0.entry.decode(Append.self).value } == [1, 2])
    }

    @Test func damageBeforeTheEndIsAnErrorAndTheFileIsLeftAlone() async throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("journal.log")
        do {
            let bus = try CommandBus(handlers: try handlers(Log()), journal: try FileJournal(url: url))
            try await bus.send(Append(value: 1))
            try await bus.send(Append(value: 2))
        }
        var bytes = [UInt8](try Data(contentsOf: url))
        let brace = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
        bytes[brace + 3] ^= 0x01
        try Data(bytes).write(to: url)
        #expect(throws: JournalError.self) { try FileJournal(url: url) }
        #expect(try Data(contentsOf: url) == Data(bytes))
    }

    /// Before: a failed command stayed in the journal and stopped replay (1, 3, 4 ran live; 1 on replay).
    @Test func replaySkipsFailedCommands() async throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("journal.log")
        let live = Log()
        do {
            let bus = try CommandBus(handlers: try handlers(live, replaysApplied: true), journal: try FileJournal(url: url))
            try await bus.send(Append(value: 1))
            await #expect(throws: Boom.self) { try await bus.send(Fail()) }
            try await bus.send(Append(value: 3))
            try await bus.send(Append(value: 4))
        }
        let replayed = Log()
        let bus = try CommandBus(handlers: try handlers(replayed, replaysApplied: true), journal: try FileJournal(url: url))
        let recovery = try await bus.recover(after: 0)
        #expect(live.all == [1, 3, 4])
        #expect(replayed.all == [1, 3, 4])
        #expect(recovery.replayed == [1, 3, 4] && recovery.failed.isEmpty)
        // New commands continue the numbering.
        try await bus.send(Append(value: 5))
        #expect(try FileJournal(url: url).lastSeq() == 5)
    }

    @Test func anInterruptedCommandRunsAtRecoveryAndGetsItsOutcome() async throws {
        let journal = MemoryJournal([JournalRecord(seq: 1, .command(try JournalEntry(Append(value: 9))))])
        let log = Log()
        let bus = try CommandBus(handlers: try handlers(log), journal: journal)
        try await bus.recover(after: 0)
        #expect(log.all == [9])
        #expect(try journal.commands(after: 0).map(\.outcome) == [.applied])
        // Applied, outside any store: not run again at the next launch.
        let again = Log()
        try await CommandBus(handlers: try handlers(again), journal: journal).recover(after: 0)
        #expect(again.all.isEmpty)
    }

    @Test func compactionDropsWhatASnapshotHolds() throws {
        let url = try temporaryDirectory().appendingPathComponent("journal.log")
        let journal = try FileJournal(url: url)
        for seq in 1...4 as ClosedRange<UInt64> {
            try journal.append(JournalRecord(seq: seq, .command(try JournalEntry(Append(value: Int(seq))))))
            try journal.append(JournalRecord(seq: seq, .applied))
        }
        try journal.compact(through: 3)
        #expect(try FileJournal(url: url).commands(after: 0).map(\.seq) == [4])
        try journal.append(JournalRecord(seq: 5, .command(try JournalEntry(Append(value: 5)))))
        #expect(try FileJournal(url: url).commands(after: 0).map(\.seq) == [4, 5])
    }
}

/// A command whose stored form changed: version 1 had `name`, version 2 has `first` and `last`.
struct Rename: Command {
    static let typeName = "test.rename"
    static let version = 2
    var id = UUID()
    var first: String
    var last: String

    static func upgrade(_ payload: JSON, from version: Int) throws -> JSON {
        var p = payload
        guard case .string(let name)? = payload["name"] else { return p }
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        p["first"] = .string(parts.first ?? "")
        p["last"] = .string(parts.count > 1 ? parts[1] : "")
        p["name"] = nil
        return p
    }
}

@Suite struct CommandVersionTests {
    @Test func anOlderPayloadIsUpgradedAndANewerOneRefused() throws {
        let old = JournalEntry(id: UUID(), type: Rename.typeName, version: 1, payload: Data(#"{"id":"6B0C8A2E-3E0F-4F3A-9C1D-2E4B5A6C7D8E","name":"Ada Lovelace"}"#.utf8))
        let upgraded = try old.decode(Rename.self)
        #expect(upgraded.first == "Ada" && upgraded.last == "Lovelace")
        var newer = old
        newer.version = 3
        #expect(throws: CommandBusError.newerCommand(Rename.typeName, found: 3, known: 2)) { try newer.decode(Rename.self) }
    }
}
