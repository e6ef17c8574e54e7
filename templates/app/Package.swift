// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "{{name}}",
    // Mutex (Synchronization) needs macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CommandBus", targets: ["CommandBus"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Layout", targets: ["Layout"]),
        .library(name: "{{name}}Feature", targets: ["{{name}}Feature"]),
{{#demo}}
        .executable(name: "{{name}}", targets: ["{{name}}"]),
{{/demo}}
    ],
    targets: [
        // Commands journaled (seq, length, checksum, outcome), then run one at a time in order.
        .target(name: "CommandBus"),
        // State restored at launch from {schema, lastSeq, state}, changed only by the bus's handlers.
        .target(name: "Store", dependencies: ["CommandBus"]),
        // Flexbox stacks over immutable nodes, laid out off the main thread; a text renderer.
        .target(name: "Layout"),
        // The whole path: command → bus → store → layout → screen on the main actor.
        .target(name: "{{name}}Feature", dependencies: ["CommandBus", "Store", "Layout"]),
{{#demo}}
        .executableTarget(name: "{{name}}", dependencies: ["{{name}}Feature"]),
{{/demo}}
        .executableTarget(name: "Benchmarks", dependencies: ["{{name}}Feature", "CommandBus", "Store", "Layout"]),
        .testTarget(name: "CommandBusTests", dependencies: ["CommandBus"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "CommandBus"]),
        // Fixtures/: what Chromium computed for random trees, and the script that asks it.
        .testTarget(name: "LayoutTests", dependencies: ["Layout"], exclude: ["Fixtures"]),
        .testTarget(name: "{{name}}FeatureTests", dependencies: ["{{name}}Feature", "CommandBus", "Layout"]),
    ],
    swiftLanguageModes: [.v6]
)
