// swift-tools-version: 6.0
import PackageDescription

// Three binaries (README, "Why three binaries"). `tack` is what users, shims and the prompt
// hook run: Embedded Swift, linked static, it answers what the on-disk snapshot answers and
// starts as fast as a C program. `tack-front` does the hot commands' slow path (resolution,
// no Foundation, static). Everything else runs in `tack-cli`.
let staticFront: [LinkerSetting] = [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]

let embeddedStatic: [LinkerSetting] = [
    .unsafeFlags(["-enable-experimental-feature", "Embedded"]),
    .unsafeFlags(["-Xlinker", "-static", "-Xclang-linker", "-static"], .when(platforms: [.linux])),
]

let package = Package(
    name: "tack",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tack", targets: ["tack"]),
        .executable(name: "tack-cli", targets: ["tack-cli"]),
        .executable(name: "tack-front", targets: ["tack-front"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CYaml", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(
            name: "CGit2", pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]),
        .systemLibrary(
            name: "CArchive", pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]),
        .target(name: "YAML", dependencies: ["CYaml"]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "Archive", dependencies: ["CArchive", "CZlib", "TackCore"]),
        .target(name: "Git", dependencies: ["CGit2"]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(
            name: "TackCore",
            dependencies: ["YAML", "CLean", .product(name: "SystemPackage", package: "swift-system")],
            resources: [.embedInCode("Resources/registry.yml")]),
        .target(name: "CLean"),
        .target(name: "CSpawn"),
        .target(name: "TackLean", dependencies: ["CLean"]),
        .target(name: "TackFront", dependencies: ["TackCore", "TackLean"]),
        .target(
            name: "Backends",
            dependencies: [
                "TackCore", "Git", "Archive", "CSpawn", "CCrypto", "CCurl", .product(name: "SystemPackage", package: "swift-system"),
            ],
            resources: [.embedInCode("Resources/swift-keys.asc")]),
        .target(
            name: "Scaffold",
            dependencies: ["TackCore", "YAML", "Git", .product(name: "Mustache", package: "swift-mustache")]),
        .target(name: "TackKit", dependencies: ["TackCore", "TackFront", "Backends", "Archive", "Git", "YAML"]),
        .target(
            name: "TackCLI",
            dependencies: [
                "TackCore", "TackKit", "TackFront", "Git", "Archive", "Backends", "Scaffold",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "tack-front", dependencies: ["TackFront"], linkerSettings: staticFront),
        .executableTarget(
            name: "tack", dependencies: ["CLean"],
            swiftSettings: [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo", "-parse-as-library"])],
            linkerSettings: embeddedStatic),
        .executableTarget(name: "tack-cli", dependencies: ["TackCLI"]),
        .executableTarget(
            name: "tack-fuzz", dependencies: ["TackCore", "YAML"],
            path: "Fuzz", exclude: ["run", "seeds"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .testTarget(name: "TackCoreTests", dependencies: ["TackCore", "YAML"], exclude: ["Fixtures"]),
        .testTarget(
            name: "TackCLITests", dependencies: ["TackCore", "TackKit", "TackFront", "TackLean", "TackCLI", "Git", "Backends", "Archive", "Scaffold"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
