import Foundation
import Layout

/// The state as a node tree: a bordered box with a title line, then the items in a scrolling
/// viewport, one row each: its number, its text wrapping in the room left, and a remove
/// button at the right edge that asks for `ItemsView.removeAction(id)`.
///
/// At narrow widths the text keeps at least its longest word (a flex item's automatic
/// minimum, as in CSS), and what overflows (the button first: it is drawn whole or not at
/// all) is clipped by the viewport instead of drawing over the border.
public enum ItemsView {
    public static func render(_ state: ItemsState, metrics: TextMetrics = .cells, scroll: Double = 0) -> Node {
        let title = Node.text("Items (\(state.items.count))", metrics, name: "header")
        let rows = state.items.enumerated().map { i, item in
            StackChild(.stack(.horizontal, spacing: 1, alignItems: .start, [
                StackChild(.text("\(i + 1).", metrics, name: "number")),
                StackChild(.text(item.text, metrics, name: "text"), flexGrow: 1, flexShrink: 1),
                StackChild(.button("×", action: removeAction(item.id), metrics, name: "remove")),
            ]))
        }
        let list: [StackChild] = state.items.isEmpty
            ? [StackChild(.text("nothing yet: add one", metrics, name: "empty"))]
            : [StackChild(.scroll(.vertical, offset: scroll, name: "list", .stack(.vertical, rows)), flexShrink: 1)]
        return .bordered(.inset(EdgeInsets(left: 1), .stack(.vertical, [StackChild(title)] + list)), name: "border")
    }

    /// What the remove button of the item `id` asks for.
    public static func removeAction(_ id: UUID) -> String { "remove \(id.uuidString)" }
}
