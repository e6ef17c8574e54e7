import CommandBus

/// The version of a state's stored form, and how to bring older snapshots up to it: one
/// function per step, from version N to N+1, over the stored JSON (so no copy of the old
/// Swift types is needed). A snapshot written before there were versions is version 1.
public struct Schema: Sendable {
    public struct Migration: Sendable {
        public var from: Int
        public var run: @Sendable (JSON) throws -> JSON
        public init(from: Int, _ run: @escaping @Sendable (JSON) throws -> JSON) {
            self.from = from
            self.run = run
        }
    }

    public var version: Int
    public var migrations: [Migration]

    public init(version: Int = 1, migrations: [Migration] = []) {
        self.version = version
        self.migrations = migrations
    }

    /// `state`, stored at `version`, brought up to this schema's version.
    public func migrate(_ state: JSON, from version: Int) throws -> JSON {
        guard version <= self.version else { throw StoreError.newerSchema(found: version, known: self.version) }
        var state = state
        for v in version..<self.version {
            guard let step = migrations.first(where: { $0.from == v }) else { throw StoreError.noMigration(from: v) }
            do { state = try step.run(state) } catch { throw StoreError.migrationFailed(from: v, String(describing: error)) }
        }
        return state
    }
}

public enum StoreError: Error, Equatable, CustomStringConvertible {
    case newerSchema(found: Int, known: Int)
    case noMigration(from: Int)
    case migrationFailed(from: Int, String)
    case nothingToUndo
    case nothingToRedo
    case notUndoable(String)

    public var description: String {
        switch self {
        case .newerSchema(let found, let known):
            return "the snapshot is schema \(found), newer than this build's \(known): it was written by a newer version of the app; it is left as it is"
        case .noMigration(let from): return "there is no migration from schema \(from) to \(from + 1)"
        case .migrationFailed(let from, let why): return "the migration from schema \(from) to \(from + 1) failed: \(why)"
        case .nothingToUndo: return "nothing to undo"
        case .nothingToRedo: return "nothing to redo"
        case .notUndoable(let type): return "\(type) has no handler on this store, so it cannot be undone or redone"
        }
    }
}
