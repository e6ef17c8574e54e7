import {{name}}Feature
import CommandBus
import Foundation
import Layout
import Synchronization
import Testing

/// A new empty directory for a test, which removes it when it ends (`defer`).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ItemsFeatureTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func texts(_ feature: ItemsFeature) -> [String] { feature.store.state.items.map(\.text) }

@Suite struct ItemsFeatureTests {
    /// Before: undo by replaying the journal gave ["milk", "eggs", "eggs"].
    @Test func undoAndRedo() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        try await feature.add("milk")
        try await feature.add("eggs")
        try await feature.undo()
        #expect(texts(feature) == ["milk"])
        try await feature.redo()
        #expect(texts(feature) == ["milk", "eggs"])
        try await feature.remove(number: 1)
        #expect(texts(feature) == ["eggs"])
        try await feature.undo()
        #expect(texts(feature) == ["milk", "eggs"])
        #expect(feature.history().undo == ["add \"eggs\"", "add \"milk\""])
        #expect(feature.history().redo == ["remove \"milk\""])
        await feature.close()
    }

    /// Before: a relaunch plus replay gave five items where there were three.
    @Test func aRelaunchOpensWhatWasLeft() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let feature = try await ItemsFeature.open(directory: dir)
        for t in ["a", "b", "c"] { try await feature.add(t) }
        // A second instance on the same directory is refused while the first has it.
        await #expect(throws: StateDirectoryError.inUse(dir.path)) { try await ItemsFeature.open(directory: dir) }
        await feature.close()
        let again = try await ItemsFeature.open(directory: dir)
        #expect(texts(again) == ["a", "b", "c"])
        await again.close()
    }

    /// Before: `InsertItem` (the undo of a removal) embedded the state's `Item`, so a change to
    /// the state's shape broke every undo step that held one. Its fields are its own now, and
    /// a version-1 payload is upgraded.
    @Test func theUndoOfARemovalHoldsNoStateType() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        try await feature.add("milk")
        try await feature.remove(number: 1)
        let action = try #require(feature.store.history.undo.last?.action)
        let payload = try JSON(data: action.payload)
        #expect(payload["item"] == nil && payload["text"] == .string("milk"))
        try await feature.undo()
        #expect(texts(feature) == ["milk"])
        await feature.close()
        let v1 = JournalEntry(id: UUID(), type: InsertItem.typeName, version: 1, payload: Data(
            #"{"id":"6B0C8A2E-3E0F-4F3A-9C1D-2E4B5A6C7D8E","index":0,"item":{"id":"7B0C8A2E-3E0F-4F3A-9C1D-2E4B5A6C7D8E","text":"eggs"}}"#.utf8))
        let upgraded = try v1.decode(InsertItem.self)
        #expect(upgraded.text == "eggs" && upgraded.index == 0)
    }

    /// Before: `present` dropped its observer's id, so each call added a re-render that lasted
    /// as long as the store. Stopping (or releasing) the presentation ends it.
    @MainActor @Test func aPresentationStopsWhenReleased() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        let screen = ItemsScreen()
        do {
            let presentation = feature.present(on: screen, width: 24)
            await screen.settled(through: 0)
            #expect(feature.store.observerCount == 1)
            _ = presentation
        }
        #expect(feature.store.observerCount == 0)
        let draws = screen.draws
        try await feature.add("milk")
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(screen.draws == draws)
        let kept = feature.present(on: screen, width: 24)
        try await feature.add("eggs")
        await screen.settled(through: feature.store.lastSeq)
        kept.stop()
        #expect(feature.store.observerCount == 0)
        await feature.close()
    }

    /// Schema 1 (what earlier versions of this template wrote: the bare state, `title`) → 2 (`text`).
    @Test func migrationFromSchema1To2() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let v1 = #"{"items":[{"id":"6B0C8A2E-3E0F-4F3A-9C1D-2E4B5A6C7D8E","title":"milk"}]}"#
        try Data(v1.utf8).write(to: dir.appendingPathComponent("state.json"))
        let feature = try await ItemsFeature.open(directory: dir)
        #expect(texts(feature) == ["milk"])
        let migrated = try ItemsState.schema.migrate(try JSON(data: Data(v1.utf8)), from: 1)
        #expect(migrated["items"] == .array([.object(["id": .string("6B0C8A2E-3E0F-4F3A-9C1D-2E4B5A6C7D8E"), "text": .string("milk")])]))
        await feature.close()
    }

    @Test func removingANumberThatIsNotThereSaysHowManyThereAre() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        try await feature.add("milk")
        await #expect(throws: FeatureError.noItem(3, count: 1)) { try await feature.remove(number: 3) }
        await feature.close()
    }

    /// Before: nothing re-laid-out or re-rendered on a change, and observers ran off the main
    /// thread with nothing hopping back. Now: command → bus → store → layout (off the main
    /// thread) → screen (on the main actor).
    @MainActor @Test func aCommandReachesTheScreen() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        let screen = ItemsScreen()
        let presentation = feature.present(on: screen, width: 24)
        defer { presentation.stop() }
        await screen.settled(through: 0)
        #expect(screen.text.contains("nothing yet"))
        try await feature.add("bread and a long line that wraps")
        await screen.settled(through: feature.store.lastSeq)
        #expect(screen.text == """
            ┌──────────────────────┐
            │ Items (1)            │
            │ 1. bread and a    (×)│
            │    long line that    │
            │    wraps             │
            └──────────────────────┘
            """)
        await feature.close()
    }

    /// Before: at 10 columns the item's text was squeezed to nothing, and the remove control
    /// `[x]` read as a ticked checkbox. The text keeps its longest word, what overflows is
    /// clipped inside the border, and the control is a button.
    @MainActor @Test func atNarrowWidthsTheTextStaysAndTheBorderHolds() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        try await feature.add("milk")
        for (width, expected) in [(10.0, ["│ 1. milk│"]), (16, ["│ 1. milk   (×)│"])] {
            let screen = ItemsScreen()
            let presentation = feature.present(on: screen, width: width)
            await screen.settled(through: feature.store.lastSeq)
            presentation.stop()
            let lines = screen.text.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.contains("milk") } == expected, "\(screen.text)")
            #expect(lines.allSatisfy { $0.count == Int(width) && ($0.hasSuffix("│") || $0.hasSuffix("┐") || $0.hasSuffix("┘")) }, "\(screen.text)")
            #expect(!screen.text.contains("[x]"))
        }
        await feature.close()
    }

    /// The remove button sends `RemoveItem`: a tap where it is drawn removes that item, and a
    /// scrolled list shows (and taps) the rows from its offset.
    @MainActor @Test func theRemoveButtonSendsItsCommandAndTheListScrolls() async throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let feature = try await ItemsFeature.open(directory: scratch)
        for t in ["milk", "eggs", "bread", "tea"] { try await feature.add(t) }
        let screen = ItemsScreen()
        let presentation = feature.present(on: screen, width: 20, height: 5, scroll: 1)
        await screen.settled(through: feature.store.lastSeq)
        #expect(screen.text == """
            ┌──────────────────┐
            │ Items (4)        │
            │ 2. eggs       (×)│
            │ 3. bread      (×)│
            └──────────────────┘
            """)
        let action = try #require(screen.action(at: 16, 3))
        #expect(action == ItemsView.removeAction(feature.store.state.items[2].id))
        #expect(screen.action(at: 16, 1) == nil)
        try await feature.perform(action)
        #expect(texts(feature) == ["milk", "eggs", "tea"])
        await #expect(throws: FeatureError.unknownAction("launch")) { try await feature.perform("launch") }
        presentation.stop()
        await feature.close()
    }

    @MainActor @Test func layoutRunsOffTheMainThreadAndDeliversOnTheMainActor() async throws {
        let offMain = Mutex<[Bool]>([])
        let delivered = Mutex<[UInt64]>([])
        let queue = LayoutQueue { _, version in
            MainActor.assertIsolated()
            delivered.withLock { $0.append(version) }
        }
        for v in 1...20 as ClosedRange<UInt64> {
            queue.submit(version: v, in: .unconstrained) {
                offMain.withLock { $0.append(!Thread.isMainThread) }
                return .text("v\(v)")
            }
        }
        while delivered.withLock({ $0.last }) != 20 { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(offMain.withLock { $0 }.allSatisfy { $0 })
        // Newest wins: submissions overtaken before they started are never laid out.
        #expect(offMain.withLock { $0.count } <= 20)
    }
}
