import CommandBus
import Foundation
import Layout
import Store
import Synchronization

/// The feature, wired end to end:
///
///     user → command → bus (journaled) → handler → store → change
///          → layout on a background queue → frame → screen on the main actor
///
/// State and journal live in a directory: the snapshot is restored synchronously at `open`,
/// then the journal's commands after it are run again, so the app opens as it was left, even
/// after a kill -9.
public final class ItemsFeature: Sendable {
    public let store: Store<ItemsState>
    public let bus: CommandBus
    public let journal: FileJournal
    public let directory: StateDirectory

    init(store: Store<ItemsState>, bus: CommandBus, journal: FileJournal, directory: StateDirectory) {
        self.store = store
        self.bus = bus
        self.journal = journal
        self.directory = directory
    }

    /// Opens the feature's state in `directory` (made if needed) and recovers it. The directory
    /// is this instance's until `close()`: a second `open` of it, here or in another process,
    /// throws `StateDirectoryError.inUse`.
    public static func open(directory url: URL, warn: @escaping @Sendable (String) -> Void = Store<ItemsState>.printWarning) async throws -> ItemsFeature {
        let directory = try StateDirectory(url)
        do {
            let journal = try FileJournal(in: directory, warn: warn)
            let store = try Store(in: directory, initial: ItemsState(), schema: ItemsState.schema, journal: journal, warn: warn)
            var handlers = Handlers()
            try handlers.register(AddItem.self, on: store, ItemsState.add)
            try handlers.register(RemoveItem.self, on: store, ItemsState.remove)
            try handlers.register(InsertItem.self, on: store, ItemsState.insert)
            try handlers.registerUndo(on: store)
            // The import's follow-ups go to the bus it runs on, made just below.
            let busForImports = Mutex<CommandBus?>(nil)
            try handlers.register(ImportItems.self) { command in
                guard let bus = busForImports.withLock({ $0 }) else { return }
                for text in command.texts { try await bus.send(AddItem(text: text)) }
            }
            let bus = try CommandBus(handlers: handlers, journal: journal, warn: warn)
            busForImports.withLock { $0 = bus }
            let recovery = try await bus.recover(after: store.lastSeq)
            if !recovery.failed.isEmpty { warn("commands \(recovery.failed.map(String.init).joined(separator: ", ")) failed when run again at launch") }
            return ItemsFeature(store: store, bus: bus, journal: journal, directory: directory)
        } catch {
            await directory.close()
            throw error
        }
    }

    /// Lets the commands sent run, writes the snapshot, and gives up the directory.
    public func close() async {
        await bus.close()
        await store.close()
        await journal.close()
        await directory.close()
    }

    public func add(_ text: String) async throws { try await bus.send(AddItem(text: text)) }

    /// Adds each of `texts`, through an import whose handler sends one `AddItem` each: once
    /// this returns, the adds are journaled and survive a kill.
    public func importItems(_ texts: [String]) async throws { try await bus.send(ImportItems(texts: texts)) }

    /// Removes the item at `number` (1-based, as shown).
    public func remove(number: Int) async throws {
        let items = store.state.items
        guard items.indices.contains(number - 1) else { throw FeatureError.noItem(number, count: items.count) }
        try await bus.send(RemoveItem(itemID: items[number - 1].id, text: items[number - 1].text))
    }

    public func undo() async throws { try await bus.undo() }
    public func redo() async throws { try await bus.redo() }

    /// What undo and redo would do, newest first.
    public func history() -> (undo: [String], redo: [String]) {
        let h = store.history
        return (h.undo.reversed().map { bus.summary(of: $0.command) }, h.redo.reversed().map { bus.summary(of: $0.command) })
    }

    /// What a button asked for, done: the remove button sends `RemoveItem`.
    public func perform(_ action: String) async throws {
        let parts = action.split(separator: " ")
        guard parts.count == 2, parts[0] == "remove", let id = UUID(uuidString: String(parts[1])) else {
            throw FeatureError.unknownAction(action)
        }
        guard let item = store.state.items.first(where: { $0.id == id }) else { throw ItemsError.noSuchItem(id) }
        try await bus.send(RemoveItem(itemID: item.id, text: item.text))
    }

    /// Shows the state on `screen`, `width` points wide and at most `height` high (the list
    /// scrolls, from `scroll`): now, and after every change until the returned presentation is
    /// stopped or released. The layout runs on a background queue; the screen is drawn on the
    /// main actor.
    public func present(on screen: ItemsScreen, width: Double, height: Double = .infinity, scroll: Double = 0,
                        metrics: TextMetrics = .cells) -> Presentation {
        let queue = LayoutQueue { [weak screen] frame, version in screen?.show(frame, version: version) }
        let range = SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: height))
        let observer = store.observe { change in
            queue.submit(version: change.seq, in: range) { ItemsView.render(change.state, metrics: metrics, scroll: scroll) }
        }
        let now = store.current
        queue.submit(version: now.seq, in: range) { ItemsView.render(now.state, metrics: metrics, scroll: scroll) }
        let store = self.store
        return Presentation(queue: queue) { store.removeObserver(observer) }
    }
}

/// A screen kept up to date with a store: `stop()`, or releasing it, ends the updates.
public final class Presentation: Sendable {
    public let queue: LayoutQueue
    let end: Mutex<(@Sendable () -> Void)?>

    init(queue: LayoutQueue, end: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.end = Mutex(end)
    }

    public func stop() { end.withLock { f in let g = f; f = nil; return g }?() }

    deinit { stop() }
}

public enum FeatureError: Error, Equatable, CustomStringConvertible {
    case noItem(Int, count: Int)
    case unknownAction(String)

    public var description: String {
        switch self {
        case .unknownAction(let action): return "no control asks for \(action)"
        case .noItem(let n, let count): return "there is no item \(n) (there \(count == 1 ? "is 1 item" : "are \(count) items"))"
        }
    }
}
