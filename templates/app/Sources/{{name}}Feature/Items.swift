import CommandBus
import Foundation
import Layout
import Store

/// The feature's state: a list of items.
public struct ItemsState: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable, Identifiable {
        public var id: UUID
        public var title: String
    }
    public var items: [Item] = []
    public init(items: [Item] = []) { self.items = items }
}

/// The commands the feature sends.
public struct AddItem: Command {
    public static let typeName = "items.add"
    public var id = UUID()
    public var title: String
    public init(title: String) { self.title = title }
}

public struct RemoveItem: Command {
    public static let typeName = "items.remove"
    public var id = UUID()
    public var itemID: UUID
    public init(itemID: UUID) { self.itemID = itemID }
}

/// What the user does.
public enum ItemsEvent: Sendable, Equatable {
    case add(String)
    case remove(UUID)
}

/// The feature, wired: an event becomes a command, the bus journals and runs it, its handler
/// changes the store, the new state renders to a node tree, the tree lays out to frames.
public final class ItemsFeature: Sendable {
    public let store: Store<ItemsState>
    public let bus: CommandBus

    /// State and journal under `directory` (created if needed); state restored synchronously.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = Store(snapshotURL: directory.appendingPathComponent("state.json"), initial: ItemsState())
        var handlers = Handlers()
        try handlers.register(AddItem.self, on: store) { command, state in
            state.items.append(.init(id: command.id, title: command.title))
        }
        try handlers.register(RemoveItem.self, on: store) { command, state in
            state.items.removeAll { $0.id == command.itemID }
        }
        bus = CommandBus(handlers: handlers, journal: try FileJournal(url: directory.appendingPathComponent("journal.jsonl")))
    }

    /// Handles a user event: the command it means, through the bus.
    public func handle(_ event: ItemsEvent) async throws {
        switch event {
        case .add(let title): try await bus.send(AddItem(title: title))
        case .remove(let id): try await bus.send(RemoveItem(itemID: id))
        }
    }

    /// The state as a node tree: a title, then one row per item (its title, then a remove button).
    public static func render(_ state: ItemsState) -> Node {
        let header = Node.leaf(textSize("Items (\(state.items.count))"), name: "header")
        let rows = state.items.map { item in
            StackChild(.stack(.horizontal, spacing: 8, alignItems: .center, children: [
                StackChild(.leaf(textSize(item.title), name: "title"), flexGrow: 1, flexShrink: 1),
                StackChild(.leaf(Size(width: 24, height: 24), name: "remove")),
            ]))
        }
        return .inset(EdgeInsets(all: 16), .stack(.vertical, spacing: 12, children: [StackChild(header)] + rows))
    }

    /// The frames for `state` on a screen `width` points wide.
    public static func frames(_ state: ItemsState, width: Double) -> Frame {
        Layout.layout(render(state), in: SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity)))
    }

    /// A stand-in text measurer: 8 points a character, one 20-point line.
    static func textSize(_ text: String) -> Size { Size(width: Double(text.count) * 8, height: 20) }
}
