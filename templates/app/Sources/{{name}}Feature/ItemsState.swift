import CommandBus
import Foundation
import Store

/// The feature's state: a list of items.
public struct ItemsState: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable, Identifiable {
        public var id: UUID
        public var text: String
        public init(id: UUID, text: String) {
            self.id = id
            self.text = text
        }
    }

    public var items: [Item] = []
    public init(items: [Item] = []) { self.items = items }

    /// How the stored state has changed: schema 1 called an item's text `title` (and was the
    /// bare state, before snapshots had a schema); schema 2 calls it `text`.
    public static let schema = Schema(version: 2, migrations: [
        Schema.Migration(from: 1) { state in
            guard case .array(let items)? = state["items"] else { return state }
            var out = state
            out["items"] = .array(items.map { item in
                var item = item
                if item["text"] == nil, let title = item["title"] { item["text"] = title }
                item["title"] = nil
                return item
            })
            return out
        },
    ])
}
