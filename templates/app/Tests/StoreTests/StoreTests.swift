import CommandBus
import Foundation
import Store
import Synchronization
import Testing

struct Counter: Codable, Sendable, Equatable {
    var total = 0
    var adds = 0
}

struct Add: Command {
    static let typeName = "test.add"
    var id = UUID()
    var amount: Int
    var summary: String { "add \(amount)" }
}

/// A change that cannot be undone: its reducer returns no inverse.
struct SetTotal: Command {
    static let typeName = "test.set-total"
    var id = UUID()
    var total: Int
    var summary: String { "set the total to \(total)" }
}

struct Refused: Error {}

final class Warnings: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var warn: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

/// A store, its journal and its bus in `dir`, opened as an app opens them at launch.
struct App {
    let store: Store<Counter>
    let bus: CommandBus
    let journal: FileJournal

    static func open(_ dir: URL, schema: Schema = Schema(), warnings: Warnings = Warnings()) async throws -> App {
        let journal = try FileJournal(url: dir.appendingPathComponent("journal.log"))
        let store = try Store(snapshotURL: dir.appendingPathComponent("state.json"), initial: Counter(), schema: schema,
                              journal: journal, warn: warnings.warn)
        var h = Handlers()
        try h.register(Add.self, on: store) { c, s in
            guard c.amount != 0 else { throw Refused() }
            s.total += c.amount
            s.adds += 1
            return Add(amount: -c.amount)
        }
        try h.register(SetTotal.self, on: store) { c, s in
            s.total = c.total
            return nil
        }
        try h.registerUndo(on: store)
        let bus = try CommandBus(handlers: h, journal: journal)
        try await bus.recover(after: store.lastSeq)
        return App(store: store, bus: bus, journal: journal)
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("StoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct StoreTests {
    @Test func theSnapshotIsSchemaLastSeqStateAndHistory() async throws {
        let dir = try temporaryDirectory()
        let app = try await App.open(dir, schema: Schema(version: 3, migrations: []))
        try await app.bus.send(Add(amount: 2))
        try await app.bus.send(Add(amount: 5))
        await app.store.flush()
        let json = try JSON(data: Data(contentsOf: dir.appendingPathComponent("state.json")))
        #expect(json["schema"] == .number(3))
        #expect(json["lastSeq"] == .number(2))
        #expect(json["state"] == .object(["total": .number(7), "adds": .number(2)]))
        guard case .object(let history)? = json["history"], case .array(let undo)? = history["undo"] else {
            Issue.record("no undo history in \(json)")
            return
        }
        #expect(undo.count == 2)
    }

    @Test func theJournalIsCompactedAfterEachSnapshot() async throws {
        let dir = try temporaryDirectory()
        let app = try await App.open(dir)
        for i in 1...5 { try await app.bus.send(Add(amount: i)) }
        await app.store.flush()
        #expect(try app.journal.commands(after: 0).isEmpty)
        #expect(app.store.lastSeq == 5)
    }

    /// What a kill -9 leaves: a snapshot, and journaled commands after it that never ran.
    @Test func launchRestoresTheSnapshotThenRunsTheJournalAfterIt() async throws {
        let dir = try temporaryDirectory()
        do {
            let app = try await App.open(dir)
            for i in 1...3 { try await app.bus.send(Add(amount: i)) }
            await app.store.flush()
            try app.journal.append(JournalRecord(seq: 4, .command(try JournalEntry(Add(amount: 10)))))
            try app.journal.append(JournalRecord(seq: 5, .command(try JournalEntry(Add(amount: 100)))))
        }
        let app = try await App.open(dir)
        #expect(app.store.state == Counter(total: 116, adds: 5))
        #expect(app.store.lastSeq == 5)
        // Opening again runs nothing twice.
        await app.store.flush()
        #expect(try await App.open(dir).store.state == Counter(total: 116, adds: 5))
    }

    @Test func aReducerThatThrowsChangesNothing() async throws {
        let app = try await App.open(try temporaryDirectory())
        try await app.bus.send(Add(amount: 1))
        await #expect(throws: Refused.self) { try await app.bus.send(Add(amount: 0)) }
        #expect(app.store.state == Counter(total: 1, adds: 1))
        #expect(app.store.lastSeq == 1)
    }

    @Test func undoAndRedoAreCommandsAndSurviveARelaunch() async throws {
        let dir = try temporaryDirectory()
        do {
            let app = try await App.open(dir)
            try await app.bus.send(Add(amount: 1))
            try await app.bus.send(Add(amount: 2))
            try await app.bus.undo()
            #expect(app.store.state.total == 1)
            #expect(app.store.history.redo.count == 1)
        }
        let app = try await App.open(dir)
        #expect(app.store.state.total == 1)
        try await app.bus.redo()
        #expect(app.store.state.total == 3)
        try await app.bus.undo()
        try await app.bus.undo()
        #expect(app.store.state.total == 0)
        await #expect(throws: StoreError.nothingToUndo) { try await app.bus.undo() }
        // A new command clears what could be redone.
        try await app.bus.send(Add(amount: 7))
        await #expect(throws: StoreError.nothingToRedo) { try await app.bus.redo() }
        #expect(app.store.state.total == 7)
    }

    /// Any new change clears what could be redone, one that cannot be undone too: redoing an
    /// add over a total set since would act on a state the step was never made from.
    @Test func aChangeThatCannotBeUndoneStillClearsRedo() async throws {
        let app = try await App.open(try temporaryDirectory())
        try await app.bus.send(Add(amount: 5))
        try await app.bus.undo()
        try await app.bus.send(SetTotal(total: 100))
        await #expect(throws: StoreError.nothingToRedo) { try await app.bus.redo() }
        #expect(app.store.state.total == 100)
        #expect(app.store.history.redo.isEmpty)
    }

    /// A reducer that reads the store (a common mistake) sees the state before its command;
    /// it used to lock the store's mutex a second time and crash the app.
    @Test func aReducerThatReadsTheStoreSeesTheStateBeforeItsCommand() async throws {
        let dir = try temporaryDirectory()
        let journal = try FileJournal(url: dir.appendingPathComponent("journal.log"))
        let store = try Store(snapshotURL: dir.appendingPathComponent("state.json"), initial: Counter(), journal: journal)
        var h = Handlers()
        try h.register(Add.self, on: store) { c, s in
            s.adds = store.state.total  // the total before this command
            s.total += c.amount
            return nil
        }
        let bus = try CommandBus(handlers: h, journal: journal)
        try await bus.recover(after: store.lastSeq)
        try await bus.send(Add(amount: 5))
        try await bus.send(Add(amount: 2))
        #expect(store.state == Counter(total: 7, adds: 5))
        #expect(store.lastSeq == 2)
    }

    @Test func eachMigrationRunsInTurn() async throws {
        let dir = try temporaryDirectory()
        // Schema 1 was the bare state with `count`; 2 renamed it `total`; 3 added `adds`.
        try Data(#"{"count": 4}"#.utf8).write(to: dir.appendingPathComponent("state.json"))
        let schema = Schema(version: 3, migrations: [
            Schema.Migration(from: 1) { s in .object(["total": s["count"] ?? .number(0)]) },
            Schema.Migration(from: 2) { s in var s = s; s["adds"] = .number(0); return s },
        ])
        let app = try await App.open(dir, schema: schema)
        #expect(app.store.state == Counter(total: 4, adds: 0))
        #expect(try schema.migrate(.object(["total": .number(3)]), from: 2) == .object(["total": .number(3), "adds": .number(0)]))
        #expect(throws: StoreError.noMigration(from: 1)) { try Schema(version: 2).migrate(.null, from: 1) }
    }

    /// A migration whose result is not the state is an error, and the snapshot is left as it
    /// was: the app never opens empty over a user's data because a migration is wrong.
    @Test func aMigrationThatProducesTheWrongShapeIsAnErrorAndTheFileStays() async throws {
        let broken = Schema(version: 2, migrations: [Schema.Migration(from: 1) { _ in .object(["wrong": .string("x")]) }])
        for old in [#"{"count": 4}"#, #"{"schema": 1, "lastSeq": 3, "state": {"total": 4, "adds": 1}, "history": {"undo": [], "redo": []}}"#] {
            let dir = try temporaryDirectory()
            let url = dir.appendingPathComponent("state.json")
            try Data(old.utf8).write(to: url)
            do {
                _ = try await App.open(dir, schema: broken)
                Issue.record("opened over a migration that produced the wrong shape")
            } catch let error as StoreError {
                guard case .migrationFailed(from: 1, let why) = error else { Issue.record("\(error)"); continue }
                #expect(why.contains("does not decode"), "\(why)")
            }
            #expect(try Data(contentsOf: url) == Data(old.utf8), "the snapshot is left as it was")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("unreadable") }.isEmpty)
        }
    }

    @Test func aSnapshotFromANewerBuildIsRefusedAndLeftAlone() async throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("state.json")
        let newer = Data(#"{"schema": 9, "lastSeq": 3, "state": {"total": 1, "adds": 1}, "history": {"undo": [], "redo": []}}"#.utf8)
        try newer.write(to: url)
        await #expect(throws: StoreError.newerSchema(found: 9, known: 1)) { try await App.open(dir) }
        #expect(try Data(contentsOf: url) == newer)
    }

    @Test func anUnreadableSnapshotIsMovedAsideWithTheInjectedWarning() async throws {
        let dir = try temporaryDirectory()
        try Data("{not json".utf8).write(to: dir.appendingPathComponent("state.json"))
        let warnings = Warnings()
        let app = try await App.open(dir, warnings: warnings)
        #expect(app.store.state == Counter())
        #expect(warnings.all.count == 1 && warnings.all[0].contains("cannot be read"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.contains { $0.hasPrefix("state.json.unreadable-") })
    }

    /// Before: a failed snapshot write printed to stderr instead of the injected warning.
    @Test func aSnapshotThatCannotBeWrittenIsReportedThroughTheInjectedWarning() async throws {
        let dir = try temporaryDirectory()
        let notADirectory = dir.appendingPathComponent("file")
        try Data().write(to: notADirectory)
        let warnings = Warnings()
        let store = try Store(snapshotURL: notADirectory.appendingPathComponent("state.json"), initial: Counter(), warn: warnings.warn)
        var h = Handlers()
        try h.register(Add.self, on: store) { c, s in s.total += c.amount; return nil }
        let bus = try CommandBus(handlers: h)
        try await bus.send(Add(amount: 1))
        await store.flush()
        #expect(warnings.all.count == 1 && warnings.all[0].contains("cannot write the snapshot"))
        #expect(store.state.total == 1)
    }

    @Test func observersHearEveryChangeWithItsSequenceNumber() async throws {
        let app = try await App.open(try temporaryDirectory())
        let seen = Mutex<[UInt64]>([])
        app.store.observe { change in seen.withLock { $0.append(change.seq) } }
        try await app.bus.send(Add(amount: 1))
        try await app.bus.send(Add(amount: 1))
        #expect(seen.withLock { $0 } == [1, 2])
    }
}
