import CommandBus
import Foundation

/// The app's state, restored synchronously at launch from a snapshot on disk (so the first
/// frame shows what the user had), changed only by the command bus's handlers, and written
/// back atomically (a temporary file, then a rename) off the caller's path.
///
/// A snapshot that cannot be read starts the app from the initial state, and the bad file
/// is moved aside (never deleted) with a warning: nothing is lost, nothing crashes.
public final class Store<State: Codable & Sendable & Equatable>: @unchecked Sendable {
    public let snapshotURL: URL
    let lock = NSLock()
    var current: State
    var observers: [UUID: @Sendable (State) -> Void] = [:]
    /// Snapshot writes, in order, one at a time, coalesced to the newest state.
    let writer = DispatchQueue(label: "Store.snapshot")
    var pending: State?

    /// Restores the snapshot at `snapshotURL`, or starts from `initial`.
    public init(snapshotURL: URL, initial: State, warn: @Sendable (String) -> Void = Store.printWarning) {
        self.snapshotURL = snapshotURL
        current = initial
        guard let data = try? Data(contentsOf: snapshotURL) else { return }
        do {
            current = try JSONDecoder().decode(State.self, from: data)
        } catch {
            let aside = snapshotURL.appendingPathExtension("corrupt-\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.moveItem(at: snapshotURL, to: aside)
                warn("the snapshot \(snapshotURL.path) could not be read (\(error)); starting from the initial state, the file is kept as \(aside.path)")
            } catch {
                warn("the snapshot \(snapshotURL.path) could not be read, nor moved aside (\(error)); starting from the initial state")
            }
        }
    }

    public static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    /// The state now.
    public var state: State { lock.withLock { current } }

    /// Calls `observer` with every new state (not the current one), on the thread that changed it.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (State) -> Void) -> UUID {
        let id = UUID()
        lock.withLock { observers[id] = observer }
        return id
    }

    public func removeObserver(_ id: UUID) { _ = lock.withLock { observers.removeValue(forKey: id) } }

    /// Changes the state. Internal: only handlers registered with `register(_:on:_:)` call it.
    func apply(_ change: (inout State) throws -> Void) rethrows {
        let (new, toNotify): (State?, [@Sendable (State) -> Void]) = try lock.withLock {
            var copy = current
            try change(&copy)
            guard copy != current else { return (nil, []) }
            current = copy
            pending = copy
            return (copy, Array(observers.values))
        }
        guard let new else { return }
        writer.async { [self] in writePending() }
        for o in toNotify { o(new) }
    }

    func writePending() {
        guard let state = lock.withLock({ () -> State? in defer { pending = nil }; return pending }) else { return }
        do {
            let data = try JSONEncoder().encode(state)
            let dir = snapshotURL.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let temp = dir.appendingPathComponent(".\(snapshotURL.lastPathComponent).\(UUID().uuidString).tmp")
            try data.write(to: temp)
            if rename(temp.path, snapshotURL.path) != 0 {
                try? FileManager.default.removeItem(at: temp)
                Store.printWarning("cannot write the snapshot \(snapshotURL.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            Store.printWarning("cannot write the snapshot \(snapshotURL.path): \(error)")
        }
    }

    /// Waits until every change so far is on disk.
    public func flush() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in writer.async { c.resume() } }
    }
}

extension Handlers {
    /// Registers the handler for `C` that changes `store`'s state: the only way state changes.
    public mutating func register<C: Command, State>(_ type: C.Type, on store: Store<State>, _ reduce: @escaping @Sendable (C, inout State) throws -> Void) throws {
        try register(type) { command in try store.apply { try reduce(command, &$0) } }
    }
}
