import Foundation

/// Handlers by command type: exactly one per type.
public struct Handlers: Sendable {
    typealias Run = @Sendable (JournalEntry, CommandContext) async throws -> Void

    struct Handler: Sendable {
        var run: Run
        /// Whether replay after a crash runs it again even when the journal says it was applied:
        /// true for handlers that change a `Store` (their effect is lost with the process unless
        /// a snapshot holds it), false for handlers whose effects live elsewhere.
        var replaysApplied: Bool
        /// Decodes the entry, throwing why this build cannot read it (a newer version, a
        /// payload that does not decode): recovery holds such a command instead of running it.
        var check: @Sendable (JournalEntry) throws -> Void
        /// Whether the command with this id has already changed what the handler changes (a
        /// store knows; other handlers say no): commands from elsewhere are skipped by it.
        var hasApplied: @Sendable (UUID) -> Bool
        var summary: @Sendable (JournalEntry) -> String
    }

    var table: [String: Handler] = [:]

    public init() {}

    /// Registers the handler for `C`; a second one for the same type is an error. Its effects
    /// live outside any store, so once the journal says it was applied it is not run again.
    public mutating func register<C: Command>(_ type: C.Type, _ handler: @escaping @Sendable (C) async throws -> Void) throws {
        try register(type, replaysApplied: false) { command, _ in try await handler(command) }
    }

    /// Registers a handler that is told where it runs (`CommandContext`). `replaysApplied`: see
    /// `Handler.replaysApplied`; `hasApplied`: see `Handler.hasApplied`.
    public mutating func register<C: Command>(_ type: C.Type, replaysApplied: Bool,
                                              hasApplied: @escaping @Sendable (UUID) -> Bool = { _ in false },
                                              _ handler: @escaping @Sendable (C, CommandContext) async throws -> Void) throws {
        guard table[C.typeName] == nil else { throw CommandBusError.duplicateHandler(C.typeName) }
        table[C.typeName] = Handler(
            run: { entry, context in try await handler(C.decode(entry), context) },
            replaysApplied: replaysApplied,
            check: { entry in _ = try C.decode(entry) },
            hasApplied: hasApplied,
            summary: { entry in (try? C.decode(entry).summary) ?? C.typeName })
    }

    /// Registers the handler for `C` that takes the journaled entry itself (a store's, which
    /// keeps the entry in its undo history and decodes it once): no decode here, no encode
    /// again there.
    public mutating func registerEntry<C: Command>(_ type: C.Type, replaysApplied: Bool, hasApplied: @escaping @Sendable (UUID) -> Bool,
                                                   _ handler: @escaping @Sendable (JournalEntry, CommandContext) async throws -> Void) throws {
        guard table[C.typeName] == nil else { throw CommandBusError.duplicateHandler(C.typeName) }
        table[C.typeName] = Handler(
            run: handler,
            replaysApplied: replaysApplied,
            check: { entry in _ = try C.decode(entry) },
            hasApplied: hasApplied,
            summary: { entry in (try? C.decode(entry).summary) ?? C.typeName })
    }

    /// Adds `other`'s handlers; a type both handle is an error, and then nothing is added.
    public mutating func merge(_ other: Handlers) throws {
        if let both = other.table.keys.first(where: { table[$0] != nil }) { throw CommandBusError.duplicateHandler(both) }
        table.merge(other.table) { mine, _ in mine }
    }

    public func handles(_ typeName: String) -> Bool { table[typeName] != nil }

    /// A journaled command described for people.
    public func summary(of entry: JournalEntry) -> String { table[entry.type]?.summary(entry) ?? entry.type }
}
