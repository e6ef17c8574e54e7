import Layout

/// The state as a node tree: a bordered box with a title line, then one row per item (its
/// number, its text wrapping in the room left, and a remove button at the right edge).
public enum ItemsView {
    public static func render(_ state: ItemsState, metrics: TextMetrics = .cells) -> Node {
        let title = Node.text("Items (\(state.items.count))", metrics, name: "header")
        let rows = state.items.enumerated().map { i, item in
            StackChild(.stack(.horizontal, spacing: 1, alignItems: .start, [
                StackChild(.text("\(i + 1).", metrics, name: "number")),
                StackChild(.text(item.text, metrics, name: "text"), flexGrow: 1, flexShrink: 1),
                StackChild(.text("[x]", metrics, name: "remove")),
            ]))
        }
        let empty = state.items.isEmpty ? [StackChild(.text("nothing yet: add one", metrics, name: "empty"))] : []
        return .bordered(.inset(EdgeInsets(left: 1, right: 1), .stack(.vertical, [StackChild(title)] + rows + empty)), name: "border")
    }
}
