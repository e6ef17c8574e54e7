import {{name}}Feature
import CommandBus
import Foundation
import Layout
import Store

// `swift run -c release Benchmarks`: the layout of 10,000 nodes, and the restore of a
// 10,000-item snapshot. Times vary with the machine; compare runs on one machine.
func time(_ label: String, runs: Int = 5, _ body: () throws -> Void) rethrows {
    var best = Duration.seconds(1000)
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        best = min(best, ContinuousClock.now - start)
    }
    let ms = Double(best.components.seconds) * 1000 + Double(best.components.attoseconds) / 1e15
    print("\(label): \(String(format: "%.1f", ms)) ms (best of \(runs))")
}

// 2,500 rows of 4 nodes (a row and its number, text and button) under a bordered list: 10,003.
let items = (0..<2500).map { ItemsState.Item(id: UUID(), text: "item \($0) with some words that wrap at narrow widths") }
let state = ItemsState(items: items)
let node = ItemsView.render(state)
let range = SizeRange(min: Size(width: 60, height: 0), max: Size(width: 60, height: .infinity))
let measured = Layout.measured(node, in: range)
print("layout: \(measured.frame.count) nodes, \(measured.computed) computed")
time("layout of \(measured.frame.count) nodes at 60 columns") { _ = Layout.layout(node, in: range) }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Benchmarks-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let big = ItemsState(items: (0..<10_000).map { ItemsState.Item(id: UUID(), text: "item \($0)") })
let snapshot = JSON.object([
    "schema": .number(Double(ItemsState.schema.version)), "lastSeq": .number(10_000),
    "state": try JSON(data: JSONEncoder().encode(big)), "history": .object(["undo": .array([]), "redo": .array([])]),
])
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
try DurableFile.replace(directory.appendingPathComponent("state.json"), with: try snapshot.data())
try time("restore of a 10,000-item snapshot") {
    let store = try Store(snapshotURL: directory.appendingPathComponent("state.json"), initial: ItemsState(), schema: ItemsState.schema)
    precondition(store.state.items.count == 10_000)
}
