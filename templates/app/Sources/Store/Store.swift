import CommandBus
import Foundation
import Synchronization

/// The app's state: restored synchronously at launch from a snapshot on disk (so the first
/// frame shows what the user had), changed only by the command bus's handlers registered with
/// `Handlers.register(_:on:_:)`, and written back off the caller's path.
///
/// The snapshot is `{_crc, schema, lastSeq, state, history, applied}`: a CRC-32 of the file
/// (taken with `_crc` zeroed; first, so it is found at a fixed place), the state's schema
/// version, the last journaled command it holds, the state, the undo history, and the ids of
/// the commands applied (so a command that arrives again, from a sync or a retry, is applied
/// once). It is written on the state directory's I/O queue to a temporary file, fsynced; the
/// snapshot before it becomes the previous generation (`state.json.previous`), the new one is
/// renamed into place and the directory fsynced; then the journal drops the commands the
/// *previous* generation holds, so it always holds what came after either. Commands that land
/// while one is written share the next. At launch, `CommandBus.recover(after: store.lastSeq)`
/// runs again what came after, so a crash at any moment loses no journaled command.
///
/// A snapshot that is damaged (its checksum does not match: one flipped bit is caught) or
/// missing (a crash between the two renames) is moved aside with a warning, never deleted,
/// and the previous generation is restored instead; the journal since it runs again, so
/// nothing acknowledged is lost. With neither readable, the app starts from the initial state
/// and the journal. One written by a newer build, or one a migration cannot bring up to
/// date, is an error: it is left as it is, for the newer build or a person.
public final class Store<State: Codable & Sendable & Equatable>: Sendable {
    /// A new state, and the command that made it.
    public struct Change: Sendable {
        public var state: State
        public var seq: UInt64
    }

    /// Decodes a journaled command (throwing if this build cannot read it), then returns what
    /// applies it: the change, and the command that would undo it.
    typealias Reducer = @Sendable (JournalEntry) throws -> @Sendable (inout State) throws -> JournalEntry?

    struct Inner {
        var state: State
        var lastSeq: UInt64
        var history: UndoHistory
        var applied: Set<UUID>
        var observers: [UUID: @Sendable (Change) -> Void] = [:]
        var reducers: [String: Reducer] = [:]
        var writtenSeq: UInt64
        var snapshotQueued = false
        var closed = false
        /// Commands applied since the snapshot on disk.
        var unsaved = 0
        /// Bumped by every command: an idle timer that finds it changed waits again.
        var commits: UInt64 = 0
        /// Whether an idle timer is set (one at a time, however many commands come).
        var idleTimerSet = false
    }

    struct Snapshot<S: Codable>: Codable {
        var schema: Int
        var lastSeq: UInt64
        var state: S
        var history: UndoHistory
        var applied: [UUID]?
    }

    public let snapshotURL: URL
    let directory: StateDirectory
    let schema: Schema
    let journal: (any Journal)?
    let snapshots: SnapshotPolicy
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
    /// Restores the snapshot `name` in `directory` (migrating it to `schema`), or starts from
    /// `initial`. `journal` is compacted after each snapshot; `warn` hears every problem that
    /// does not stop the app.
    public init(in directory: StateDirectory, name: String = "state.json", initial: State, schema: Schema = Schema(),
                journal: (any Journal)? = nil, snapshots: SnapshotPolicy = .standard, undoLimit: Int = 100,
                warn: @escaping @Sendable (String) -> Void = Store.printWarning) throws {
        self.snapshots = snapshots
        let snapshotURL = directory.file(name)
        self.snapshotURL = snapshotURL
        self.directory = directory
        self.schema = schema
        self.journal = journal
        self.undoLimit = undoLimit
        self.warn = warn
        DurableFile.removeTemporaries(of: snapshotURL)
        let restored = try Store.restoreGeneration(snapshotURL, schema: schema, warn: warn)
        let start = Inner(state: restored?.state ?? initial, lastSeq: restored?.lastSeq ?? 0,
                          history: restored?.history ?? UndoHistory(), applied: Set(restored?.applied ?? []),
                          writtenSeq: restored?.lastSeq ?? 0)
        inner = Mutex(start)
        published = Mutex(Published(state: start.state, lastSeq: start.lastSeq, history: start.history))
    }

    /// Where the generation before the newest is kept.
    static func previous(_ url: URL) -> URL { url.appendingPathExtension("previous") }

    /// The newest snapshot that can be read: `url`, else the previous generation (said), else
    /// none.
    static func restoreGeneration(_ url: URL, schema: Schema, warn: @Sendable (String) -> Void) throws -> Snapshot<State>? {
        let older = previous(url)
        let exists = FileManager.default.fileExists(atPath: url.path)
        let fallback = FileManager.default.fileExists(atPath: older.path) ? "the previous snapshot and the journal since it" : "the initial state and the journal"
        if exists, let snapshot = try restore(url, schema: schema, fallback: fallback, warn: warn) { return snapshot }
        guard FileManager.default.fileExists(atPath: older.path) else { return nil }
        if !exists { warn("the snapshot \(url.path) is missing (a crash while it was replaced); starting from the previous one, \(older.path), and the journal since it") }
        return try restore(older, schema: schema, fallback: "the initial state and the journal", warn: warn)
    }

    static func restore(_ url: URL, schema: Schema, fallback: String, warn: @Sendable (String) -> Void) throws -> Snapshot<State>? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        func moveAside(_ why: String) -> Snapshot<State>? {
            let aside = url.appendingPathExtension("unreadable-\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                warn("the snapshot \(url.path) cannot be read (\(why)); starting from \(fallback), the file is kept as \(aside.path)")
            } catch {
                warn("the snapshot \(url.path) cannot be read (\(why)), nor moved aside (\(error)); starting from \(fallback)")
            }
            return nil
        }
        if let why = SnapshotChecksum.problem(Array(data)) { return moveAside(why) }
        // The common case, the current schema, decodes in one pass.
        if (try? JSONDecoder().decode(SnapshotHeader.self, from: data))?.schema == schema.version,
           let snapshot = try? JSONDecoder().decode(Snapshot<State>.self, from: data) {
            return snapshot
        }
        let json: JSON
        do { json = try JSON(data: data) } catch { return moveAside("it is not JSON") }
        guard case .number(let version)? = json["schema"], json["state"] != nil else {
            // Written before snapshots had a schema: the state itself, schema 1.
            do { return Snapshot(schema: schema.version, lastSeq: 0, state: try decodeMigrated(json, from: 1, schema), history: UndoHistory(), applied: nil) }
            catch let error as StoreError { throw error } catch { return moveAside("\(error)") }
        }
        guard let v = Int(exactly: version), v >= 1 else { return moveAside("its schema is \(version)") }
        do {
            if v == schema.version { return try JSONDecoder().decode(Snapshot<State>.self, from: data) }
            let old = try JSONDecoder().decode(Snapshot<JSON>.self, from: data)
            return Snapshot(schema: schema.version, lastSeq: old.lastSeq, state: try decodeMigrated(old.state, from: v, schema),
                            history: old.history, applied: old.applied)
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

    /// How many observers are registered.
    public var observerCount: Int { inner.withLock { $0.observers.count } }

    /// Whether the command with this id has changed the state.
    public func hasApplied(_ id: UUID) -> Bool { inner.withLock { $0.applied.contains(id) } }

    // MARK: - Changes (only through the bus's handlers)

    func addReducer(_ type: String, _ reducer: @escaping Reducer) {
        inner.withLock { $0.reducers[type] = reducer }
    }

    /// Applies `entry`, journaled as `context.seq`: its reducer runs on a copy, so a reducer
    /// that throws changes nothing. A command the state already holds is not applied twice.
    func apply(_ entry: JournalEntry, _ context: CommandContext) throws {
        try commit(context) { s in
            guard let reducer = s.reducers[entry.type] else { throw CommandBusError.noHandler(entry.type) }
            let reduce = try reducer(entry)
            var state = s.state
            let inverse = try reduce(&state)
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
    /// the action's own inverse, to the other list. A step this build cannot read (its
    /// command's type or version is gone) is dropped with a warning, and the one before it
    /// is undone instead: history never gets stuck on it.
    func step(redo: Bool, _ context: CommandContext) throws {
        var dropped: [String] = []
        defer { for why in dropped { warn(why) } }
        let nothing = redo ? StoreError.nothingToRedo : StoreError.nothingToUndo
        var undid = false
        try commit(context) { s in
            while true {
                guard let step = redo ? s.history.redo.last : s.history.undo.last else {
                    // Only unreadable steps were left: dropping them is the change.
                    if dropped.isEmpty { throw nothing }
                    return
                }
                guard let reducer = s.reducers[step.action.type] else { throw StoreError.notUndoable(step.action.type) }
                let reduce: @Sendable (inout State) throws -> JournalEntry?
                do { reduce = try reducer(step.action) } catch {
                    if redo { s.history.redo.removeLast() } else { s.history.undo.removeLast() }
                    dropped.append("the \(redo ? "redo" : "undo") step for \(step.command.type) cannot be read by this build (\(error)); it is dropped from the history")
                    continue
                }
                var state = s.state
                let again = try reduce(&state)
                s.state = state
                if redo { s.history.redo.removeLast() } else { s.history.undo.removeLast() }
                if let again {
                    let moved = UndoHistory.Step(command: step.command, action: again)
                    if redo { s.history.undo.append(moved) } else { s.history.redo.append(moved) }
                }
                undid = true
                return
            }
        }
        if !undid && !dropped.isEmpty { throw nothing }
    }

    func commit(_ context: CommandContext, _ change: (inout Inner) throws -> Void) throws {
        let result: (Change, [@Sendable (Change) -> Void], Bool)? = try inner.withLock { s in
            guard context.seq > s.lastSeq, !s.applied.contains(context.id) else { return nil }
            var copy = s
            try change(&copy)
            copy.lastSeq = context.seq
            copy.applied.insert(context.id)
            copy.unsaved += 1
            copy.commits &+= 1
            // Now when enough commands wait; otherwise once no command has come for a while.
            let schedule = copy.unsaved >= snapshots.every && !copy.snapshotQueued && !copy.closed
            copy.snapshotQueued = copy.snapshotQueued || schedule
            s = copy
            published.withLock { $0 = Published(state: copy.state, lastSeq: copy.lastSeq, history: copy.history) }
            return (Change(state: s.state, seq: s.lastSeq), Array(s.observers.values), schedule)
        }
        guard let (change, observers, schedule) = result else { return }
        if schedule {
            directory.io.async { self.writeSnapshot() }
        } else {
            armIdleTimer()
        }
        for observer in observers { observer(change) }
    }

    // MARK: - The snapshot

    /// Writes the snapshot once no command has come for the policy's `idle`: one timer at a
    /// time, which waits again when commands came while it ran.
    func armIdleTimer() {
        guard let commits = inner.withLock({ s -> UInt64? in
            guard !s.idleTimerSet, !s.closed else { return nil }
            s.idleTimerSet = true
            return s.commits
        }) else { return }
        directory.io.asyncAfter(deadline: .now() + snapshots.idleInterval) {
            let idle = self.inner.withLock { s -> Bool in
                s.idleTimerSet = false
                return s.commits == commits
            }
            if idle { self.writeSnapshot() } else { self.armIdleTimer() }
        }
    }

    /// On the I/O queue: writes the newest state, then compacts the journal.
    func writeSnapshot() {
        guard let snapshot: Snapshot<State> = inner.withLock({ s in
            s.snapshotQueued = false
            guard s.lastSeq > s.writtenSeq, !s.closed else { return nil }
            s.unsaved = 0
            return Snapshot(schema: schema.version, lastSeq: s.lastSeq, state: s.state, history: s.history, applied: Array(s.applied))
        }) else { return }
        let before = inner.withLock { $0.writtenSeq }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let bytes = SnapshotChecksum.sealed(try encoder.encode(Sealed(crc: SnapshotChecksum.placeholder, snapshot: snapshot)))
            try DurableFile.replace(snapshotURL, with: bytes, keepingOldAs: Store.previous(snapshotURL))
        } catch {
            warn("cannot write the snapshot \(snapshotURL.path): \(error); the journal keeps every command since the last one")
            return
        }
        inner.withLock { $0.writtenSeq = snapshot.lastSeq }
        // Through the previous generation only: if the newest is ever damaged, the previous
        // one and the journal since it still hold everything.
        do { try journal?.compact(through: before) } catch {
            warn("cannot compact the journal: \(error); it keeps commands the snapshot holds, which replay skips")
        }
    }

    /// Writes a snapshot of every change so far now (whatever the policy), and returns once it
    /// is on disk.
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            directory.io.async {
                self.writeSnapshot()
                done.resume()
            }
        }
    }

    /// Writes what is not in the snapshot yet, then writes no more (the directory can be closed).
    public func close() async {
        await flush()
        inner.withLock { $0.closed = true }
    }
}

/// When a store writes its snapshot: once `every` commands are not in the one on disk, or
/// once `idle` has passed with no command; `flush` and `close` write one at once. Between
/// snapshots the journal holds what came after (it is fsynced before each command runs), so
/// the policy trades launch time (commands replayed) against the cost of each command, never
/// durability.
public struct SnapshotPolicy: Sendable, Equatable {
    public var every: Int
    public var idle: Duration

    public init(every: Int, idle: Duration) {
        self.every = max(1, every)
        self.idle = idle
    }

    /// Every 256 commands, or half a second after the last.
    public static let standard = SnapshotPolicy(every: 256, idle: .milliseconds(500))
    /// After each command, as the store did before policies (the slowest, the shortest replay).
    public static let eachCommand = SnapshotPolicy(every: 1, idle: .zero)

    var idleInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = idle.components
        return .nanoseconds(Int(max(0, seconds)) * 1_000_000_000 + Int(max(0, attoseconds) / 1_000_000_000))
    }
}

/// A snapshot's schema, read without its state.
struct SnapshotHeader: Decodable {
    var schema: Int?
}

/// A snapshot as written: its checksum first (`_crc` sorts before the other keys), then the
/// snapshot's own keys.
struct Sealed<S: Codable>: Encodable {
    var crc: String
    var snapshot: S

    func encode(to encoder: any Encoder) throws {
        try snapshot.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(crc, forKey: .crc)
    }
    enum Key: String, CodingKey { case crc = "_crc" }
}

/// The snapshot's checksum: a CRC-32 of the file's bytes with the checksum's own eight hex
/// digits taken as zeros. A file written before snapshots had one has none and is read as it is.
enum SnapshotChecksum {
    static let placeholder = "00000000"
    static let prefix = Array(#"{"_crc":""#.utf8)

    /// `bytes` (written with the placeholder) with the placeholder replaced by their checksum.
    static func sealed(_ bytes: Data) -> Data {
        var out = [UInt8](bytes)
        guard out.starts(with: prefix), out.count >= prefix.count + 8 else { return bytes }
        let hex = Array(String(format: "%08x", CRC32.checksum(out)).utf8)
        out.replaceSubrange(prefix.count..<(prefix.count + 8), with: hex)
        return Data(out)
    }

    /// Why `bytes` are not what was written, or nil (also for a file with no checksum).
    static func problem(_ bytes: [UInt8]) -> String? {
        // No checksum at the start: a snapshot from before they had one (a flip in the
        // checksum's own key damages only the key, and the file reads as what it holds).
        guard bytes.starts(with: prefix) else { return nil }
        guard bytes.count >= prefix.count + 9, bytes[prefix.count + 8] == UInt8(ascii: "\""),
              let recorded = UInt32(String(decoding: bytes[prefix.count..<(prefix.count + 8)], as: UTF8.self), radix: 16) else {
            return "its checksum is not readable"
        }
        var zeroed = bytes
        zeroed.replaceSubrange(prefix.count..<(prefix.count + 8), with: Array(placeholder.utf8))
        let actual = CRC32.checksum(zeroed)
        return actual == recorded ? nil : String(format: "its checksum is %08x, but its bytes' is %08x: it was damaged", recorded, actual)
    }
}

extension Handlers {
    /// Registers the handler for `C` that changes `store`'s state — the only way it changes.
    /// `reduce` changes the state and returns the command that would undo it (nil: it cannot
    /// be undone), worked out from the state before the change.
    public mutating func register<C: Command, State>(_ type: C.Type, on store: Store<State>,
                                                     _ reduce: @escaping @Sendable (C, inout State) throws -> (any Command)?) throws {
        try registerEntry(type, replaysApplied: true, hasApplied: { store.hasApplied($0) }) { entry, context in
            try store.apply(entry, context)
        }
        store.addReducer(C.typeName) { entry in
            let command = try C.decode(entry)
            return { state in
                guard let inverse = try reduce(command, &state) else { return nil }
                return try JournalEntry(inverse)
            }
        }
    }

    /// Registers `Undo` and `Redo` for `store`'s history.
    public mutating func registerUndo<State>(on store: Store<State>) throws {
        try register(Undo.self, replaysApplied: true, hasApplied: { store.hasApplied($0) }) { _, context in try store.step(redo: false, context) }
        try register(Redo.self, replaysApplied: true, hasApplied: { store.hasApplied($0) }) { _, context in try store.step(redo: true, context) }
    }
}
