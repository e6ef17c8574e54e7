import CommandBus
import Foundation

/// Adds an item at the end. Its inverse removes it.
public struct AddItem: Command {
    public static let typeName = "items.add"
    public var id = UUID.random()
    public var text: String
    public init(text: String) { self.text = text }
    public var summary: String { "add \"\(text)\"" }
}

/// Adds each text as an item, as follow-ups (`AddItem`, one each): a handler outside the
/// store, whose work is journaled commands of its own — an import from a file, a sync.
public struct ImportItems: Command {
    public static let typeName = "items.import"
    public var id = UUID.random()
    public var texts: [String]
    public init(texts: [String]) { self.texts = texts }
    public var summary: String { "import \(texts.count) item\(texts.count == 1 ? "" : "s")" }
}

/// Removes an item. Its inverse puts it back where it was.
public struct RemoveItem: Command {
    public static let typeName = "items.remove"
    public var id = UUID.random()
    public var itemID: UUID
    /// What the item said, for people reading the history.
    public var text: String
    public init(itemID: UUID, text: String) {
        self.itemID = itemID
        self.text = text
    }
    public var summary: String { "remove \"\(text)\"" }
}

/// Puts an item at a position (the inverse of a removal). Its inverse removes it. Its fields
/// are its own, not the state's `Item`: a command kept in the undo history must still decode
/// after the state's shape changes.
public struct InsertItem: Command {
    public static let typeName = "items.insert"
    public static let version = 2
    public var id = UUID.random()
    public var itemID: UUID
    public var text: String
    public var index: Int
    public init(itemID: UUID, text: String, at index: Int) {
        self.itemID = itemID
        self.text = text
        self.index = index
    }
    public var summary: String { "put back \"\(text)\"" }

    /// Version 1 embedded the state's item: `{"item": {"id", "text"}, "index"}`.
    public static func upgrade(_ payload: JSON, from version: Int) throws -> JSON {
        var p = payload
        if let item = payload["item"] {
            p["itemID"] = item["id"]
            p["text"] = item["text"] ?? item["title"]
            p["item"] = nil
        }
        return p
    }
}

public enum ItemsError: Error, Equatable, CustomStringConvertible {
    case noSuchItem(UUID)
    case duplicate(UUID)

    public var description: String {
        switch self {
        case .noSuchItem(let id): return "there is no item \(id)"
        case .duplicate(let id): return "there is already an item \(id)"
        }
    }
}

extension ItemsState {
    /// The reducers: each changes the state and returns its inverse, from the state before.
    static func add(_ c: AddItem, _ s: inout ItemsState) throws -> (any Command)? {
        guard !s.items.contains(where: { $0.id == c.id }) else { throw ItemsError.duplicate(c.id) }
        s.items.append(Item(id: c.id, text: c.text))
        return RemoveItem(itemID: c.id, text: c.text)
    }

    static func remove(_ c: RemoveItem, _ s: inout ItemsState) throws -> (any Command)? {
        guard let index = s.items.firstIndex(where: { $0.id == c.itemID }) else { throw ItemsError.noSuchItem(c.itemID) }
        let item = s.items.remove(at: index)
        return InsertItem(itemID: item.id, text: item.text, at: index)
    }

    static func insert(_ c: InsertItem, _ s: inout ItemsState) throws -> (any Command)? {
        guard !s.items.contains(where: { $0.id == c.itemID }) else { throw ItemsError.duplicate(c.itemID) }
        s.items.insert(Item(id: c.itemID, text: c.text), at: min(max(0, c.index), s.items.count))
        return RemoveItem(itemID: c.itemID, text: c.text)
    }
}
