import CommandBus
import Foundation
import Synchronization

/// The app's state: restored synchronously at launch from a snapshot on disk (so the first
/// frame shows what the user had), changed only by the command bus's handlers registered with
/// `Handlers.register(_:on:_:)`, and written back off the caller's path.
///
/// The snapshot is `{schema, lastSeq, state, history}`: the state's schema version, the last
/// journaled command it holds, the state, and the undo history. It is written to a temporary
/// file, fsynced, renamed over the old one, and the directory fsynced; then the journal drops
/// the commands it holds. At launch, `CommandBus.recover(after: store.lastSeq)` runs again
/// what came after, so a crash at any moment loses no journaled command.
///
/// A snapshot that cannot be read at all is moved aside (never deleted) with a warning and
/// the app starts from the initial state. One written by a newer build, or one a migration
/// cannot bring up to date, is an error: it is left as it is, for the newer build or a person.
public final class Store<State: Codable & Sendable & Equatable>: Sendable {
    /// A new state, and the command that made it.
    public struct Change: Sendable {
        public var state: State
        public var seq: UInt64
    }

    typealias Reducer = @Sendable (JournalEntry, inout State) throws -> JournalEntry?

    struct Inner {
        var state: State
        var lastSeq: UInt64
        var history: UndoHistory
        var observers: [UUID: @Sendable (Change) -> Void] = [:]
        var reducers: [String: Reducer] = [:]
        var writtenSeq: UInt64
    }

    struct Snapshot<S: Codable>: Codable {
        var schema: Int
        var lastSeq: UInt64
        var state: S
        var history: UndoHistory
    }

    public let snapshotURL: URL
    let schema: Schema
    let journal: (any Journal)?
    let undoLimit: Int
    let warn: @Sendable (String) -> Void
    let inner: Mutex<Inner>
    /// What readers see: the last committed state, under a lock of its own, so that a reducer
    /// (which runs holding `inner`) that reads the store sees the state before its command
    /// instead of locking `inner` again, which would trap.
    let published: Mutex<Published>
    struct Published {
        var state: State
        var lastSeq: UInt64
        var history: UndoHistory
    }
    /// Snapshot writes, one at a time, each of the newest state.
    let writer = DispatchQueue(label: "Store.snapshot")

    /// Restores the snapshot at `snapshotURL` (migrating it to `schema`), or starts from
    /// `initial`. `journal` is compacted after each snapshot; `warn` hears every problem that
    /// does not stop the app.
    public init(snapshotURL: URL, initial: State, schema: Schema = Schema(), journal: (any Journal)? = nil,
                undoLimit: Int = 100, warn: @escaping @Sendable (String) -> Void = Store.printWarning) throws {
        self.snapshotURL = snapshotURL
        self.schema = schema
        self.journal = journal
        self.undoLimit = undoLimit
        self.warn = warn
        DurableFile.removeTemporaries(of: snapshotURL)
        let restored = try Store.restore(snapshotURL, schema: schema, warn: warn)
        let start = Inner(state: restored?.state ?? initial, lastSeq: restored?.lastSeq ?? 0,
                          history: restored?.history ?? UndoHistory(), writtenSeq: restored?.lastSeq ?? 0)
        inner = Mutex(start)
        published = Mutex(Published(state: start.state, lastSeq: start.lastSeq, history: start.history))
    }

    static func restore(_ url: URL, schema: Schema, warn: @Sendable (String) -> Void) throws -> Snapshot<State>? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        func moveAside(_ why: String) -> Snapshot<State>? {
            let aside = url.appendingPathExtension("unreadable-\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                warn("the snapshot \(url.path) cannot be read (\(why)); starting from the initial state and the journal, the file is kept as \(aside.path)")
            } catch {
                warn("the snapshot \(url.path) cannot be read (\(why)), nor moved aside (\(error)); starting from the initial state and the journal")
            }
            return nil
        }
        // The common case, the current schema, decodes in one pass.
        if (try? JSONDecoder().decode(SnapshotHeader.self, from: data))?.schema == schema.version,
           let snapshot = try? JSONDecoder().decode(Snapshot<State>.self, from: data) {
            return snapshot
        }
        let json: JSON
        do { json = try JSON(data: data) } catch { return moveAside("it is not JSON") }
        guard case .number(let version)? = json["schema"], json["state"] != nil else {
            // Written before snapshots had a schema: the state itself, schema 1.
            do { return Snapshot(schema: schema.version, lastSeq: 0, state: try decodeMigrated(json, from: 1, schema), history: UndoHistory()) }
            catch let error as StoreError { throw error } catch { return moveAside("\(error)") }
        }
        guard let v = Int(exactly: version), v >= 1 else { return moveAside("its schema is \(version)") }
        do {
            if v == schema.version { return try JSONDecoder().decode(Snapshot<State>.self, from: data) }
            let old = try JSONDecoder().decode(Snapshot<JSON>.self, from: data)
            return Snapshot(schema: schema.version, lastSeq: old.lastSeq, state: try decodeMigrated(old.state, from: v, schema), history: old.history)
        } catch let error as StoreError {
            throw error
        } catch {
            return moveAside("\(error)")
        }
    }

    static func decode(_ json: JSON) throws -> State { try JSONDecoder().decode(State.self, from: try json.data()) }

    /// `json`, stored at schema `v`, migrated and decoded. A migration whose result does not
    /// decode is the migration's error (the snapshot is left alone); with nothing migrated, a
    /// state that does not decode is an unreadable file.
    static func decodeMigrated(_ json: JSON, from v: Int, _ schema: Schema) throws -> State {
        let migrated = try schema.migrate(json, from: v)
        do { return try decode(migrated) } catch {
            guard v < schema.version else { throw error }
            throw StoreError.migrationFailed(from: schema.version - 1, "its result does not decode as the state (\(error))")
        }
    }

    public static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    /// The state now (inside a reducer: the state before its command).
    public var state: State { published.withLock { $0.state } }
    /// The last journaled command the state holds.
    public var lastSeq: UInt64 { published.withLock { $0.lastSeq } }
    public var history: UndoHistory { published.withLock { $0.history } }
    /// The state now and the last command it holds, read together.
    public var current: Change { published.withLock { Change(state: $0.state, seq: $0.lastSeq) } }

    /// Calls `observer` with every change after this one, on the thread that made it (the
    /// bus's): an observer hands work on (see `LayoutQueue`), it does not do it there.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (Change) -> Void) -> UUID {
        let id = UUID()
        inner.withLock { $0.observers[id] = observer }
        return id
    }

    public func removeObserver(_ id: UUID) { _ = inner.withLock { $0.observers.removeValue(forKey: id) } }

    // MARK: - Changes (only through the bus's handlers)

    func addReducer(_ type: String, _ reducer: @escaping Reducer) {
        inner.withLock { $0.reducers[type] = reducer }
    }

    /// Applies `entry`, journaled as `context.seq`: its reducer runs on a copy, so a reducer
    /// that throws changes nothing. A command the state already holds is not applied twice.
    func apply(_ entry: JournalEntry, _ context: CommandContext) throws {
        try commit(context) { s in
            guard let reduce = s.reducers[entry.type] else { throw CommandBusError.noHandler(entry.type) }
            var state = s.state
            let inverse = try reduce(entry, &state)
            s.state = state
            if let inverse {
                s.history.did(UndoHistory.Step(command: entry, action: inverse), limit: undoLimit)
            } else {
                // A change that cannot be undone still changes what a redo would act on.
                s.history.redo.removeAll()
            }
        }
    }

    /// Undo (`redo: false`) or redo the last step: apply its action, and move the step, with
    /// the action's own inverse, to the other list.
    func step(redo: Bool, _ context: CommandContext) throws {
        try commit(context) { s in
            guard let step = redo ? s.history.redo.last : s.history.undo.last else {
                throw redo ? StoreError.nothingToRedo : StoreError.nothingToUndo
            }
            guard let reduce = s.reducers[step.action.type] else { throw StoreError.notUndoable(step.action.type) }
            var state = s.state
            let again = try reduce(step.action, &state)
            s.state = state
            if redo { s.history.redo.removeLast() } else { s.history.undo.removeLast() }
            if let again {
                let moved = UndoHistory.Step(command: step.command, action: again)
                if redo { s.history.undo.append(moved) } else { s.history.redo.append(moved) }
            }
        }
    }

    func commit(_ context: CommandContext, _ change: (inout Inner) throws -> Void) throws {
        let result: (Change, [@Sendable (Change) -> Void])? = try inner.withLock { s in
            guard context.seq > s.lastSeq else { return nil }
            var copy = s
            try change(&copy)
            copy.lastSeq = context.seq
            s = copy
            published.withLock { $0 = Published(state: copy.state, lastSeq: copy.lastSeq, history: copy.history) }
            return (Change(state: s.state, seq: s.lastSeq), Array(s.observers.values))
        }
        guard let (change, observers) = result else { return }
        writer.async { self.writeSnapshot() }
        for observer in observers { observer(change) }
    }

    // MARK: - The snapshot

    func writeSnapshot() {
        guard let snapshot: Snapshot<State> = inner.withLock({ s in
            s.lastSeq > s.writtenSeq ? Snapshot(schema: schema.version, lastSeq: s.lastSeq, state: s.state, history: s.history) : nil
        }) else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try DurableFile.replace(snapshotURL, with: try encoder.encode(snapshot))
        } catch {
            warn("cannot write the snapshot \(snapshotURL.path): \(error); the journal keeps every command since the last one")
            return
        }
        inner.withLock { $0.writtenSeq = snapshot.lastSeq }
        do { try journal?.compact(through: snapshot.lastSeq) } catch {
            warn("cannot compact the journal: \(error); it keeps commands the snapshot holds, which replay skips")
        }
    }

    /// Waits until every change so far is in the snapshot on disk.
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in writer.async { done.resume() } }
    }
}

/// A snapshot's schema, read without its state.
struct SnapshotHeader: Decodable {
    var schema: Int?
}

extension Handlers {
    /// Registers the handler for `C` that changes `store`'s state — the only way it changes.
    /// `reduce` changes the state and returns the command that would undo it (nil: it cannot
    /// be undone), worked out from the state before the change.
    public mutating func register<C: Command, State>(_ type: C.Type, on store: Store<State>,
                                                     _ reduce: @escaping @Sendable (C, inout State) throws -> (any Command)?) throws {
        try register(type, replaysApplied: true) { command, context in try store.apply(try JournalEntry(command), context) }
        store.addReducer(C.typeName) { entry, state in
            guard let inverse = try reduce(try C.decode(entry), &state) else { return nil }
            return try JournalEntry(inverse)
        }
    }

    /// Registers `Undo` and `Redo` for `store`'s history.
    public mutating func registerUndo<State>(on store: Store<State>) throws {
        try register(Undo.self, replaysApplied: true) { _, context in try store.step(redo: false, context) }
        try register(Redo.self, replaysApplied: true) { _, context in try store.step(redo: true, context) }
    }
}
