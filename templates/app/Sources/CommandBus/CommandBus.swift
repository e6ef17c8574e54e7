import Foundation

/// Something the app asks to be done. Commands are values: they are written to the journal
/// before they run, so they must encode, and their `typeName` must never change once shipped
/// (it is how a journal written by an older build finds its handler).
public protocol Command: Codable, Sendable {
    static var typeName: String { get }
    var id: UUID { get }
}

/// What the bus reports about each command, in order.
public enum BusEvent: Sendable, Equatable {
    case accepted(id: UUID, type: String)
    case completed(id: UUID, type: String)
    case failed(id: UUID, type: String, message: String)
}

public enum CommandBusError: Error, Equatable, CustomStringConvertible {
    case duplicateHandler(String)
    case noHandler(String)

    public var description: String {
        switch self {
        case .duplicateHandler(let t): return "a handler for \(t) is already registered"
        case .noHandler(let t): return "no handler is registered for \(t)"
        }
    }
}

/// Handlers by command type: exactly one per type.
public struct Handlers: Sendable {
    typealias Run = @Sendable (Data) async throws -> Void
    var runs: [String: Run] = [:]

    public init() {}

    /// Registers the handler for `C`; a second one for the same type is an error.
    public mutating func register<C: Command>(_ type: C.Type, _ handler: @escaping @Sendable (C) async throws -> Void) throws {
        guard runs[C.typeName] == nil else { throw CommandBusError.duplicateHandler(C.typeName) }
        runs[C.typeName] = { data in try await handler(JSONDecoder().decode(C.self, from: data)) }
    }

    public func handles(_ typeName: String) -> Bool { runs[typeName] != nil }
}

/// Runs commands one at a time, in the order they were sent. Each is appended to the journal
/// before its handler runs, so after a crash `replay` brings the app back to where it was.
public actor CommandBus {
    let handlers: Handlers
    let journal: any Journal
    /// The last command's run: each new one waits for it, which keeps them in order.
    var tail: Task<Void, Never>?
    public nonisolated let events: AsyncStream<BusEvent>
    let continuation: AsyncStream<BusEvent>.Continuation

    public init(handlers: Handlers, journal: any Journal = MemoryJournal()) {
        self.handlers = handlers
        self.journal = journal
        (events, continuation) = AsyncStream.makeStream(of: BusEvent.self)
    }

    /// Journals `command`, then runs its handler after every command sent before it.
    /// Throws what the journal or the handler threw.
    public func send<C: Command>(_ command: C) async throws {
        guard let run = handlers.runs[C.typeName] else { throw CommandBusError.noHandler(C.typeName) }
        let payload = try JSONEncoder().encode(command)
        let entry = JournalEntry(id: command.id, type: C.typeName, payload: payload)
        let journal = self.journal
        try await enqueue(journal: { try await journal.append(entry) }, run: { try await run(payload) }, id: command.id, type: C.typeName)
    }

    /// Runs the entries' handlers again, in order, without journaling them again: after a
    /// crash, on a fresh state; or without some entries (`skipping`), to undo them.
    public func replay(_ entries: [JournalEntry], skipping: Set<UUID> = []) async throws {
        for entry in entries where !skipping.contains(entry.id) {
            guard let run = handlers.runs[entry.type] else { throw CommandBusError.noHandler(entry.type) }
            try await enqueue(journal: nil, run: { try await run(entry.payload) }, id: entry.id, type: entry.type)
        }
    }

    /// Replays everything the journal holds (see `replay(_:skipping:)`).
    public func replayJournal(skipping: Set<UUID> = []) async throws {
        try await replay(try await journal.entries(), skipping: skipping)
    }

    func enqueue(journal write: (@Sendable () async throws -> Void)?, run: @escaping @Sendable () async throws -> Void, id: UUID, type: String) async throws {
        let previous = tail
        let continuation = self.continuation
        let task = Task {
            await previous?.value
            try await write?()
            continuation.yield(.accepted(id: id, type: type))
            do {
                try await run()
                continuation.yield(.completed(id: id, type: type))
            } catch {
                continuation.yield(.failed(id: id, type: type, message: String(describing: error)))
                throw error
            }
        }
        tail = Task { _ = await task.result }
        try await task.value
    }

    /// Ends the event stream (for a bus that is done).
    public func finish() { continuation.finish() }
}
