import Foundation
import Testing
import TackCore

/// Swift SDKs pinned with the toolchain (issue 34): a loopback swift.org whose releases list
/// SDK bundles with their checksums, toolchains whose SwiftPM is the real one (so `swift sdk
/// list` answers as it would), everything signed with a key made in the test.
@Suite(.ownThreads, .enabled(if: SwiftMirror.realSwiftPM != nil, "needs a Swift toolchain's swift-package"))
struct SwiftSDKTests {
    static let id603 = "swift-6.0.3-RELEASE_static-linux-0.0.1"
    static let id61 = "swift-6.1-RELEASE_static-linux-0.0.1"

    /// Swift 6.0.3 and 6.1, each with a Static Linux SDK; 6.2 with a wasm SDK too.
    func setUp() throws -> (Sandbox, SwiftMirror) {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        let pm = SwiftMirror.realSwiftPM
        var sdks: [String: [String: String]] = [:]
        for v in ["6.0.3", "6.1", "6.2"] {
            try m.toolchain(tag: "swift-\(v)-RELEASE", branchDirectory: "swift-\(v)-release", swiftPM: pm)
            sdks[v] = ["static-sdk": try m.sdkBundle(version: v).sha256]
        }
        sdks["6.2"]?["wasm-sdk"] = try m.sdkBundle(version: "6.2", listing: "wasm-sdk", target: "wasm32-unknown-wasi").sha256
        try m.releases(["6.0.3", "6.1", "6.2"], sdks: sdks)
        try m.exportKeyring()
        try m.start()
        return (s, m)
    }

    func sdkList(_ s: Sandbox, _ m: SwiftMirror, shim: Bool = false) throws -> Sandbox.Result {
        shim ? try s.run(s.root + "/tack-home/shims/swift", ["sdk", "list"], in: "app")
             : try s.tack(["exec", "--", "swift", "sdk", "list"], in: "app", env: m.environment)
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    func lock(_ s: Sandbox) throws -> String { try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8) }

    @Test func theSDKsPinnedWithTheToolchainAreTheOnesItSeesAndNoOtherToolchainSeesThem() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        let install = try s.tack(["install"], in: "app", env: m.environment)
        #expect(install.status == 0, "\(install.stderr)")
        let text = try lock(s)
        let path = "swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/\(Self.id603).artifactbundle.tar.gz"
        #expect(text.contains("sdk-path:\n      static-linux: \"\(path)\""), "\(text)")
        #expect(text.contains("sdk-sha256:\n      static-linux: \"\(try sha256(m.www + "/" + path))\""), "\(text)")
        #expect(text.contains("sdk-signed-by:\n      static-linux: \"\(try m.primaryFingerprint())\""), "\(text)")
        #expect(text.contains("sdks: \"static-linux\""), "\(text)")

        // The real `swift sdk list`, through tack exec and through the shim: exactly this SDK.
        let listed = try sdkList(s, m)
        #expect(listed.status == 0 && lines(listed.stdout) == [Self.id603], "\(listed.stdout)\(listed.stderr)")
        let viaShim = try sdkList(s, m, shim: true)
        #expect(viaShim.status == 0 && lines(viaShim.stdout) == [Self.id603], "\(viaShim.stdout)\(viaShim.stderr)")
        // Another toolchain on the machine, with the same HOME, sees none of them.
        let realSwift = ((SwiftMirror.realSwiftPM ?? "") as NSString).deletingLastPathComponent + "/swift"
        let other = try s.run(realSwift, ["sdk", "list"], in: "app")
        #expect(other.status == 0 && !other.stdout.contains("static-linux"), "\(other.stdout)\(other.stderr)")
        // An explicit --swift-sdks-path still wins.
        try s.mkdir("empty-sdks")
        let explicit = try s.tack(["exec", "--", "swift", "sdk", "list", "--swift-sdks-path", s.root + "/empty-sdks"], in: "app", env: m.environment)
        #expect(explicit.status == 0 && !explicit.stdout.contains("static-linux"), "\(explicit.stdout)\(explicit.stderr)")

        // Nothing to do the second time; the frozen lock installs the same.
        let again = try s.tack(["install"], in: "app", env: m.environment)
        #expect(again.status == 0 && !again.stderr.contains("installed ("), "\(again.stderr)")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/swift")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(lines(try sdkList(s, m).stdout) == [Self.id603])

        // Another toolchain version moves its SDKs with it; the old pair stays installed.
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.1, sdks: [static-linux] }\n")
        let moved = try s.tack(["install"], in: "app", env: m.environment)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(lines(try sdkList(s, m).stdout) == [Self.id61])
        #expect(try lock(s).contains("swift-6.1-release/static-sdk/swift-6.1-RELEASE/\(Self.id61).artifactbundle.tar.gz"))
        #expect(FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/\(Self.id603).artifactbundle/info.json"))
    }

    @Test func anSDKAddedLaterGoesIntoTheInstalledToolchainWithoutReinstallingIt() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: 6.2\n")
        #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
        let marker = s.root + "/tack-home/installs/swift/6.2/marker"
        try "kept\n".write(toFile: marker, atomically: true, encoding: .utf8)
        // `tack use --sdk` writes the entry as a mapping and installs both SDKs into it.
        let use = try s.tack(["use", "swift@6.2", "--sdk", "wasm", "--sdk", "static-linux"], in: "app", env: m.environment)
        #expect(use.status == 0, "\(use.stderr)")
        let manifest = try String(contentsOfFile: s.root + "/app/tack.yml", encoding: .utf8)
        #expect(manifest == "tools:\n  swift: { version: \"6.2\", sdks: [wasm, static-linux] }\n", "\(manifest)")
        #expect(FileManager.default.fileExists(atPath: marker), "the toolchain was installed again")
        let listed = try sdkList(s, m)
        #expect(Set(lines(listed.stdout)) == ["swift-6.2-RELEASE_static-linux-0.0.1", "swift-6.2-RELEASE_wasm"], "\(listed.stdout)\(listed.stderr)")
        // Adding one already there changes nothing in the file.
        let same = try s.tack(["use", "swift@6.2", "--sdk", "wasm"], in: "app", env: m.environment)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(try String(contentsOfFile: s.root + "/app/tack.yml", encoding: .utf8) == manifest)
        // An unknown SDK is refused before anything is written.
        let unknown = try s.tack(["use", "swift@6.2", "--sdk", "android"], in: "app", env: m.environment)
        #expect(unknown.status != 0 && unknown.stderr.contains("static-linux, wasm"), "\(unknown.stderr)")
    }

    @Test func aSecondProjectLocksTheInstalledSDKWithoutDownloadingItAgain() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
        // The bundle is gone from the server and from the download cache: only the release
        // list remains, which says the installed SDK is the published one.
        let path = "swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/\(Self.id603).artifactbundle.tar.gz"
        try FileManager.default.removeItem(atPath: m.www + "/" + path)
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/downloads")
        try s.write("other/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        let other = try s.tack(["install"], in: "other", env: m.environment)
        #expect(other.status == 0, "\(other.stderr)")
        let locked = try String(contentsOfFile: s.root + "/other/tack.lock", encoding: .utf8)
        #expect(locked.contains("sdk-signed-by:\n      static-linux: \"\(try m.primaryFingerprint())\""), "\(locked)")
        #expect(locked == (try lock(s)), "both projects lock the same")
    }

    @Test func aReleaseWithoutTheSDKSaysWhichItHasAndTheToolchainStillStands() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [wasm] }\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status != 0)
        #expect(r.stderr.contains("swift 6.0.3 has no wasm Swift SDK; swift.org publishes static-linux with it"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/swift-6.0.3-RELEASE_wasm.artifactbundle"))
        let listing = try s.tack(["ls-remote", "swift", "--sdks"], in: "app", env: m.environment)
        #expect(listing.stdout == "6.0.3  static-linux\n6.1  static-linux\n6.2  static-linux wasm\n", "\(listing.stdout)\(listing.stderr)")
        let json = try s.tack(["ls-remote", "swift", "6.2", "--sdks", "--json"], in: "app", env: m.environment)
        #expect(json.stdout == "[{\"version\":\"6.2\",\"sdks\":[\"static-linux\",\"wasm\"]}]\n", "\(json.stdout)\(json.stderr)")
        let wrong = try s.tack(["ls-remote", "jq", "--sdks"], in: "app")
        #expect(wrong.status != 0 && wrong.stderr.contains("--sdks is for swift"), "\(wrong.stderr)")
    }

    @Test(arguments: ["tampered bundle", "unsigned", "another release's SDK", "lock names another path", "lock names another checksum"])
    func anSDKThatIsNotTheOnePublishedOrLockedIsRefused(_ attack: String) throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        let bundle = s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/\(Self.id603).artifactbundle"
        var expected: String
        switch attack {
        case "tampered bundle":
            // The list gives the checksum of the first bundle; the server now serves another.
            try m.sdkBundle(version: "6.0.3", target: "aarch64-swift-linux-musl")
            expected = "swift.org's release list says"
        case "unsigned":
            try FileManager.default.removeItem(atPath: m.www + "/swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/\(Self.id603).artifactbundle.tar.gz.sig")
            expected = "cannot download the signature of the static-linux Swift SDK of swift 6.0.3"
        case "another release's SDK":
            // Signed and listed, but it holds 6.0.2's SDK under 6.0.3's name.
            let other = try m.sdkBundle(version: "6.0.3", artifacts: ["swift-6.0.2-RELEASE_static-linux-0.0.1"])
            try m.releases(["6.0.3"], sdks: ["6.0.3": ["static-sdk": other.sha256]])
            expected = "not a Swift SDK of swift-6.0.3-RELEASE"
        default:
            #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
            try FileManager.default.removeItem(atPath: bundle)
            var text = try lock(s)
            if attack == "lock names another path" {
                text = text.replacingOccurrences(of: "static-linux: \"swift-6.0.3-release/static-sdk/", with: "static-linux: \"swift-6.1-release/static-sdk/")
                    .replacingOccurrences(of: "swift-6.0.3-RELEASE/\(Self.id603).artifactbundle.tar.gz\"", with: "swift-6.1-RELEASE/\(Self.id61).artifactbundle.tar.gz\"")
                expected = "which is not that SDK's"
            } else {
                let sum = try sha256(m.www + "/swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/\(Self.id603).artifactbundle.tar.gz")
                let other = try sha256(m.www + "/swift-6.1-release/static-sdk/swift-6.1-RELEASE/\(Self.id61).artifactbundle.tar.gz")
                text = text.replacingOccurrences(of: sum, with: other)
                expected = "tack.lock says \(other)"
            }
            try text.write(toFile: s.root + "/app/tack.lock", atomically: true, encoding: .utf8)
        }
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status != 0, "\(attack): \(r.stderr)")
        #expect(r.stderr.contains(expected), "\(attack): \(r.stderr)")
        #expect(r.stderr.contains("nothing was installed"), "\(attack): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bundle), "\(attack)")
        // The toolchain itself stands, seeing no SDK.
        let listed = try sdkList(s, m)
        #expect(listed.status == 0 && !listed.stdout.contains("static-linux"), "\(attack): \(listed.stdout)\(listed.stderr)")
    }

    @Test(.enabled(if: RegistryServer.isAvailable, "needs docker-registry: ./bootstrap.sh --dev"))
    func theTeamCacheHoldsNeitherTheToolchainNorItsSDKs() throws {
        let (s, m) = try setUp()
        let registry = try RegistryServer()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        let env = m.environment.merging(["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1"]) { $1 }
        let first = try s.tack(["install"], in: "app", env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("team cache"), "\(first.stderr)")
        let catalog = try RegistryServer.capture("/usr/bin/curl", ["-s", "http://127.0.0.1:\(registry.port)/v2/_catalog"])
        #expect(catalog.contains("\"repositories\":[]"), "\(catalog)")
        // Another machine with the same cache gets both from swift.org, verified against the lock.
        try FileManager.default.removeItem(atPath: s.root + "/tack-home")
        let second = try s.tack(["install", "--frozen"], in: "app", env: env)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(lines(try sdkList(s, m).stdout) == [Self.id603])
        withExtendedLifetime(registry) {}
    }

    @Test func frozenVerifyAndDoctorTreatSDKsLikeTheToolchain() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
        // A pin that gains an SDK is not what the lock says: --frozen installs nothing.
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, sdks: [static-linux] }\n")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(frozen.status != 0, "\(frozen.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/\(Self.id603).artifactbundle"))
        // Locked again for the new pin: doctor names the SDK pinned and not installed.
        let locked = try s.tack(["lock"], in: "app", env: m.environment)
        #expect(locked.status == 0, "\(locked.stderr)")
        let doctor = try s.tack(["doctor"], in: "app", env: m.environment)
        #expect(doctor.stdout.contains("the static-linux Swift SDK of swift 6.0.3 is pinned (") && doctor.stdout.contains("but not installed"), "\(doctor.stdout)")
        // The install records it, verified; from then on --frozen installs it again.
        #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
        let recorded = try lock(s)
        #expect(recorded.contains("sdk-sha256:"), "\(recorded)")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/\(Self.id603).artifactbundle")
        let again = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/swift/6.0.3/swift-sdks/\(Self.id603).artifactbundle"))
        // An SDK of another release in the toolchain's directory, and one in the user's own.
        let foreign = "swift-6.0.2-RELEASE_static-linux-0.0.1.artifactbundle"
        try s.mkdir("tack-home/installs/swift/6.0.3/swift-sdks/\(foreign)")
        try s.mkdir("home/.swiftpm/swift-sdks/\(foreign)")
        let doctor2 = try s.tack(["doctor"], in: "app", env: m.environment)
        #expect(doctor2.stdout.contains("swift 6.0.3 holds the Swift SDK \(foreign), made for swift 6.0.2"), "\(doctor2.stdout)")
        #expect(doctor2.stdout.contains("~/.swiftpm/swift-sdks holds \(foreign), made for swift 6.0.2, not the pinned swift 6.0.3"), "\(doctor2.stdout)")
        #expect(!doctor2.stdout.contains("but not installed"), "\(doctor2.stdout)")
        // --verify downloads the SDK again: a replaced bundle is caught.
        let good = try s.tack(["lock", "--verify"], in: "app", env: m.environment)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        try m.sdkBundle(version: "6.0.3", target: "aarch64-swift-linux-musl")
        let verify = try s.tack(["lock", "--verify"], in: "app", env: m.environment)
        #expect(verify.status != 0, "\(verify.stdout)\(verify.stderr)")
        #expect((verify.stdout + verify.stderr).contains("the static-linux Swift SDK of swift 6.0.3: tack.lock says"), "\(verify.stdout)\(verify.stderr)")
    }
}

/// The real thing, when the tester provides it: `TACK_TEST_STATIC_SDK` names a directory laid
/// out as download.swift.org is for one release X, holding this machine's toolchain archive
/// and the Static Linux SDK bundle, each with its `.sig`
/// (`swift-X-release/ubuntu2404/swift-X-RELEASE/swift-X-RELEASE-ubuntu24.04.tar.gz`,
/// `swift-X-release/static-sdk/swift-X-RELEASE/swift-X-RELEASE_static-linux-0.0.1.artifactbundle.tar.gz`).
/// Served on loopback with a release list made here, checked against swift.org's own keys,
/// it builds a hello-world for musl and runs the fully static executable. Minutes; never in CI.
@Suite(.ownThreads, .enabled(if: ProcessInfo.processInfo.environment["TACK_TEST_STATIC_SDK"] != nil))
struct RealStaticSDKTests {
    @Test func aHelloWorldBuiltWithTheStaticLinuxSDKRunsWithNoLibrariesAtAll() throws {
        let dir = try #require(ProcessInfo.processInfo.environment["TACK_TEST_STATIC_SDK"])
        let release = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("swift-") && $0.hasSuffix("-release") })
        let version = String(release.dropFirst("swift-".count).dropLast("-release".count))
        let tag = "swift-\(version)-RELEASE"
        let bundle = "\(release)/static-sdk/\(tag)/\(tag)_static-linux-0.0.1.artifactbundle.tar.gz"
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try FileManager.default.createSymbolicLink(atPath: m.www + "/" + release, withDestinationPath: dir + "/" + release)
        try m.releases([version], sdks: [version: ["static-sdk": try sha256(dir + "/" + bundle)]])
        try m.start()
        // swift.org's keys, shipped with tack: no TACK_SWIFT_KEYRING.
        let env = ["TACK_SWIFT_MIRROR": m.url]
        try s.write("app/tack.yml", "tools:\n  swift: { version: \(version), sdks: [static-linux] }\n")
        let install = try s.tack(["install"], in: "app", env: env)
        #expect(install.status == 0, "\(install.stderr)")
        try s.write("app/Package.swift", """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])

            """)
        try s.write("app/Sources/hello/main.swift", "print(\"Hello, static world!\")\n")
        let arch = SwiftPlatform.arch(of: .current)
        let build = try s.tack(["exec", "--", "swift", "build", "-c", "release", "--swift-sdk", "\(arch)-swift-linux-musl"], in: "app", env: env)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let binary = s.root + "/app/.build/\(arch)-swift-linux-musl/release/hello"
        #expect(try runProgram(binary) == "Hello, static world!\n")
        // No interpreter, no shared libraries: it runs on any Linux.
        let ldd = try s.run("/usr/bin/env", ["ldd", binary], in: "app")
        #expect((ldd.stdout + ldd.stderr).contains("not a dynamic executable") || (ldd.stdout + ldd.stderr).contains("statically linked"), "\(ldd.stdout)\(ldd.stderr)")
        withExtendedLifetime(m) {}
    }
}
