import CommandBus
import Foundation
import Store
#if canImport(Glibc)
import Glibc
#endif
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

/// Sends `Add(10)` as a follow-up: an import that adds what it read.
struct Import: Command {
    static let typeName = "test.import"
    var id = UUID()
}

/// A store, its journal and its bus in `dir`, opened as an app opens them at launch.
struct App {
    let directory: StateDirectory
    let store: Store<Counter>
    let bus: CommandBus
    let journal: FileJournal
    let recovery: CommandBus.Recovery

    static func open(_ dir: URL, schema: Schema = Schema(), warnings: Warnings = Warnings(), snapshots: SnapshotPolicy = .standard) async throws -> App {
        let directory = try StateDirectory(dir)
        do { return try await open(directory, schema: schema, warnings: warnings, snapshots: snapshots) } catch {
            await directory.close()
            throw error
        }
    }

    static func open(_ directory: StateDirectory, schema: Schema, warnings: Warnings, snapshots: SnapshotPolicy = .standard) async throws -> App {
        let journal = try FileJournal(in: directory, warn: warnings.warn)
        let store = try Store(in: directory, initial: Counter(), schema: schema, journal: journal, snapshots: snapshots, warn: warnings.warn)
        let bus = Mutex<CommandBus?>(nil)
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
        try h.register(Import.self, replaysApplied: false) { _, _ in
            try await bus.withLock { $0 }?.send(Add(amount: 10))
        }
        try h.registerUndo(on: store)
        let b = try CommandBus(handlers: h, journal: journal, warn: warnings.warn)
        bus.withLock { $0 = b }
        let recovery = try await b.recover(after: store.lastSeq)
        return App(directory: directory, store: store, bus: b, journal: journal, recovery: recovery)
    }

    /// What an app does when it quits: the commands sent run, the snapshot is written, and
    /// the directory is free for the next launch.
    func close() async {
        await bus.close()
        await store.close()
        await journal.close()
        await directory.close()
    }

    /// What a kill -9 leaves: the journal as it is on disk (the snapshot too, if flushed),
    /// and the directory free.
    func crash() async {
        await journal.close()
        await directory.close()
    }
}

/// A new empty directory for a test, which removes it when it ends (`defer`).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("StoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct StoreTests {
    @Test func theSnapshotIsSchemaLastSeqStateAndHistory() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try await App.open(dir, schema: Schema(version: 3, migrations: []))
        try await app.bus.send(Add(amount: 2))
        try await app.bus.send(Add(amount: 5))
        await app.close()
        let json = try JSON(data: Data(contentsOf: dir.appendingPathComponent("state.json")))
        #expect(json["schema"] == .number(3))
        #expect(json["lastSeq"] == .number(2))
        #expect(json["state"] == .object(["total": .number(7), "adds": .number(2)]))
        guard case .object(let history)? = json["history"], case .array(let undo)? = history["undo"],
              case .array(let applied)? = json["applied"] else {
            Issue.record("no undo history or applied ids in \(json)")
            return
        }
        #expect(undo.count == 2)
        #expect(applied.count == 2)
    }

    /// A snapshot is written on the store's policy (here at `flush`), and the journal then
    /// drops what the snapshot before it holds: it always holds what came after either.
    @Test func theJournalIsCompactedThroughThePreviousSnapshot() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Snapshots only when flushed.
        let app = try await App.open(dir, snapshots: SnapshotPolicy(every: 1000, idle: .seconds(600)))
        for i in 1...5 { try await app.bus.send(Add(amount: i)) }
        await app.store.flush()
        #expect(try app.journal.commands(after: 0).map(\.seq) == [1, 2, 3, 4, 5], "the first snapshot: none before it")
        #expect(app.store.lastSeq == 5)
        try await app.bus.send(Add(amount: 6))
        await app.store.flush()
        #expect(try app.journal.commands(after: 0).map(\.seq) == [6])
        await app.close()
    }

    /// With no flush, the policy writes the snapshot: after `every` commands, or once the
    /// store has been idle for `idle`.
    @Test func theSnapshotIsWrittenOnThePolicy() async throws {
        for policy in [SnapshotPolicy(every: 3, idle: .seconds(60)), SnapshotPolicy(every: 1000, idle: .milliseconds(30))] {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let directory = try StateDirectory(dir)
            let journal = try FileJournal(in: directory)
            let store = try Store(in: directory, initial: Counter(), journal: journal, snapshots: policy)
            var h = Handlers()
            try h.register(Add.self, on: store) { c, s in s.total += c.amount; return nil }
            let bus = try CommandBus(handlers: h, journal: journal)
            let url = dir.appendingPathComponent("state.json")
            for i in 1...3 { try await bus.send(Add(amount: i)) }
            // Written by the policy alone (an idle timer may also write one between commands).
            func written() -> JSON? { (try? Data(contentsOf: url)).flatMap { try? JSON(data: $0) }?["lastSeq"] }
            for _ in 0..<500 where written() != .number(3) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(written() == .number(3), "\(policy)")
            await store.close()
            await journal.close()
            await directory.close()
        }
    }

    /// What a kill -9 leaves: a snapshot, and journaled commands after it that never ran.
    @Test func launchRestoresTheSnapshotThenRunsTheJournalAfterIt() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let app = try await App.open(dir)
            for i in 1...3 { try await app.bus.send(Add(amount: i)) }
            await app.store.flush()
            try await app.journal.append(JournalRecord(seq: 4, .command(try JournalEntry(Add(amount: 10)))))
            try await app.journal.append(JournalRecord(seq: 5, .command(try JournalEntry(Add(amount: 100)))))
            await app.crash()
        }
        let app = try await App.open(dir)
        #expect(app.store.state == Counter(total: 116, adds: 5))
        #expect(app.store.lastSeq == 5)
        // Opening again runs nothing twice.
        await app.close()
        let again = try await App.open(dir)
        #expect(again.store.state == Counter(total: 116, adds: 5))
        await again.close()
    }

    /// Before: two instances on one directory (a relaunch in the same process, or a second
    /// process) ran at once; one compacted while the other appended, and acknowledged
    /// commands were lost. The first instance holds the directory until it closes.
    @Test func aSecondInstanceOnTheDirectoryIsRefusedUntilTheFirstCloses() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try await App.open(dir)
        for i in 1...20 { try await first.bus.send(Add(amount: i)) }
        await #expect(throws: StateDirectoryError.inUse(dir.path)) { try await App.open(dir) }
        try await first.bus.send(Add(amount: 1000))
        await first.close()
        let second = try await App.open(dir)
        #expect(second.store.state.total == 210 + 1000)
        await second.close()
    }

    /// Before: replaying a handler's follow-up gave it a new, higher seq, and the store then
    /// skipped the commands still to replay (a total of 10, not 110, and nothing reported).
    @Test func recoveryRunsEachFollowUpOnceAndInOrder() async throws {
        for crashedBeforeTheFollowUp in [false, true] {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            do {
                // The journal a crash left: an import, the add it sent (unless the crash came
                // first), and an add the user sent; none has an outcome, no snapshot.
                let directory = try StateDirectory(dir)
                let journal = try FileJournal(in: directory)
                var records = [JournalRecord(seq: 1, .command(try JournalEntry(Import())))]
                if !crashedBeforeTheFollowUp {
                    var followUp = try JournalEntry(Add(amount: 10))
                    followUp.parent = 1
                    records.append(JournalRecord(seq: 2, .command(followUp)))
                }
                records.append(JournalRecord(seq: crashedBeforeTheFollowUp ? 2 : 3, .command(try JournalEntry(Add(amount: 100)))))
                try await journal.write(records).wait()
                await journal.close()
                await directory.close()
            }
            let app = try await App.open(dir)
            #expect(app.store.state.total == 110, "crashed before the follow-up: \(crashedBeforeTheFollowUp)")
            #expect(app.recovery.failed.isEmpty)
            #expect(app.recovery.sentAgain == (crashedBeforeTheFollowUp ? [3] : []))
            await app.close()
            let again = try await App.open(dir)
            #expect(again.store.state.total == 110)
            await again.close()
        }
    }

    @Test func aReducerThatThrowsChangesNothing() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = try await App.open(scratch)
        try await app.bus.send(Add(amount: 1))
        await #expect(throws: Refused.self) { try await app.bus.send(Add(amount: 0)) }
        #expect(app.store.state == Counter(total: 1, adds: 1))
        #expect(app.store.lastSeq == 1)
        await app.close()
    }

    @Test func undoAndRedoAreCommandsAndSurviveARelaunch() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let app = try await App.open(dir)
            try await app.bus.send(Add(amount: 1))
            try await app.bus.send(Add(amount: 2))
            try await app.bus.undo()
            #expect(app.store.state.total == 1)
            #expect(app.store.history.redo.count == 1)
            await app.close()
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
        await app.close()
    }

    /// Any new change clears what could be redone, one that cannot be undone too: redoing an
    /// add over a total set since would act on a state the step was never made from.
    /// Undo is the app's, not a sender's (as the README says): an undo undoes the last change
    /// whoever sent it, and a change from elsewhere clears redo.
    @Test func undoIsTheAppsNotASenders() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try await App.open(dir)
        try await app.bus.send(Add(amount: 1))        // one part of the app
        try await app.bus.send(Add(amount: 2))        // another
        try await app.bus.undo()                       // asked by the first
        #expect(app.store.state.total == 1, "the last change, the other's, is undone")
        _ = try await app.bus.receive([try JournalEntry(Add(amount: 5))])
        await #expect(throws: StoreError.nothingToRedo) { try await app.bus.redo() }
        await app.close()
    }

    @Test func aChangeThatCannotBeUndoneStillClearsRedo() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = try await App.open(scratch)
        try await app.bus.send(Add(amount: 5))
        try await app.bus.undo()
        try await app.bus.send(SetTotal(total: 100))
        await #expect(throws: StoreError.nothingToRedo) { try await app.bus.redo() }
        #expect(app.store.state.total == 100)
        #expect(app.store.history.redo.isEmpty)
        await app.close()
    }

    /// Before: three undos gave three errors and left the history as it was when a step's
    /// action no longer decoded. Now the step is dropped with a warning, and undo goes on to
    /// the one before it.
    @Test func anUndoStepThatNoLongerDecodesIsDroppedWithAWarning() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let app = try await App.open(dir)
            try await app.bus.send(Add(amount: 1))
            try await app.bus.send(Add(amount: 2))
            await app.close()
        }
        // The last step's action, as a build that has since gone would have written it.
        let url = dir.appendingPathComponent("state.json")
        var snapshot = try JSON(data: Data(contentsOf: url))
        guard case .object(var history)? = snapshot["history"], case .array(var undo)? = history["undo"],
              case .object(var last)? = undo.last, case .object(var action)? = last["action"] else {
            Issue.record("no undo history in \(snapshot)")
            return
        }
        action["version"] = .number(9)
        last["action"] = .object(action)
        undo[undo.count - 1] = .object(last)
        history["undo"] = .array(undo)
        snapshot["history"] = .object(history)
        snapshot["_crc"] = nil  // that build wrote no checksum
        try snapshot.data().write(to: url)
        let warnings = Warnings()
        let app = try await App.open(dir, warnings: warnings)
        try await app.bus.undo()
        #expect(app.store.state.total == 2, "the add of 1 is undone, the unreadable step for the add of 2 dropped")
        #expect(warnings.all.count == 1 && warnings.all[0].contains("dropped"), "\(warnings.all)")
        await #expect(throws: StoreError.nothingToUndo) { try await app.bus.undo() }
        try await app.bus.redo()
        #expect(app.store.state.total == 3)
        await app.close()
    }

    /// A reducer that reads the store (a common mistake) sees the state before its command;
    /// it used to lock the store's mutex a second time and crash the app.
    @Test func aReducerThatReadsTheStoreSeesTheStateBeforeItsCommand() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let directory = try StateDirectory(scratch)
        let journal = try FileJournal(in: directory)
        let store = try Store(in: directory, initial: Counter(), journal: journal)
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
        await store.close()
        await journal.close()
        await directory.close()
    }

    @Test func eachMigrationRunsInTurn() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
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
        await app.close()
    }

    /// A migration whose result is not the state is an error, and the snapshot is left as it
    /// was: the app never opens empty over a user's data because a migration is wrong.
    @Test func aMigrationThatProducesTheWrongShapeIsAnErrorAndTheFileStays() async throws {
        let broken = Schema(version: 2, migrations: [Schema.Migration(from: 1) { _ in .object(["wrong": .string("x")]) }])
        for old in [#"{"count": 4}"#, #"{"schema": 1, "lastSeq": 3, "state": {"total": 4, "adds": 1}, "history": {"undo": [], "redo": []}}"#] {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
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
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state.json")
        let newer = Data(#"{"schema": 9, "lastSeq": 3, "state": {"total": 1, "adds": 1}, "history": {"undo": [], "redo": []}}"#.utf8)
        try newer.write(to: url)
        await #expect(throws: StoreError.newerSchema(found: 9, known: 1)) { try await App.open(dir) }
        #expect(try Data(contentsOf: url) == newer)
    }

    /// Every bit of the snapshot flipped in turn (a sample of them): caught by its checksum,
    /// never read as other data, the damaged file moved aside, and the previous generation
    /// and the journal since it give back everything acknowledged.
    @Test func aFlippedBitFallsBackToThePreviousGenerationAndLosesNothing() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let app = try await App.open(dir)
            for i in 1...3 {
                try await app.bus.send(Add(amount: i))
                await app.store.flush()
            }
            await app.close()
        }
        let url = dir.appendingPathComponent("state.json")
        let good = try Data(contentsOf: url)
        let previous = try Data(contentsOf: dir.appendingPathComponent("state.json.previous"))
        #expect(good.starts(with: Data(#"{"_crc":""#.utf8)) && good != previous)
        for offset in stride(from: 0, to: good.count * 8, by: max(1, good.count * 8 / 40)) {
            var bad = good
            bad[offset / 8] ^= UInt8(1 << (offset % 8))
            try bad.write(to: url)
            try Data(previous).write(to: dir.appendingPathComponent("state.json.previous"))
            let warnings = Warnings()
            let app: App
            do { app = try await App.open(dir, warnings: warnings) } catch {
                Issue.record("bit \(offset): \(error)")
                continue
            }
            #expect(app.store.state == Counter(total: 6, adds: 3), "bit \(offset): \(app.store.state) \(warnings.all)")
            await app.close()
            try good.write(to: url)
        }
    }

    /// A crash between the two renames leaves no snapshot, and the previous one: it is read,
    /// and the journal since it runs again.
    @Test func aMissingSnapshotFallsBackToThePreviousGeneration() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let app = try await App.open(dir)
            for i in 1...3 {
                try await app.bus.send(Add(amount: i))
                await app.store.flush()
            }
            await app.crash()
        }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("state.json"))
        let warnings = Warnings()
        let app = try await App.open(dir, warnings: warnings)
        #expect(app.store.state == Counter(total: 6, adds: 3))
        #expect(warnings.all.contains { $0.contains("is missing") && $0.contains("previous") }, "\(warnings.all)")
        await app.close()
    }

    @Test func anUnreadableSnapshotIsMovedAsideWithTheInjectedWarning() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{not json".utf8).write(to: dir.appendingPathComponent("state.json"))
        let warnings = Warnings()
        let app = try await App.open(dir, warnings: warnings)
        #expect(app.store.state == Counter())
        #expect(warnings.all.count == 1 && warnings.all[0].contains("cannot be read"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.contains { $0.hasPrefix("state.json.unreadable-") })
        await app.close()
    }

    /// Before: a failed snapshot write printed to stderr instead of the injected warning.
    @Test func aSnapshotThatCannotBeWrittenIsReportedThroughTheInjectedWarning() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let warnings = Warnings()
        let directory = try StateDirectory(dir)
        // One write, at close: an idle write (half a second after the command, on a busy
        // machine before the close) would fail and warn a second time.
        let store = try Store(in: directory, initial: Counter(), snapshots: SnapshotPolicy(every: 1000, idle: .seconds(3600)), warn: warnings.warn)
        // A directory where the snapshot goes: the rename over it fails.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("state.json/inside"), withIntermediateDirectories: true)
        var h = Handlers()
        try h.register(Add.self, on: store) { c, s in s.total += c.amount; return nil }
        let bus = try CommandBus(handlers: h)
        try await bus.send(Add(amount: 1))
        await store.close()
        await directory.close()
        #expect(warnings.all.count == 1 && warnings.all[0].contains("cannot write the snapshot"))
        #expect(store.state.total == 1)
    }

    /// Sync: commands from another device's journal are applied once, by command id, however
    /// often they arrive, across relaunches too.
    @Test func commandsFromElsewhereAreAppliedOnceByID() async throws {
        let remote = [try JournalEntry(Add(amount: 1)), try JournalEntry(Add(amount: 2))]
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try await App.open(dir)
        let first = try await app.bus.receive(remote)
        #expect(first.applied == remote.map(\.id) && first.skipped.isEmpty)
        let second = try await app.bus.receive(remote)
        #expect(second.skipped == remote.map(\.id) && second.applied.isEmpty)
        #expect(app.store.state.total == 3)
        await app.close()
        let relaunched = try await App.open(dir)
        let third = try await relaunched.bus.receive(remote + [try JournalEntry(Add(amount: 4))])
        #expect(third.skipped == remote.map(\.id) && third.applied.count == 1)
        #expect(relaunched.store.state.total == 7)
        let unknown = JournalEntry(id: UUID(), type: "test.unknown", payload: Data("{}".utf8))
        #expect(try await relaunched.bus.receive([unknown]).unreadable == [unknown.id])
        await relaunched.close()
    }

    /// Before: payload numbers passed through Double, so 9007199254740993 came back as …992,
    /// Int64.max did not decode, and a command could act differently on replay than live.
    @Test func payloadNumbersComeBackExactlyFromTheJournalAndTheHistory() async throws {
        let big = Big(int: 9_007_199_254_740_993, max: .max, unsigned: .max,
                      decimal: try #require(Decimal(string: "3.14159265358979323846264338327950288")))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            // Journaled, never run: the next launch reads it from the journal.
            let directory = try StateDirectory(dir)
            let journal = try FileJournal(in: directory)
            try await journal.append(JournalRecord(seq: 1, .command(try JournalEntry(SetBig(value: big)))))
            await journal.close()
            await directory.close()
        }
        do {
            let app = try await BigApp.open(dir)
            #expect(app.store.state == big)
            try await app.bus.send(SetBig(value: Big(int: 1, max: 2, unsigned: 3, decimal: 4)))
            await app.close()
        }
        // The undo step, from the snapshot, puts back exactly what was there.
        let app = try await BigApp.open(dir)
        try await app.bus.undo()
        #expect(app.store.state == big)
        await app.close()
    }

    @Test func observersHearEveryChangeWithItsSequenceNumber() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = try await App.open(scratch)
        let seen = Mutex<[UInt64]>([])
        app.store.observe { change in seen.withLock { $0.append(change.seq) } }
        try await app.bus.send(Add(amount: 1))
        try await app.bus.send(Add(amount: 1))
        #expect(seen.withLock { $0 } == [1, 2])
        await app.close()
    }
}

struct Big: Codable, Sendable, Equatable {
    var int: Int64
    var max: Int64
    var unsigned: UInt64
    var decimal: Decimal
}

struct SetBig: Command {
    static let typeName = "test.set-big"
    var id = UUID()
    var value: Big
}

/// A store of `Big`: the numbers a Double cannot hold.
struct BigApp {
    let directory: StateDirectory
    let store: Store<Big>
    let bus: CommandBus
    let journal: FileJournal

    static func open(_ dir: URL) async throws -> BigApp {
        let directory = try StateDirectory(dir)
        let journal = try FileJournal(in: directory)
        let store = try Store(in: directory, initial: Big(int: 0, max: 0, unsigned: 0, decimal: 0), journal: journal)
        var h = Handlers()
        try h.register(SetBig.self, on: store) { c, s in
            let old = s
            s = c.value
            return SetBig(value: old)
        }
        try h.registerUndo(on: store)
        let bus = try CommandBus(handlers: h, journal: journal)
        try await bus.recover(after: store.lastSeq)
        return BigApp(directory: directory, store: store, bus: bus, journal: journal)
    }

    func close() async {
        await bus.close()
        await store.close()
        await journal.close()
        await directory.close()
    }
}
