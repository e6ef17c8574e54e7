import Foundation

/// Runs commands one at a time, in the order they were sent. Each command is journaled (and
/// fsynced, with a file journal) before its handler runs, and its outcome after; at launch,
/// `recover(after:)` runs again what the last snapshot does not hold, skipping failures.
///
/// A handler may send follow-up commands: inside a handler, `send` journals the follow-up and
/// returns at once (it runs after the current command), so it never waits on itself.
public actor CommandBus {
    struct Job {
        var seq: UInt64
        var entry: JournalEntry
        var handler: Handlers.Handler
        var replaying: Bool
        /// Whether to journal the outcome (not when replaying a command already marked applied).
        var recordsOutcome: Bool
        var done: CheckedContinuation<Void, any Error>?
    }

    let handlers: Handlers
    let journal: any Journal
    let observer: (@Sendable (BusEvent) -> Void)?
    var nextSeq: UInt64
    var queue: [Job] = []
    var draining = false

    /// The bus whose handler the current task is running, if any.
    @TaskLocal static var runningHandlerOf: ObjectIdentifier?

    /// `observer` hears about each command run, on the bus's task; it must not block.
    public init(handlers: Handlers, journal: any Journal = MemoryJournal(), observer: (@Sendable (BusEvent) -> Void)? = nil) throws {
        self.handlers = handlers
        self.journal = journal
        self.observer = observer
        nextSeq = try journal.lastSeq() + 1
    }

    /// Journals `command`, then runs its handler after every command sent before it, and
    /// returns when it has run (at once when called from a handler). Throws what the journal
    /// or the handler threw.
    public func send<C: Command>(_ command: C) async throws {
        guard let handler = handlers.table[C.typeName] else { throw CommandBusError.noHandler(C.typeName) }
        let entry = try JournalEntry(command)
        let seq = nextSeq
        try journal.append(JournalRecord(seq: seq, .command(entry)))
        nextSeq += 1
        let job = Job(seq: seq, entry: entry, handler: handler, replaying: false, recordsOutcome: true)
        if CommandBus.runningHandlerOf == ObjectIdentifier(self) {
            enqueue(job)
            return
        }
        try await run(job)
    }

    public func undo() async throws { try await send(Undo()) }
    public func redo() async throws { try await send(Redo()) }

    /// What recovery did: the commands it ran again, and those that failed this time.
    public struct Recovery: Sendable, Equatable {
        public var replayed: [UInt64] = []
        public var failed: [UInt64] = []
    }

    /// Runs again, in order, the journaled commands after `lastSeq` (what the snapshot holds):
    /// those with no outcome (interrupted), and applied ones whose handler changes a store.
    /// Failed commands are skipped. Call it once at launch, before sending anything.
    @discardableResult
    public func recover(after lastSeq: UInt64) async throws -> Recovery {
        nextSeq = max(nextSeq, lastSeq + 1)
        var report = Recovery()
        for pending in try journal.commands(after: lastSeq) {
            if case .failed = pending.outcome { continue }
            guard let handler = handlers.table[pending.entry.type] else { throw CommandBusError.noHandler(pending.entry.type) }
            if pending.outcome == .applied && !handler.replaysApplied { continue }
            let job = Job(seq: pending.seq, entry: pending.entry, handler: handler, replaying: true,
                          recordsOutcome: pending.outcome == .unknown)
            report.replayed.append(pending.seq)
            do { try await run(job) } catch {
                report.failed.append(pending.seq)
            }
        }
        return report
    }

    /// The journaled command described for people.
    public nonisolated func summary(of entry: JournalEntry) -> String { handlers.summary(of: entry) }

    /// Queues `job` and returns when it has run, with what its handler threw.
    func run(_ job: Job) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            var job = job
            job.done = done
            enqueue(job)
        }
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
            do {
                try await CommandBus.$runningHandlerOf.withValue(ObjectIdentifier(self)) {
                    try await job.handler.run(job.entry, context)
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            if job.recordsOutcome {
                do {
                    switch result {
                    case .success: try journal.append(JournalRecord(seq: job.seq, .applied))
                    case .failure(let error): try journal.append(JournalRecord(seq: job.seq, .failed(String(describing: error))))
                    }
                } catch {
                    if case .success = result { result = .failure(error) }
                }
            }
            switch result {
            case .success: observer?(.applied(seq: job.seq, type: job.entry.type))
            case .failure(let error): observer?(.failed(seq: job.seq, type: job.entry.type, message: String(describing: error)))
            }
            job.done?.resume(with: result)
        }
        draining = false
    }
}
