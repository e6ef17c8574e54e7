import {{name}}Feature
import Foundation

// A demo of the wiring: `{{name}} add TITLE`, `{{name}} remove N`, `{{name}} list`. State lives in
// STATE_DIR (default ./.app-state), so a second run starts with the first run's items.
let arguments = Array(CommandLine.arguments.dropFirst())
let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["STATE_DIR"] ?? ".app-state")
do {
    let feature = try ItemsFeature(directory: directory)
    switch (arguments.first, arguments.count) {
    case ("add", 2): try await feature.handle(.add(arguments[1]))
    case ("remove", 2):
        guard let n = Int(arguments[1]), feature.store.state.items.indices.contains(n - 1) else {
            FileHandle.standardError.write(Data("{{name}}: no item \(arguments[1])\n".utf8))
            exit(2)
        }
        try await feature.handle(.remove(feature.store.state.items[n - 1].id))
    case ("list", 1), (nil, 0): break
    default:
        FileHandle.standardError.write(Data("usage: {{name}} [add TITLE | remove N | list]\n".utf8))
        exit(2)
    }
    await feature.store.flush()
    let state = feature.store.state
    for (i, item) in state.items.enumerated() { print("\(i + 1). \(item.title)") }
    print("layout at 320 points: \(ItemsFeature.frames(state, width: 320).named("title").map(\.description).joined(separator: " "))")
} catch {
    FileHandle.standardError.write(Data("{{name}}: \(error)\n".utf8))
    exit(1)
}
