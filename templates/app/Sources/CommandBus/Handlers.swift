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
    /// `Handler.replaysApplied`.
    public mutating func register<C: Command>(_ type: C.Type, replaysApplied: Bool,
                                              _ handler: @escaping @Sendable (C, CommandContext) async throws -> Void) throws {
        guard table[C.typeName] == nil else { throw CommandBusError.duplicateHandler(C.typeName) }
        table[C.typeName] = Handler(
            run: { entry, context in try await handler(C.decode(entry), context) },
            replaysApplied: replaysApplied,
            summary: { entry in (try? C.decode(entry).summary) ?? C.typeName })
    }

    public func handles(_ typeName: String) -> Bool { table[typeName] != nil }

    /// A journaled command described for people.
    public func summary(of entry: JournalEntry) -> String { table[entry.type]?.summary(entry) ?? entry.type }
}
