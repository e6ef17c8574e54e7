// swift-tools-version: 6.0
import PackageDescription

// `tack` is the hot-path front end: `current`, `which`, `exec`, `hook-env`. It must start
// about as fast as a C program, so on Linux it is linked fully static and never imports
// Foundation (see README, "Why three binaries"). `tack-shim`, what shims link to and the prompt
// hook runs, is smaller still. Everything else runs in `tack-cli`.
let staticFront: [LinkerSetting] = [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]

let package = Package(
    name: "tack",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tack", targets: ["tack"]),
        .executable(name: "tack-cli", targets: ["tack-cli"]),
        .executable(name: "tack-shim", targets: ["tack-shim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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
        .target(name: "Archive", dependencies: ["CArchive"]),
        .target(name: "Git", dependencies: ["CGit2"]),
        .target(
            name: "TackCore",
            dependencies: ["YAML", .product(name: "SystemPackage", package: "swift-system")],
            resources: [.embedInCode("Resources/registry.yml")]),
        .target(name: "TackLean"),
        .target(name: "TackFront", dependencies: ["TackCore", "TackLean"]),
        .target(
            name: "Backends",
            dependencies: ["TackCore", "Git", "Archive", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "TackCLI",
            dependencies: [
                "TackCore", "TackFront", "Git", "Backends",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "tack", dependencies: ["TackFront"], linkerSettings: staticFront),
        .executableTarget(name: "tack-shim", dependencies: ["TackLean"], linkerSettings: staticFront),
        .executableTarget(name: "tack-cli", dependencies: ["TackCLI"]),
        .executableTarget(
            name: "tack-fuzz", dependencies: ["TackCore", "YAML"],
            path: "Fuzz", exclude: ["run", "seeds"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .testTarget(name: "TackCoreTests", dependencies: ["TackCore", "YAML"], exclude: ["Fixtures"]),
        .testTarget(
            name: "TackCLITests", dependencies: ["TackCore", "TackFront", "TackLean", "Git", "Backends", "Archive"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
