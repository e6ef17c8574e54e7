import CommandBus

/// What undo and redo would do. Each step is a command the user sent and the command that
/// undoes it (on the undo list) or does it again (on the redo list), worked out by a reducer
/// from the state before it: an added item's inverse removes it, a removed item's inverse puts
/// it back where it was, and the inverse of that inverse redoes the command.
///
/// Undo is by inverse commands, not by replaying history without the undone entry: the
/// journal is compacted after each snapshot, so the history to replay is gone by design;
/// an inverse costs the same however long the history; and undo and redo are commands like
/// any other — journaled, replayed after a crash, kept in the snapshot.
public struct UndoHistory: Sendable, Equatable, Codable {
    public struct Step: Sendable, Equatable, Codable {
        /// What the user did (what `history` shows).
        public var command: JournalEntry
        /// What undo, or redo, applies.
        public var action: JournalEntry
    }

    /// Oldest first; `undo.last` is what `undo` undoes.
    public internal(set) var undo: [Step] = []
    /// Oldest first; `redo.last` is what `redo` applies again.
    public internal(set) var redo: [Step] = []

    public init() {}

    /// A command was applied: it can be undone, and what was undone can no longer be redone.
    mutating func did(_ step: Step, limit: Int) {
        undo.append(step)
        if undo.count > limit { undo.removeFirst(undo.count - limit) }
        redo.removeAll()
    }
}
