// swift-tools-version: 6.0
import Foundation
import PackageDescription

// Three binaries (ARCHITECTURE.md, "Why it is built this way"). `tack` is what users, shims
// and the prompt hook run: Embedded Swift, linked static, it answers what the on-disk snapshot
// answers, resolves itself when the snapshot no longer holds, and starts as fast as a C
// program. `tack-front` does the hot commands' slow path when there is something to say
// (resolution, no Foundation, static). Everything else runs in `tack-cli`.
let staticFront: [LinkerSetting] = [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]

/// Embedded Swift's own libraries (`lib/swift/embedded/TRIPLE` of the toolchain whose `swiftc`
/// is first on PATH), where Unicode's tables for its strings are.
let embeddedLibraries: [String] = {
    #if arch(arm64)
    let triple = "aarch64-unknown-linux-gnu"
    #else
    let triple = "x86_64-unknown-linux-gnu"
    #endif
    for dir in (Context.environment["PATH"] ?? "").split(separator: ":") {
        let swiftc = URL(fileURLWithPath: String(dir) + "/swiftc").resolvingSymlinksInPath()
        guard FileManager.default.isExecutableFile(atPath: swiftc.path) else { continue }
        let libraries = swiftc.deletingLastPathComponent().appendingPathComponent("../lib/swift/embedded/" + triple).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: libraries) { return ["-L", libraries] }
    }
    return []
}()

let embeddedStatic: [LinkerSetting] = [
    .unsafeFlags(["-enable-experimental-feature", "Embedded"]),
    .unsafeFlags(["-Xlinker", "-static", "-Xclang-linker", "-static"], .when(platforms: [.linux])),
    // Strings compared and hashed as Swift does (Unicode's tables), and the C math library.
    .unsafeFlags(embeddedLibraries, .when(platforms: [.linux])),
    .linkedLibrary("swiftUnicodeDataTables", .when(platforms: [.linux])), .linkedLibrary("m"),
    // What the hot path runs first in the file (Sources/tack/hot-sections.txt): the code that
    // answers from the snapshot stays on the few pages it had before resolution came in.
    .unsafeFlags(["-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/Sources/tack/hot-sections.txt"], .when(platforms: [.linux])),
]

/// Sources/Backends holds two targets: each backend folder's `Kind` folder (its kind, options
/// and lock record: `Git/Kind/GitKind.swift`, …) and the catalog (`StandardKinds.swift`) are
/// BackendKinds, Foundation-free, which tack-front links; every other file is Backends.
let backendFiles = FileManager.default.subpaths(atPath: Context.packageDirectory + "/Sources/Backends")?.sorted() ?? []
let backendKindSources = backendFiles.filter { path in
    let parts = path.split(separator: "/")
    return path == "StandardKinds.swift" || (parts.count == 3 && parts[1] == "Kind" && path.hasSuffix(".swift"))
}
let backendImplementation = backendFiles.filter { !backendKindSources.contains($0) && $0.contains(".") && $0 != "Resources/swift-keys.asc" }

/// The `tack` executable is one Embedded Swift module made of other targets' sources, through
/// the links in Sources/tack: TackLean (the snapshot reader), TackCore, YAML and the backend
/// kinds, so it resolves when the snapshot no longer holds (`Launcher`). What installs —
/// async, with processes and HTTP — is left out, as are the backends' implementations.
let embeddedExcluded = [
    "Core/Backend/Backend.swift", "Core/Backend/BackendRegistry.swift", "Core/Effects/Concurrently.swift",
    "Core/Effects/HTTPClient.swift", "Core/Effects/HTTPFailure.swift", "Core/Effects/HTTPStatusText.swift", "Core/Effects/OffPool.swift", "Core/Effects/ProcessRunner.swift",
    "Core/Lock/LockPlanner.swift", "Core/Store/BuildCache.swift", "Core/Store/Installer.swift", "Backends/Resources", "hot-sections.txt",
] + backendImplementation.map { "Backends/" + $0 }

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
            dependencies: ["YAML", "CLean", "TackLean"],
            resources: [.embedInCode("Resources/registry.yml")]),
        .target(name: "CLean"),
        .target(name: "CSpawn"),
        // Sigstore bundles (keyless signatures, attestations), verified with libcrypto.
        .target(name: "CSigstore", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "Sigstore", dependencies: ["CSigstore", "TackCore"], resources: [.embedInCode("Resources/trusted_root.json")]),
        .target(name: "TackLean", dependencies: ["CLean"]),
        .target(name: "TackFront", dependencies: ["TackCore", "TackLean", "BackendKinds"]),
        // Each backend's folder under Sources/Backends holds its kind (`GitKind.swift`: keys,
        // traits, what sbom and trust say) and options (`GitOptions.swift`), built Foundation-free
        // as BackendKinds for tack-front, and its implementation, built as Backends.
        .target(
            name: "BackendKinds", dependencies: ["TackCore", "YAML"], path: "Sources/Backends",
            exclude: backendImplementation + ["Resources"], sources: backendKindSources),
        .target(
            name: "Backends",
            dependencies: [
                "TackCore", "BackendKinds", "Git", "Archive", "CSpawn", "CCrypto", "CCurl", "Sigstore", .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: backendKindSources,
            resources: [.embedInCode("Resources/swift-keys.asc")]),
        .target(
            name: "Scaffold",
            dependencies: ["TackCore", "YAML", "Git", .product(name: "Mustache", package: "swift-mustache")]),
        .target(name: "TackKit", dependencies: ["TackCore", "TackFront", "BackendKinds", "Backends", "Archive", "Git", "YAML"]),
        .target(
            name: "TackCLI",
            dependencies: [
                "TackCore", "TackKit", "TackFront", "Git", "Archive", "BackendKinds", "Backends", "Scaffold", "Sigstore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "tack-front", dependencies: ["TackFront"], linkerSettings: staticFront),
        .executableTarget(
            name: "tack", dependencies: ["CLean", "CYaml"], exclude: embeddedExcluded,
            resources: [.embedInCode("Core/Resources/registry.yml")],
            swiftSettings: [.enableExperimentalFeature("Embedded"), .unsafeFlags(["-wmo", "-parse-as-library", "-Xfrontend", "-function-sections"]),
                .unsafeFlags(["-Osize"], .when(configuration: .release))],
            linkerSettings: embeddedStatic),
        .executableTarget(name: "tack-cli", dependencies: ["TackCLI"]),
        .executableTarget(
            name: "tack-fuzz", dependencies: ["TackCore", "TackLean", "BackendKinds", "YAML"],
            path: "Fuzz", exclude: ["run", "seeds"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .testTarget(name: "TackCoreTests", dependencies: ["TackCore", "BackendKinds", "YAML"], exclude: ["Fixtures"]),
        .testTarget(
            name: "TackCLITests", dependencies: ["TackCore", "TackKit", "TackFront", "TackLean", "TackCLI", "Git", "BackendKinds", "Backends", "Archive", "Scaffold", "YAML", "Sigstore"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
