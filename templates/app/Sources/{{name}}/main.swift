import {{name}}Feature
import Foundation

// The demo: a list kept in $STATE_DIR (default ./.app-state), between runs and through crashes.
let usage = """
    usage: {{name}} add TEXT | import TEXT... | burst N NAME | remove N | undo | redo | list | history
                  | render [--width W] [--height H] [--scroll N] | tap X Y [--width W]
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
    case "import" where arguments.count >= 2:
        try await feature.importItems(Array(arguments.dropFirst()))
        // The adds run after the import: closing lets them run before the list is shown.
        await feature.close()
        list(feature)
    case "burst" where arguments.count == 3:
        // N imports of three items each (NAME-i/0, /1, /2), one after another, each
        // acknowledged on stdout (`ack NAME-i`, unbuffered) once it returns: what a crash test
        // kills at random moments.
        guard let n = Int(arguments[1]), n > 0 else { fail("burst takes how many imports, not \(arguments[1])", status: 2) }
        for i in 0..<n {
            let name = "\(arguments[2])-\(i)"
            try await feature.importItems((0..<3).map { "\(name)/\($0)" })
            FileHandle.standardOutput.write(Data("ack \(name)\n".utf8))
        }
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
    case "render", "tap":
        // render: draw the list; tap X Y: press the button drawn at column X, row Y (from 0).
        var options = ["--width": 40.0, "--height": Double.infinity, "--scroll": 0.0]
        var rest = Array(arguments.dropFirst())
        var point: [Double] = []
        if arguments[0] == "tap" {
            guard rest.count >= 2, let x = Double(rest[0]), let y = Double(rest[1]) else { fail("tap takes a column and a row: tap X Y", status: 2) }
            point = [x, y]
            rest.removeFirst(2)
        }
        while let flag = rest.first {
            guard options[flag] != nil, rest.count >= 2, let value = Double(rest[1]), value.isFinite, value >= 0 else {
                fail("\(arguments[0]) takes --width W (8 to 1000), --height H (3 or more) and --scroll N (0 or more)", status: 2)
            }
            options[flag] = value
            rest.removeFirst(2)
        }
        let (width, height, scroll) = (options["--width"] ?? 40, options["--height"] ?? .infinity, options["--scroll"] ?? 0)
        guard width >= 8, width <= 1000, height >= 3 else { fail("--width is 8 to 1000 columns, --height 3 or more rows", status: 2) }
        let screen = ItemsScreen()
        let presentation = feature.present(on: screen, width: width, height: height, scroll: scroll)
        await screen.settled(through: feature.store.lastSeq)
        presentation.stop()
        if point.isEmpty {
            print(screen.text)
        } else {
            guard let action = screen.action(at: point[0], point[1]) else { fail("there is no button at \(Int(point[0])), \(Int(point[1]))", status: 1) }
            try await feature.perform(action)
            list(feature)
        }
    default:
        fail(usage, status: 2)
    }
    await feature.close()
} catch {
    fail("\(error)", status: 1)
}
