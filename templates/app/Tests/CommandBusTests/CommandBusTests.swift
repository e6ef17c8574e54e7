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

/// Runs only after an `Append` of its value (a remove that needs its add).
struct Needs: Command {
    static let typeName = "test.needs"
    var id = UUID()
    var value: Int
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// A new empty directory for a test, which removes it when it ends (`defer`).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("CommandBusTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A journal in `dir`, holding the directory until `close()`.
struct Opened {
    let directory: StateDirectory
    let journal: FileJournal

    init(_ dir: URL, groupCommit: Bool = true, io: FileIO = .system, warn: @escaping @Sendable (String) -> Void = { _ in }) throws {
        directory = try StateDirectory(dir)
        journal = try FileJournal(in: directory, groupCommit: groupCommit, io: io, warn: warn)
    }

    func close() async {
        await journal.close()
        await directory.close()
    }

    /// Opens a bus on the journal in `dir`, runs `body` with it, and closes both, as an app
    /// that quits does.
    static func session(_ dir: URL, _ handlers: Handlers, _ body: (CommandBus, FileJournal) async throws -> Void) async throws {
        let opened = try Opened(dir)
        let bus = try CommandBus(handlers: handlers, journal: opened.journal)
        try await body(bus, opened.journal)
        await bus.close()
        await opened.close()
    }

    /// Opens, reads the commands, closes.
    static func commands(_ dir: URL) async throws -> [PendingCommand] {
        let opened = try Opened(dir)
        let commands = try opened.journal.commands(after: 0)
        await opened.close()
        return commands
    }
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
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try Opened(dir)
        let bus = try CommandBus(handlers: try handlers(Log()), journal: opened.journal)
        try await bus.send(Append(value: 7))
        await #expect(throws: Boom.self) { try await bus.send(Fail()) }
        await bus.close()
        await opened.close()
        let lines = try String(contentsOf: opened.journal.url, encoding: .utf8).split(separator: "\n").map(String.init)
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
        await b.close()
        // The follow-up runs after the command that sent it, before the next one sent.
        #expect(log.all == [1, 11, 2, 12])
    }

    /// Before: the next append landed after the torn bytes, and reading dropped it too.
    @Test func aTornTailIsTruncatedSoTheNextRecordIsKept() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("journal.log")
        try await Opened.session(dir, try handlers(Log())) { bus, _ in try await bus.send(Append(value: 1)) }
        let whole = try Data(contentsOf: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("2 C 61 0bad".utf8))  // a crash in the middle of a write
        try handle.close()
        let warnings = Mutex<[String]>([])
        let opened = try Opened(dir, warn: { w in warnings.withLock { $0.append(w) } })
        await opened.directory.waitForWrites()
        #expect(try Data(contentsOf: url) == whole)
        #expect(warnings.withLock { $0 }.isEmpty, "a torn end is a crash, not damage")
        let bus = try CommandBus(handlers: try handlers(Log()), journal: opened.journal)
        try await bus.send(Append(value: 2))
        await bus.close()
        await opened.close()
        #expect(try await Opened.commands(dir).map { try $0.entry.decode(Append.self).value } == [1, 2])
    }

    /// Before: damage before the end made opening throw, and the app would not launch. Now, as
    /// in SQLite's write-ahead log, the journal is what comes before the first bad record; the
    /// rest is copied aside with a warning.
    @Test func damageBeforeTheEndIsMovedAsideAndTheJournalOpens() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("journal.log")
        try await Opened.session(dir, try handlers(Log())) { bus, _ in
            for v in 1...3 { try await bus.send(Append(value: v)) }
        }
        var bytes = [UInt8](try Data(contentsOf: url))
        // Flip a bit in the second command's body.
        let offset = try #require(find("\n2 C ", in: bytes)) + 1
        let brace = try #require(bytes[offset...].firstIndex(of: UInt8(ascii: "{")))
        bytes[brace + 3] ^= 0x01
        try Data(bytes).write(to: url)
        let warnings = Mutex<[String]>([])
        let opened = try Opened(dir, warn: { w in warnings.withLock { $0.append(w) } })
        await opened.directory.waitForWrites()
        #expect(try opened.journal.commands(after: 0).map { try $0.entry.decode(Append.self).value } == [1])
        let warned = warnings.withLock { $0 }
        #expect(warned.count == 1 && warned[0].contains("damaged at byte \(offset)"), "\(warned)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("journal.log.damaged-") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: dir.appendingPathComponent(aside[0])) == Data(bytes[offset...]))
        // The app goes on from there.
        let bus = try CommandBus(handlers: try handlers(Log()), journal: opened.journal)
        try await bus.send(Append(value: 4))
        await bus.close()
        await opened.close()
        #expect(try await Opened.commands(dir).map(\.seq) == [1, 2])
    }

    /// A whole record with a good checksum of a kind this build does not know (a newer build
    /// wrote it) is not a torn end: it is kept, byte for byte.
    @Test func aWholeRecordOfAnUnknownKindIsKept() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("journal.log")
        try await Opened.session(dir, try handlers(Log())) { bus, journal in
            try await bus.send(Append(value: 1))
            try await journal.append(JournalRecord(seq: 1, .other(kind: "X", body: Array("from a newer build".utf8))))
        }
        let before = try Data(contentsOf: url)
        let opened = try Opened(dir)
        #expect(try Data(contentsOf: url) == before)
        #expect(opened.journal.records().last == JournalRecord(seq: 1, .other(kind: "X", body: Array("from a newer build".utf8))))
        await opened.close()
    }

    /// Before: a write cut short by RLIMIT_FSIZE ("File too large") stayed in the file; the
    /// next command was written after the torn bytes with the same seq, and the next open
    /// said the journal was damaged. The same with an fsync that failed after a whole write.
    @Test func aFailedAppendIsCutBackAndItsSeqIsNeverReused() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fault = Mutex<String?>(nil)
        let io = FileIO(write: { fd, bytes, count in
            guard fault.withLock({ $0 }) == "write" else { return FileIO.system.write(fd, bytes, count) }
            fault.withLock { $0 = nil }
            _ = FileIO.system.write(fd, bytes, count / 2)  // half of it reaches the file
            errno = EFBIG
            return -1
        }, fsync: { fd in
            guard fault.withLock({ $0 }) == "fsync" else { return FileIO.system.fsync(fd) }
            fault.withLock { $0 = nil }
            errno = EIO
            return -1
        })
        let opened = try Opened(dir, io: io)
        let log = Log()
        let bus = try CommandBus(handlers: try handlers(log), journal: opened.journal)
        try await bus.send(Append(value: 1))
        // send returns once the handler ran; its outcome record is still queued (put off, to
        // share the next command's sync). The fault is armed only after that record is on
        // disk, so it hits command 2's record, not 1's outcome.
        await opened.journal.sync()
        fault.withLock { $0 = "write" }
        await #expect(throws: DurableFile.Failure.self) { try await bus.send(Append(value: 2)) }
        try await bus.send(Append(value: 3))
        await opened.journal.sync()
        fault.withLock { $0 = "fsync" }
        await #expect(throws: DurableFile.Failure.self) { try await bus.send(Append(value: 4)) }
        try await bus.send(Append(value: 5))
        await bus.close()
        await opened.close()
        #expect(log.all == [1, 3, 5], "a command whose journal write failed does not run")
        let warnings = Mutex<[String]>([])
        let reopened = try Opened(dir, warn: { w in warnings.withLock { $0.append(w) } })
        let commands = try reopened.journal.commands(after: 0)
        #expect(commands.map(\.seq) == [1, 3, 5])
        #expect(try commands.map { try $0.entry.decode(Append.self).value } == [1, 3, 5])
        #expect(commands.allSatisfy { $0.outcome == .applied })
        #expect(warnings.withLock { $0 }.isEmpty)
        await reopened.close()
    }

    /// Many commands sent at once share one fsync; none is fsynced on Swift's cooperative
    /// thread pool (the directory's I/O queue does it).
    @Test func commandsSentTogetherShareAnFsyncOffTheCooperativePool() async throws {
        for groupCommit in [true, false] {
            let fsyncs = Mutex<(count: Int, inATask: Int)>((0, 0))
            let io = FileIO(write: FileIO.system.write, fsync: { fd in
                let inATask = withUnsafeCurrentTask { $0 != nil }
                fsyncs.withLock { $0.count += 1; if inATask { $0.inATask += 1 } }
                usleep(2000)  // a disk's fsync
                return FileIO.system.fsync(fd)
            })
            let scratch = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let opened = try Opened(scratch, groupCommit: groupCommit, io: io)
            let bus = try CommandBus(handlers: try handlers(Log()), journal: opened.journal)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for v in 0..<40 { group.addTask { try await bus.send(Append(value: v)) } }
                try await group.waitForAll()
            }
            await bus.close()
            await opened.close()
            let (count, inATask) = fsyncs.withLock { $0 }
            #expect(inATask == 0)
            #expect(try await Opened.commands(opened.directory.url).count == 40)
            // One for the new journal's directory, then one per write without group commit.
            if groupCommit { #expect(count <= 21, "\(count) fsyncs for 40 commands and their outcomes") } else { #expect(count == 1 + 80) }
        }
    }

    /// Before: a new journal's name could be lost in a power cut after its first command was
    /// acknowledged (the directory was never synced). Now making it syncs the directory.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"))) func makingTheJournalSyncsItsDirectory() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let synced = Mutex<[String]>([])
        let io = FileIO(write: FileIO.system.write, fsync: { fd in
            let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "?"
            synced.withLock { $0.append(path) }
            return FileIO.system.fsync(fd)
        })
        let opened = try Opened(dir, io: io)
        await opened.directory.waitForWrites()
        #expect(synced.withLock { $0 } == [dir.resolvingSymlinksInPath().path])
        await opened.close()
        // Opening it again, it exists: nothing to sync.
        synced.withLock { $0 = [] }
        let again = try Opened(dir, io: io)
        await again.directory.waitForWrites()
        #expect(synced.withLock { $0 }.isEmpty)
        await again.close()
    }

    /// What a kill leaves half-written — a compacted journal's temporary, a snapshot's — goes
    /// at the next launch; other files stay.
    @Test func temporariesAKillLeftAreRemovedAtLaunch() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let left = [".journal.log.\(UUID().uuidString).tmp", ".state.json.\(UUID().uuidString).tmp"]
        for name in left + ["notes.tmp", ".journal.log.not-a-uuid.tmp"] { try Data("x".utf8).write(to: dir.appendingPathComponent(name)) }
        let opened = try Opened(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.allSatisfy { !names.contains($0) }, "\(names)")
        #expect(names.contains("notes.tmp") && names.contains(".journal.log.not-a-uuid.tmp"))
        await opened.close()
    }

    @Test func aSecondOpenerOfTheDirectoryIsRefused() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Opened(dir)
        #expect(throws: StateDirectoryError.inUse(dir.path)) { try StateDirectory(dir) }
        await first.close()
        let second = try Opened(dir)
        await second.close()
    }

    /// Before: a failed command stayed in the journal and stopped replay (1, 3, 4 ran live; 1 on replay).
    @Test func replaySkipsFailedCommands() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = Log()
        try await Opened.session(dir, try handlers(live, replaysApplied: true)) { bus, _ in
            try await bus.send(Append(value: 1))
            await #expect(throws: Boom.self) { try await bus.send(Fail()) }
            try await bus.send(Append(value: 3))
            try await bus.send(Append(value: 4))
        }
        let replayed = Log()
        let opened = try Opened(dir)
        let bus = try CommandBus(handlers: try handlers(replayed, replaysApplied: true), journal: opened.journal)
        let recovery = try await bus.recover(after: 0)
        #expect(live.all == [1, 3, 4])
        #expect(replayed.all == [1, 3, 4])
        #expect(recovery.replayed == [1, 3, 4] && recovery.failed.isEmpty)
        // New commands continue the numbering.
        try await bus.send(Append(value: 5))
        await bus.close()
        await opened.close()
        #expect(try await Opened.commands(dir).last?.seq == 5)
    }

    @Test func anInterruptedCommandRunsAtRecoveryAndGetsItsOutcome() async throws {
        let journal = MemoryJournal([JournalRecord(seq: 1, .command(try JournalEntry(Append(value: 9))))])
        let log = Log()
        let bus = try CommandBus(handlers: try handlers(log), journal: journal)
        try await bus.recover(after: 0)
        await bus.close()
        #expect(log.all == [9])
        #expect(try journal.commands(after: 0).map(\.outcome) == [.applied])
        // Applied, outside any store: not run again at the next launch.
        let again = Log()
        try await CommandBus(handlers: try handlers(again), journal: journal).recover(after: 0)
        #expect(again.all.isEmpty)
    }

    /// A plain handler's progress is its own: its command interrupted before a store command
    /// that moved the snapshot's `lastSeq` past it still runs at recovery.
    @Test func anInterruptedPlainCommandRunsWhateverTheSnapshotsLastSeq() async throws {
        let journal = MemoryJournal([
            JournalRecord(seq: 1, .command(try JournalEntry(Append(value: 1)))),
            JournalRecord(seq: 2, .command(try JournalEntry(Append(value: 2)))), JournalRecord(seq: 2, .applied),
        ])
        let log = Log()
        let recovery = try await CommandBus(handlers: try handlers(log), journal: journal).recover(after: 2)
        #expect(log.all == [1] && recovery.replayed == [1])
        #expect(try journal.commands(after: 0).map(\.outcome) == [.applied, .applied])
    }

    /// Compaction never drops a command whose outcome is not durable, whatever its seq; what it
    /// drops is remembered by id.
    @Test func compactionKeepsWhatHasNoOutcomeAndRemembersWhatItDrops() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try Opened(dir)
        let journal = opened.journal
        let first = try JournalEntry(Append(value: 1)), second = try JournalEntry(Append(value: 2)), failed = try JournalEntry(Fail())
        try await journal.append(JournalRecord(seq: 1, .command(first)))
        try await journal.append(JournalRecord(seq: 2, .command(second)))
        try await journal.append(JournalRecord(seq: 2, .applied))
        try await journal.append(JournalRecord(seq: 3, .command(failed)))
        try await journal.append(JournalRecord(seq: 3, .failed("boom")))
        try await onIOQueue(opened.directory) { try journal.compact(through: 3) }
        #expect(try journal.commands(after: 0).map(\.seq) == [1])
        await opened.close()
        let reopened = try Opened(dir)
        #expect(try reopened.journal.commands(after: 0).map(\.seq) == [1])
        // The dropped command that ran is known by id; the one that failed is not.
        let log = Log()
        let bus = try CommandBus(handlers: try handlers(log), journal: reopened.journal)
        let received = try await bus.receive([second, first])
        #expect(received.skipped == [second.id, first.id] && log.all.isEmpty)
        await bus.close()
        await reopened.close()
    }

    /// Concurrent `receive`s of the same commands run each once.
    @Test func concurrentReceivesRunEachCommandOnce() async throws {
        let log = Log()
        let bus = try CommandBus(handlers: try handlers(log), journal: MemoryJournal())
        let entries = try (1...20).map { try JournalEntry(Append(value: $0)) }
        let applied = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { (try? await bus.receive(entries).applied.count) ?? 0 } }
            return await group.reduce(0, +)
        }
        await bus.close()
        #expect(applied == 20)
        #expect(log.all.sorted() == Array(1...20))
    }

    /// A received command that fails is tried again after the rest of its batch, and one that
    /// still fails is reported and runs when it is received again once what it needs is there.
    @Test func aReceivedCommandThatFailsIsTriedAgainNotDropped() async throws {
        let log = Log()
        var h = try handlers(log)
        try h.register(Needs.self) { c in
            guard log.all.contains(c.value) else { throw Boom() }
            log.add(-c.value)
        }
        let bus = try CommandBus(handlers: h, journal: MemoryJournal())
        let remove5 = try JournalEntry(Needs(value: 5)), add5 = try JournalEntry(Append(value: 5))
        let first = try await bus.receive([remove5, add5])
        #expect(Set(first.applied) == [remove5.id, add5.id] && first.failed.isEmpty, "\(first)")
        #expect(log.all == [5, -5])
        let remove7 = try JournalEntry(Needs(value: 7))
        #expect(try await bus.receive([remove7]).failed == [remove7.id])
        _ = try await bus.receive([try JournalEntry(Append(value: 7))])
        #expect(try await bus.receive([remove7]).applied == [remove7.id], "received again, once it can run")
        #expect(try await bus.receive([remove7]).skipped == [remove7.id], "and then only once")
        await bus.close()
    }

    @Test func compactionDropsWhatASnapshotHolds() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try Opened(dir)
        let journal = opened.journal
        for seq in 1...4 as ClosedRange<UInt64> {
            try await journal.append(JournalRecord(seq: seq, .command(try JournalEntry(Append(value: Int(seq))))))
            try await journal.append(JournalRecord(seq: seq, .applied))
        }
        try await onIOQueue(opened.directory) { try journal.compact(through: 3) }
        #expect(try journal.commands(after: 0).map(\.seq) == [4])
        try await journal.append(JournalRecord(seq: 5, .command(try JournalEntry(Append(value: 5)))))
        await opened.close()
        #expect(try await Opened.commands(dir).map(\.seq) == [4, 5])
    }
}

/// Where `needle` first occurs in `bytes`.
func find(_ needle: String, in bytes: [UInt8]) -> Int? {
    let n = Array(needle.utf8)
    guard bytes.count >= n.count else { return nil }
    return (0...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }
}

/// Runs `body` on the directory's I/O queue, where compaction runs.
func onIOQueue(_ directory: StateDirectory, _ body: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
        directory.io.async { done.resume(with: Result { try body() }) }
    }
}

/// A command from a feature this build has not loaded yet, or a newer build.
struct Later: Command {
    static let typeName = "test.later"
    var id = UUID()
    var value: Int
}

final class Gate: Sendable {
    let state = Mutex<(open: Bool, reached: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, false, []))
    var reached: Bool { state.withLock { $0.reached } }
    func wait() async {
        await withCheckedContinuation { c in
            let open = state.withLock { s in
                s.reached = true
                if !s.open { s.waiters.append(c) }
                return s.open
            }
            if open { c.resume() }
        }
    }
    func open() {
        for w in state.withLock({ s in s.open = true; let w = s.waiters; s.waiters = []; return w }) { w.resume() }
    }
}

@Suite struct RecoveryTests {
    /// Before: `recover` ran while sends went ahead, so a send could take a seq among the
    /// commands still to replay. Now a send during recovery is refused with a clear error.
    @Test(.timeLimit(.minutes(1))) func aSendDuringRecoveryIsRefused() async throws {
        let gate = Gate()
        var h = Handlers()
        try h.register(Append.self, replaysApplied: false) { _, context in if context.replaying { await gate.wait() } }
        let bus = try CommandBus(handlers: h, journal: MemoryJournal([JournalRecord(seq: 1, .command(try JournalEntry(Append(value: 1))))]))
        let recovering = Task { try await bus.recover(after: 0) }
        while !gate.reached { try await Task.sleep(nanoseconds: 1_000_000) }
        await #expect(throws: CommandBusError.recovering) { try await bus.send(Append(value: 2)) }
        gate.open()
        #expect(try await recovering.value.replayed == [1])
        try await bus.send(Append(value: 2))
    }

    /// Before: an unknown command type made `recover` throw (the app would not launch), and a
    /// newer version was marked failed and dropped for good. Now both are held, with a
    /// warning, kept by compaction, and run once a handler that reads them is registered.
    @Test func whatThisBuildCannotReadIsHeldNeverDroppedAndRunsWhenItCan() async throws {
        var newer = try JournalEntry(Rename(first: "Ada", last: "Lovelace"))
        newer.version = 9
        let journal = MemoryJournal([
            JournalRecord(seq: 1, .command(try JournalEntry(Later(value: 7)))),
            JournalRecord(seq: 2, .command(try JournalEntry(Append(value: 1)))),
            JournalRecord(seq: 3, .command(newer)),
        ])
        let log = Log()
        var h = try CommandBusTests().handlers(log)
        try h.register(Rename.self) { _ in Issue.record("a newer version ran") }
        let warnings = Mutex<[String]>([])
        let bus = try CommandBus(handlers: h, journal: journal, warn: { w in warnings.withLock { $0.append(w) } }, heldWarningDelay: .milliseconds(20))
        let recovery = try await bus.recover(after: 0)
        #expect(recovery.held == [1, 3])
        #expect(recovery.replayed == [2])
        #expect(log.all == [1])
        // Warned about once they have stayed held a moment.
        for _ in 0..<500 where warnings.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let warned = warnings.withLock { $0 }
        #expect(warned.count == 2)
        #expect(warned[0].contains("no handler is registered for test.later"))
        #expect(warned[1].contains("version 9"))
        #expect(try journal.commands(after: 0).map(\.outcome) == [
            .held(CommandBusError.noHandler("test.later").description), .applied,
            .held(CommandBusError.newerCommand("test.rename", found: 9, known: 2).description),
        ])
        // A snapshot through seq 3 does not drop them.
        journal.compact(through: 3)
        #expect(try journal.commands(after: 0).map(\.seq) == [1, 3])
        // The feature that reads `Later` is loaded: the held command runs now, as a new one.
        var more = Handlers()
        try more.register(Later.self) { c in log.add(c.value) }
        let late = try await bus.register(more)
        #expect(late.sentAgain == [4])
        #expect(log.all == [1, 7])
        #expect(try journal.commands(after: 0).first?.outcome == .failed("run again as command 4"))
        await #expect(throws: CommandBusError.duplicateHandler("test.later")) { try await bus.register(more) }
    }

    /// A command held at launch that a feature registered moments later runs is never warned
    /// about; one still held is, once (or at close, if that comes first).
    @Test func onlyWhatStaysHeldIsWarnedAbout() async throws {
        let journal = MemoryJournal([
            JournalRecord(seq: 1, .command(try JournalEntry(Later(value: 7)))),
            JournalRecord(seq: 2, .command(try JournalEntry(Needs(value: 1)))),
        ])
        let log = Log()
        let warnings = Mutex<[String]>([])
        let bus = try CommandBus(handlers: try CommandBusTests().handlers(log), journal: journal, warn: { w in warnings.withLock { $0.append(w) } },
                                 heldWarningDelay: .milliseconds(100))
        #expect(try await bus.recover(after: 0).held == [1, 2])
        var more = Handlers()
        try more.register(Later.self) { c in log.add(c.value) }
        _ = try await bus.register(more)
        #expect(warnings.withLock { $0 }.isEmpty, "nothing said before the delay")
        for _ in 0..<500 where warnings.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        let warned = warnings.withLock { $0 }
        #expect(warned.count == 1 && warned[0].contains("command 2 (test.needs)"), "\(warned)")
        await bus.close()
        #expect(warnings.withLock { $0 }.count == 1, "said once")
        #expect(log.all == [7])
    }

    /// Closing lets the command running finish, follow-ups included, then refuses new ones.
    @Test(.timeLimit(.minutes(1))) func closingFinishesWhatRunsAndRefusesTheRest() async throws {
        let gate = Gate(), log = Log()
        let bus = Mutex<CommandBus?>(nil)
        var h = Handlers()
        try h.register(Append.self) { c in
            if c.value == 1 { await gate.wait() }
            log.add(c.value)
            if c.value < 10, let bus = bus.withLock({ $0 }) { try await bus.send(Append(value: c.value + 10)) }
        }
        let b = try CommandBus(handlers: h)
        bus.withLock { $0 = b }
        let first = Task { try await b.send(Append(value: 1)) }
        while !gate.reached { try await Task.sleep(nanoseconds: 1_000_000) }
        let closing = Task { await b.close() }
        try await Task.sleep(nanoseconds: 20_000_000)
        gate.open()
        try await first.value
        await closing.value
        #expect(log.all == [1, 11])
        await #expect(throws: CommandBusError.closed) { try await b.send(Append(value: 2)) }
    }

    /// Handlers registered after the bus has started take commands like the first ones.
    @Test func handlersRegisteredAfterTheBusStartsRunTheirCommands() async throws {
        let log = Log()
        let bus = try CommandBus(handlers: try CommandBusTests().handlers(log))
        try await bus.recover(after: 0)
        await #expect(throws: CommandBusError.noHandler("test.later")) { try await bus.send(Later(value: 1)) }
        var more = Handlers()
        try more.register(Later.self) { c in log.add(c.value * 100) }
        try await bus.register(more)
        try await bus.send(Later(value: 2))
        try await bus.send(Append(value: 3))
        #expect(log.all == [200, 3])
        #expect(bus.summary(of: try JournalEntry(Later(value: 2))) == "test.later")
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

@Suite struct RandomIDTests {
    /// Version 4, RFC 4122 variant, and no two alike: what `UUID()` makes, without its file.
    @Test func randomIDsAreVersionFourAndDistinct() {
        let ids = (0..<1000).map { _ in UUID.random() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 4 && id.uuid.8 >> 6 == 2, "\(id)")
            #expect(UUID(uuidString: id.uuidString) == id)
        }
    }
}
