import Foundation
import Synchronization

/// Runs commands one at a time, in the order they were sent. Each command is journaled (and
/// fsynced, with a file journal) before its handler runs, and its outcome after; at launch,
/// `recover(after:)` runs again what the last snapshot does not hold, skipping failures.
///
/// A handler may send follow-up commands: inside a handler, `send` journals the follow-up and
/// returns at once (it runs after the current command), so it never waits on itself.
///
/// Sending never blocks a thread on the disk: the journal write is queued (many queued
/// together share one fsync) and the handler runs once it is durable.
public actor CommandBus {
    struct Job {
        var seq: UInt64
        var entry: JournalEntry
        var handler: Handlers.Handler
        var replaying: Bool
        /// Whether to journal the outcome (not when replaying a command already marked applied).
        var recordsOutcome: Bool
        /// The journal write of the command itself (nil when replaying: it is on disk).
        var written: JournalWrite?
        var done: CheckedContinuation<Void, any Error>?
    }

    /// The command whose handler the current task is running.
    struct Running: Sendable {
        var bus: ObjectIdentifier
        var seq: UInt64
        var replaying: Bool
    }
    @TaskLocal static var running: Running?

    var handlers: Handlers {
        didSet { summaries.withLock { $0 = handlers.table.mapValues(\.summary) } }
    }
    /// How each type describes its commands, readable from any thread (`summary(of:)`).
    let summaries: Mutex<[String: @Sendable (JournalEntry) -> String]>
    let journal: any Journal
    let observer: (@Sendable (BusEvent) -> Void)?
    let warn: @Sendable (String) -> Void
    var nextSeq: UInt64
    var queue: [Job] = []
    var draining = false
    var idle: [CheckedContinuation<Void, Never>] = []
    var recovering = false
    var closed = false

    // What recovery needs to tell a replayed handler's follow-ups from new ones.
    var journaledChildren: [UInt64: Int] = [:]
    var replayedChildren: [UInt64: Int] = [:]
    var deferred: [JournalEntry] = []
    /// Commands this build could not read at recovery, by seq: kept for a handler registered
    /// later (`register`) or a build that can.
    var held: [UInt64: JournalEntry] = [:]
    /// The ids of received commands this process has run or is running (`receive`): claimed
    /// with the decision to run them, so no concurrent `receive` runs one twice.
    var claimed: Set<UUID> = []
    /// What to warn about each command recovery held, said only if it is still held after
    /// `heldWarningDelay` (a feature registered moments after launch runs it) or at `close`.
    var heldWarnings: [UInt64: String] = [:]
    let heldWarningDelay: Duration

    /// `observer` hears about each command run, on the bus's task; it must not block. `warn`
    /// hears about commands recovery holds for a build that can read them.
    /// `heldWarningDelay`: how long after recovery a command still held is warned about.
    public init(handlers: Handlers, journal: any Journal = MemoryJournal(),
                observer: (@Sendable (BusEvent) -> Void)? = nil,
                warn: @escaping @Sendable (String) -> Void = FileJournal.printWarning,
                heldWarningDelay: Duration = .seconds(3)) throws {
        self.handlers = handlers
        self.heldWarningDelay = heldWarningDelay
        summaries = Mutex(handlers.table.mapValues(\.summary))
        self.journal = journal
        self.observer = observer
        self.warn = warn
        nextSeq = try journal.lastSeq() + 1
    }

    /// Journals `command`, then runs its handler after every command sent before it, and
    /// returns when it has run (at once when called from a handler). Throws what the journal
    /// or the handler threw; refused while `recover` runs and after `close`.
    public func send<C: Command>(_ command: C) async throws {
        try await submit(try JournalEntry(command))
    }

    public func undo() async throws { try await send(Undo()) }
    public func redo() async throws { try await send(Redo()) }

    func submit(_ entry: JournalEntry) async throws {
        let running = CommandBus.running.flatMap { $0.bus == ObjectIdentifier(self) ? $0 : nil }
        // A closing bus still takes the follow-ups of the commands it is finishing.
        guard !closed || running != nil else { throw CommandBusError.closed }
        guard let handler = handlers.table[entry.type] else { throw CommandBusError.noHandler(entry.type) }
        var entry = entry
        if let running {
            entry.parent = running.seq
            if running.replaying {
                // A replayed handler's follow-up: the journal has it if the first run got that
                // far (it replays in its own turn); if not, it is journaled after recovery.
                let k = replayedChildren[running.seq, default: 0]
                replayedChildren[running.seq] = k + 1
                if k >= journaledChildren[running.seq, default: 0] { deferred.append(entry) }
                return
            }
            start(entry, handler, done: nil)
            return
        }
        guard !recovering else { throw CommandBusError.recovering }
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            start(entry, handler, done: done)
        }
    }

    /// Gives `entry` the next seq, queues its journal write and its run; no suspension between,
    /// so commands run in seq order.
    @discardableResult
    func start(_ entry: JournalEntry, _ handler: Handlers.Handler, done: CheckedContinuation<Void, any Error>?) -> UInt64 {
        let seq = nextSeq
        nextSeq += 1  // a seq is never used twice, even when its write fails
        let written = journal.write([JournalRecord(seq: seq, .command(entry))])
        enqueue(Job(seq: seq, entry: entry, handler: handler, replaying: false, recordsOutcome: true, written: written, done: done))
        return seq
    }

    /// Adds handlers after the bus has started (a feature loaded later). Commands held at
    /// recovery that they can read run now, after everything already sent.
    @discardableResult
    public func register(_ more: Handlers) async throws -> Recovery {
        try handlers.merge(more)
        var report = Recovery()
        let readable = held.filter { seq, entry in
            guard let handler = handlers.table[entry.type] else { return false }
            return (try? handler.check(entry)) != nil
        }
        await sendAgain(readable.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, into: &report)
        return report
    }

    /// What recovery did: the commands it ran again, those that failed this time, those held
    /// for a build that can read them, and the seqs of commands it sent anew (follow-ups a
    /// crash kept from the journal, held commands this build can read).
    public struct Recovery: Sendable, Equatable {
        public var replayed: [UInt64] = []
        public var failed: [UInt64] = []
        public var held: [UInt64] = []
        public var sentAgain: [UInt64] = []
    }

    /// Runs again, in order: every journaled command with no outcome (interrupted, whatever its
    /// seq: a plain handler's progress is its own, not the store's `lastSeq`; a store handler's
    /// run of a command the snapshot holds changes nothing), and the applied ones after
    /// `lastSeq` (what the snapshot holds) whose handler changes a store. Failed commands are
    /// skipped. A command this build cannot read (no handler, a newer
    /// version, a payload that does not decode) is held, with a warning, never dropped: it
    /// stays in the journal and runs when a handler or build can read it. Call it once at
    /// launch; sends wait for it to finish.
    @discardableResult
    public func recover(after lastSeq: UInt64) async throws -> Recovery {
        recovering = true
        defer { recovering = false }
        nextSeq = max(nextSeq, lastSeq + 1)
        let all = try journal.commands(after: 0)
        journaledChildren = [:]
        for c in all { if let p = c.entry.parent { journaledChildren[p, default: 0] += 1 } }
        var report = Recovery()
        var marks: [JournalRecord] = []
        var readableHeld: [(UInt64, JournalEntry)] = []
        for pending in all {
            var wasHeld = false
            if case .held = pending.outcome { wasHeld = true }
            guard pending.seq > lastSeq || wasHeld || pending.outcome == .unknown else { continue }
            if case .failed = pending.outcome { continue }
            var unreadable: String?
            if let handler = handlers.table[pending.entry.type] {
                do { try handler.check(pending.entry) } catch { unreadable = "\(error)" }
            } else {
                unreadable = CommandBusError.noHandler(pending.entry.type).description
            }
            if let why = unreadable {
                held[pending.seq] = pending.entry
                report.held.append(pending.seq)
                if !wasHeld { marks.append(JournalRecord(seq: pending.seq, .held(why))) }
                heldWarnings[pending.seq] = "command \(pending.seq) (\(pending.entry.type)) cannot be run by this build: \(why); it is kept in the journal for one that can"
                continue
            }
            guard let handler = handlers.table[pending.entry.type] else { continue }
            if wasHeld && pending.seq <= lastSeq {
                // Readable now, but the state has moved past it: it runs after the rest.
                readableHeld.append((pending.seq, pending.entry))
                continue
            }
            if pending.outcome == .applied && !handler.replaysApplied { continue }
            let job = Job(seq: pending.seq, entry: pending.entry, handler: handler, replaying: true,
                          recordsOutcome: pending.outcome != .applied, written: nil)
            report.replayed.append(pending.seq)
            do {
                try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                    var job = job
                    job.done = done
                    enqueue(job)
                }
            } catch {
                report.failed.append(pending.seq)
            }
        }
        if !marks.isEmpty { try await journal.write(marks).wait() }
        // What could not run in its place runs now, in order, after everything journaled.
        let followUps = deferred
        deferred = []
        replayedChildren = [:]
        for entry in followUps {
            guard let handler = handlers.table[entry.type] else { continue }
            _ = await runAnew(entry, handler, into: &report)
        }
        await sendAgain(readableHeld, into: &report, journaled: all)
        if !heldWarnings.isEmpty {
            let delay = heldWarningDelay
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                await self?.warnAboutHeld()
            }
        }
        return report
    }

    /// Warns about each command recovery held that no handler registered since has run.
    func warnAboutHeld() {
        let still = heldWarnings.filter { held[$0.key] != nil }.sorted { $0.key < $1.key }
        heldWarnings = [:]
        for (_, message) in still { warn(message) }
    }

    /// Sends held commands again, as new commands with their own ids, and marks the held seq
    /// settled; one the handler (or the journal) says was applied already is only marked.
    func sendAgain(_ entries: [(UInt64, JournalEntry)], into report: inout Recovery, journaled: [PendingCommand]? = nil) async {
        let all = journaled ?? ((try? journal.commands(after: 0)) ?? [])
        for (seq, entry) in entries {
            held[seq] = nil
            guard let handler = handlers.table[entry.type] else { continue }
            let again = all.first { $0.entry.id == entry.id && $0.seq > seq }
            if handler.hasApplied(entry.id) || again != nil {
                _ = journal.write([JournalRecord(seq: seq, .failed("already applied\(again.map { " as command \($0.seq)" } ?? "")"))])
                continue
            }
            var fresh = entry
            fresh.parent = nil
            let newSeq = await runAnew(fresh, handler, into: &report)
            _ = journal.write([JournalRecord(seq: seq, .failed("run again as command \(newSeq)"))])
        }
    }

    /// Journals `entry` under a new seq and runs it, noting both in `report`; returns the seq.
    func runAnew(_ entry: JournalEntry, _ handler: Handlers.Handler, into report: inout Recovery) async -> UInt64 {
        var seq: UInt64 = 0
        do {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                seq = start(entry, handler, done: done)
            }
        } catch {
            report.failed.append(seq)
        }
        report.sentAgain.append(seq)
        return seq
    }

    /// What `receive` did with each command.
    public struct Received: Sendable, Equatable {
        public var applied: [UUID] = []
        public var skipped: [UUID] = []
        public var failed: [UUID] = []
        public var unreadable: [UUID] = []
    }

    /// Applies commands that arrived from elsewhere (another device's journal), in order, each
    /// at most once by its id: one this bus has run or is running (in this journal, in what
    /// compaction kept of it, claimed by a `receive` still running) or that a store has applied
    /// is skipped. The id is claimed in the same step that decides to run it, so concurrent
    /// `receive`s of one command run it once. One that fails (a remove that arrives before its
    /// add) is tried again after the others of the batch, while any of them runs; one that
    /// still fails is reported in `failed` and not counted as run, so receiving it again later
    /// (when what it needs has arrived) runs it.
    public func receive(_ entries: [JournalEntry]) async throws -> Received {
        guard !recovering else { throw CommandBusError.recovering }
        let known = JournalRecords.knownIDs(try journal.records())
        var report = Received()
        var pending: [JournalEntry] = []
        for entry in entries {
            guard let handler = handlers.table[entry.type], (try? handler.check(entry)) != nil else {
                report.unreadable.append(entry.id)
                continue
            }
            if claimed.contains(entry.id) || known.contains(entry.id) || handler.hasApplied(entry.id) {
                report.skipped.append(entry.id)
                continue
            }
            claimed.insert(entry.id)
            pending.append(entry)
        }
        while !pending.isEmpty {
            var failed: [JournalEntry] = []
            for entry in pending {
                var fresh = entry
                fresh.parent = nil
                do {
                    try await submit(fresh)
                    report.applied.append(entry.id)
                } catch {
                    failed.append(entry)
                }
            }
            // Only while something ran: what a failed command needs may have arrived since.
            guard failed.count < pending.count else {
                for entry in failed { claimed.remove(entry.id) }
                report.failed = failed.map(\.id)
                break
            }
            pending = failed
        }
        return report
    }

    /// Refuses new commands, and returns once the ones sent (and their follow-ups) have run.
    public func close() async {
        warnAboutHeld()
        closed = true
        guard draining else { return }
        await withCheckedContinuation { idle.append($0) }
    }

    /// The journaled command described for people.
    public nonisolated func summary(of entry: JournalEntry) -> String {
        summaries.withLock { $0[entry.type] }?(entry) ?? entry.type
    }

    func enqueue(_ job: Job) {
        queue.append(job)
        guard !draining else { return }
        draining = true
        Task { await drain() }
    }

    func drain() async {
        while !queue.isEmpty {
            let job = queue.removeFirst()
            let context = CommandContext(seq: job.seq, id: job.entry.id, replaying: job.replaying)
            var result: Result<Void, any Error>
            var journaled = true
            do {
                try await job.written?.wait()
            } catch {
                journaled = false
            }
            if !journaled, let failure = job.written?.result, case .failure(let error) = failure {
                result = .failure(error)
            } else {
                do {
                    try await CommandBus.$running.withValue(Running(bus: ObjectIdentifier(self), seq: job.seq, replaying: job.replaying)) {
                        try await job.handler.run(job.entry, context)
                    }
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
                if job.recordsOutcome {
                    // Not waited for: it shares the next command's fsync. If it is lost, the
                    // command counts as interrupted and recovery runs it again.
                    switch result {
                    case .success: _ = journal.write([JournalRecord(seq: job.seq, .applied)])
                    case .failure(let error): _ = journal.write([JournalRecord(seq: job.seq, .failed(String(describing: error)))])
                    }
                }
            }
            switch result {
            case .success: observer?(.applied(seq: job.seq, type: job.entry.type))
            case .failure(let error): observer?(.failed(seq: job.seq, type: job.entry.type, message: String(describing: error)))
            }
            job.done?.resume(with: result)
        }
        draining = false
        let waiting = idle
        idle = []
        for w in waiting { w.resume() }
    }
}
