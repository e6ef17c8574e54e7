import {{name}}Feature
import CommandBus
import Foundation
import Layout
import Store

// `swift run -c release Benchmarks`: the layout of 10,000 nodes (from scratch, and kept with
// one item changed), the restore of a 10,000-item snapshot, and commands per second with and
// without group commit. Times vary with the machine; compare runs on one machine.
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
let measured = Flexbox.measured(node, in: range)
print("layout: \(measured.frame.count) nodes, \(measured.computed) computed")
time("layout of \(measured.frame.count) nodes at 60 columns, from scratch") { _ = Flexbox.layout(node, in: range) }
// A kept layout (`LayoutTree`, as `LayoutQueue` keeps one): one item's text changes.
var changed = state
let tree = LayoutTree()
_ = tree.layout(node, in: range)
var flip = false
time("layout of \(measured.frame.count) nodes at 60 columns, one item changed", runs: 20) {
    flip.toggle()
    changed.items[1250].text = flip ? "a changed item, longer than it was before it changed" : items[1250].text
    _ = tree.layout(ItemsView.render(changed), in: range)
}
time("  of which building the node tree from the state", runs: 20) { _ = ItemsView.render(changed) }

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("Benchmarks-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }
let big = ItemsState(items: (0..<10_000).map { ItemsState.Item(id: UUID(), text: "item \($0)") })
let snapshot = JSON.object([
    "schema": .number(Double(ItemsState.schema.version)), "lastSeq": .number(10_000),
    "state": try JSON(data: JSONEncoder().encode(big)), "history": .object(["undo": .array([]), "redo": .array([])]),
])
let restoreDirectory = scratch.appendingPathComponent("restore")
try FileManager.default.createDirectory(at: restoreDirectory, withIntermediateDirectories: true)
try DurableFile.replace(restoreDirectory.appendingPathComponent("state.json"), with: try snapshot.data())
try time("restore of a 10,000-item snapshot") {
    let directory = try StateDirectory(restoreDirectory)
    let store = try Store(in: directory, initial: ItemsState(), schema: ItemsState.schema)
    precondition(store.state.items.count == 10_000)
}

/// Commands per second from `senders` tasks at once, with one fsync per journal write or one
/// shared by all queued: through the whole path (journal, store, snapshot), or the bus and
/// journal alone (a handler that does nothing).
func commandsPerSecond(groupCommit: Bool, senders: Int, each: Int, withStore: Bool, round: Int = 0) async throws -> Double {
    let directory = try StateDirectory(scratch.appendingPathComponent("bus-\(groupCommit)-\(senders)-\(withStore)-\(round)"))
    let journal = try FileJournal(in: directory, groupCommit: groupCommit)
    let store = try Store(in: directory, initial: ItemsState(), schema: ItemsState.schema, journal: journal)
    var handlers = Handlers()
    if withStore {
        try handlers.register(AddItem.self, on: store) { c, s in
            s.items.append(ItemsState.Item(id: c.id, text: c.text))
            return nil
        }
    } else {
        try handlers.register(AddItem.self) { _ in }
    }
    let bus = try CommandBus(handlers: handlers, journal: journal)
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for s in 0..<senders {
            group.addTask { for i in 0..<each { try await bus.send(AddItem(text: "\(s).\(i)")) } }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - start
    await store.close()
    await journal.close()
    await directory.close()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(senders * each) / seconds
}

for withStore in [true, false] {
    for senders in [1, 16] {
        let without = try await commandsPerSecond(groupCommit: false, senders: senders, each: 1600 / senders, withStore: withStore)
        let with = try await commandsPerSecond(groupCommit: true, senders: senders, each: 1600 / senders, withStore: withStore)
        print("commands per second, \(withStore ? "bus, journal and store" : "bus and journal alone"), \(senders) sender\(senders == 1 ? "" : "s"): "
              + "\(Int(without)) with an fsync each, \(Int(with)) with group commit (\(String(format: "%.1f", with / without))x)")
    }
}

// The store beside SQLite doing the same durable work: WAL, synchronous=FULL, one transaction
// per command (Python's sqlite3, where python3 is on PATH), one sender, on the same disk.
func sqlitePerSecond(count: Int, round: Int) -> Double? {
    let db = scratch.appendingPathComponent("peer-\(round).sqlite").path
    let script = """
        import sqlite3, sys, time, uuid
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("pragma journal_mode=wal"); db.execute("pragma synchronous=full")
        db.execute("create table items (id text primary key, text text)")
        n = int(sys.argv[2]); start = time.perf_counter()
        for i in range(n):
            db.execute("begin"); db.execute("insert into items values (?, ?)", (str(uuid.uuid4()), "0.%d" % i)); db.execute("commit")
        print(n / (time.perf_counter() - start))
        """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, db, String(count)]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return nil }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return p.terminationStatus == 0 ? Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
}

// Side by side: five rounds, the store then SQLite in each, so both meet the disk in the same
// state (a lone run of either swings by half on a busy disk); the medians are compared.
var stores: [Double] = [], sqlites: [Double] = []
for round in 0..<5 {
    stores.append(try await commandsPerSecond(groupCommit: true, senders: 1, each: 1600, withStore: true, round: round))
    if let sqlite = sqlitePerSecond(count: 1600, round: round) { sqlites.append(sqlite) }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let store = median(stores)
if !sqlites.isEmpty {
    let sqlite = median(sqlites)
    print("commands per second, one sender (median of five rounds): the store \(Int(store)), SQLite (WAL, synchronous=FULL, a transaction each) \(Int(sqlite)): "
          + "\(String(format: "%.2f", store / sqlite))x SQLite")
} else {
    print("commands per second, one sender (median of five rounds): the store \(Int(store)) (python3 with sqlite3 is not on PATH: no SQLite run to compare)")
}
