// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "{{name}}",
    platforms: [.macOS(.v14), .iOS(.v17)],
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
        // Commands, journaled and run in order; a store restored from disk at launch and
        // changed only by the bus's handlers; a layout engine that runs on any thread.
        .target(name: "CommandBus"),
        .target(name: "Store", dependencies: ["CommandBus"]),
        .target(name: "Layout"),
        // The feature: state → render → nodes → layout; event → command → bus → store.
        .target(name: "{{name}}Feature", dependencies: ["CommandBus", "Store", "Layout"]),
{{#demo}}
        .executableTarget(name: "{{name}}", dependencies: ["{{name}}Feature"]),
{{/demo}}
        .testTarget(name: "CommandBusTests", dependencies: ["CommandBus"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "CommandBus"]),
        .testTarget(name: "LayoutTests", dependencies: ["Layout"]),
        .testTarget(name: "{{name}}FeatureTests", dependencies: ["{{name}}Feature"]),
    ],
    swiftLanguageModes: [.v6]
)
