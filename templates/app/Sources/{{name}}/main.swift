import {{name}}Feature
import Foundation

// The demo: a list kept in $STATE_DIR (default ./.app-state), between runs and through crashes.
let usage = """
    usage: {{name}} add TEXT | remove N | undo | redo | list | history | render [--width W]
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("{{name}}: \(message)\n".utf8))
    exit(status)
}

func list(_ feature: ItemsFeature) {
    let items = feature.store.state.items
    if items.isEmpty { print("(no items)") }
    for (i, item) in items.enumerated() { print("\(i + 1). \(item.text)") }
}

let arguments = Array(CommandLine.arguments.dropFirst())
// Help is an answer: on stdout, exit 0, before any state is opened.
if let first = arguments.first, ["--help", "-h", "help"].contains(first) {
    print(usage)
    exit(0)
}
let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["STATE_DIR"] ?? ".app-state")
do {
    let feature = try await ItemsFeature.open(directory: directory)
    switch arguments.first {
    case "add" where arguments.count >= 2:
        try await feature.add(arguments.dropFirst().joined(separator: " "))
        list(feature)
    case "remove" where arguments.count == 2:
        guard let n = Int(arguments[1]) else { fail("remove takes an item's number, not \(arguments[1])", status: 2) }
        try await feature.remove(number: n)
        list(feature)
    case "undo" where arguments.count == 1:
        try await feature.undo()
        list(feature)
    case "redo" where arguments.count == 1:
        try await feature.redo()
        list(feature)
    case "list" where arguments.count == 1, nil:
        list(feature)
    case "history" where arguments.count == 1:
        let (undo, redo) = feature.history()
        print("undo: " + (undo.isEmpty ? "(nothing)" : undo.joined(separator: ", ")))
        print("redo: " + (redo.isEmpty ? "(nothing)" : redo.joined(separator: ", ")))
    case "render":
        var width = 40.0
        if arguments.count == 3, arguments[1] == "--width", let w = Double(arguments[2]), w >= 8, w <= 1000 { width = w }
        else if arguments.count != 1 { fail("render takes --width W (8 to 1000 columns)", status: 2) }
        let screen = ItemsScreen()
        let presentation = feature.present(on: screen, width: width)
        await screen.settled(through: feature.store.lastSeq)
        presentation.stop()
        print(screen.text)
    default:
        fail(usage, status: 2)
    }
    await feature.close()
} catch {
    fail("\(error)", status: 1)
}
