import {{name}}Feature
import Foundation
import Layout
import Testing

@Suite struct ItemsFeatureTests {
    @Test func eventToCommandToStateToLayoutAndBackAfterARelaunch() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feature = try ItemsFeature(directory: dir)
        try await feature.handle(.add("milk"))
        try await feature.handle(.add("eggs"))
        #expect(feature.store.state.items.map(\.title) == ["milk", "eggs"])
        // 320 wide, 16 inset: rows 288 wide; a title grows to 288 - 8 - 24 = 256; rows start
        // below the 20-point header and 12 of spacing, and are 24 high (the remove button).
        let frames = ItemsFeature.frames(feature.store.state, width: 320)
        #expect(frames.named("title").map(\.width) == [256, 256])
        #expect(frames.named("remove").map(\.x) == [280, 280])
        #expect(frames.named("title").map(\.y) == [50, 86])

        try await feature.handle(.remove(feature.store.state.items[0].id))
        await feature.store.flush()
        let relaunched = try ItemsFeature(directory: dir)
        #expect(relaunched.store.state.items.map(\.title) == ["eggs"])
    }
}
