import Foundation
import Testing
import TackCore

/// Swift toolchains (issue 16): a loopback swift.org with signed toolchains.
@Suite(.ownThreads) struct SwiftToolchainTests {
    /// A sandbox with a mirror serving Swift 6.0.2, 6.0.3 and 6.1 (6.0.3 and 6.1 built and
    /// signed), its keyring exported.
    func setUp(keyType: String = "ed25519") throws -> (Sandbox, SwiftMirror) {
        let s = try Sandbox()
        let m = try SwiftMirror(s, keyType: keyType)
        try m.releases(["6.0.2", "6.0.3", "6.1"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
        try m.toolchain(tag: "swift-6.1-RELEASE", branchDirectory: "swift-6.1-release")
        try m.exportKeyring()
        try m.start()
        return (s, m)
    }

    func installed(_ s: Sandbox, _ version: String) -> Bool {
        FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/swift/\(version)")
    }

    @Test func swiftVersionFileInstallsAVerifiedToolchainThatRuns() throws {
        let (s, m) = try setUp()
        try s.write("app/.swift-version", "swift-6.0.3-RELEASE\n")
        let install = try s.tack(["install"], in: "app", env: m.environment)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(installed(s, "6.0.3"))
        // A .swift-version alone gets no tack.lock until asked (issue 43, item 17); asked, the
        // lock records what the install verified, without downloading it again.
        #expect(!FileManager.default.fileExists(atPath: s.root + "/app/tack.lock"))
        let locked = try s.tack(["lock"], in: "app", env: m.environment)
        #expect(locked.status == 0, "\(locked.stderr)")
        let lock = try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8)
        let key = m.platform.description
        let archive = "swift-6.0.3-RELEASE-\(m.platform.archiveSuffix).tar.gz"
        #expect(lock.contains("backend: \"swift\""), "\(lock)")
        #expect(lock.contains("\(key): \"\(archive)\""), "\(lock)")
        #expect(lock.contains("\(key): \"swift-6.0.3-release/\(m.platform.directory)/swift-6.0.3-RELEASE/\(archive)\""), "\(lock)")
        let fingerprint = try m.gpg(["--with-colons", "--fingerprint"]).stdout.split(separator: "\n").first { $0.hasPrefix("fpr:") }?.split(separator: ":", omittingEmptySubsequences: false)[9] ?? ""
        #expect(!fingerprint.isEmpty && lock.contains("signed-by:\n      \(key): \"\(fingerprint)\""), "\(lock)")
        #expect(lock.contains("sha256:\n      \(key): \"\(try sha256(m.www + "/swift-6.0.3-release/\(m.platform.directory)/swift-6.0.3-RELEASE/\(archive)"))\""))
        let exec = try s.tack(["exec", "--", "swift", "--version"], in: "app", env: m.environment)
        #expect(exec.status == 0 && exec.stdout.contains("swift: Swift version swift-6.0.3-RELEASE"), "\(exec.stdout)\(exec.stderr)")
        // Every executable of usr/bin has a shim; other files do not.
        let shim = try s.run(s.root + "/tack-home/shims/swiftc", ["-v"], in: "app")
        #expect(shim.stdout.contains("swiftc: Swift version swift-6.0.3-RELEASE"), "\(shim.stdout)\(shim.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.root + "/tack-home/shims/sourcekit-lsp"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/shims/notes.txt"))
        let current = try s.tack(["current", "swift"], in: "app")
        #expect(current.stdout.contains("6.0.3 (set by"), "\(current.stdout)")
        // A second install from the lock downloads nothing new and stays verified.
        let again = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aRequirementPicksTheNewestReleaseAndAnRSAKeyringInBinaryWorks() throws {
        let (s, m) = try setUp(keyType: "rsa3072")
        try s.write("app/tack.yml", "tools:\n  swift: \"~> 6.0\"\n")
        let r = try s.tack(["install"], in: "app", env: m.environment.merging(["TACK_SWIFT_KEYRING": s.root + "/keyring.gpg"]) { $1 })
        #expect(r.status == 0, "\(r.stderr)")
        #expect(installed(s, "6.1"))
        let exec = try s.tack(["exec", "--", "swift", "--version"], in: "app", env: m.environment)
        #expect(exec.stdout.contains("swift-6.1-RELEASE"), "\(exec.stdout)\(exec.stderr)")
    }

    /// Each bad signature installs nothing and names the key that was expected.
    @Test(arguments: ["tampered archive", "tampered signature", "wrong key", "missing signature", "shipped keys only"])
    func aBadSignatureInstallsNothing(_ fault: String) throws {
        let (s, m) = try setUp()
        let archive = m.www + "/swift-6.0.3-release/\(m.platform.directory)/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE-\(m.platform.archiveSuffix).tar.gz"
        var env = m.environment
        switch fault {
        case "tampered archive":
            let h = try #require(FileHandle(forWritingAtPath: archive))
            try h.seekToEnd()
            try h.write(contentsOf: Data([0]))
            try h.close()
        case "tampered signature":
            var sig = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive + ".sig")))
            sig[sig.count - 3] ^= 0x55
            try Data(sig).write(to: URL(fileURLWithPath: archive + ".sig"))
        case "wrong key":
            // Signed by another key, made in another GNUPGHOME.
            let other = s.root + "/other-gnupg"
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
            chmod(other, 0o700)
            try m.gpg(["--quick-gen-key", "Someone Else <else@example.com>", "ed25519", "sign", "never"], gnupgHome: other)
            try FileManager.default.removeItem(atPath: archive + ".sig")
            try m.gpg(["--detach-sign", "--output", archive + ".sig", archive], gnupgHome: other)
        case "missing signature":
            try FileManager.default.removeItem(atPath: archive + ".sig")
        default:
            env["TACK_SWIFT_KEYRING"] = nil
        }
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 1, "\(r.stdout)")
        #expect(!installed(s, "6.0.3"))
        #expect(r.stderr.contains("nothing was installed"), "\(r.stderr)")
        if fault != "missing signature" {
            let expected = fault == "shipped keys only" ? "Swift 6.x Release Signing Key <swift-infrastructure@forums.swift.org> (52BB 7E3D" : "Test Mirror <mirror@example.com>"
            #expect(r.stderr.contains("expected a signature by") && r.stderr.contains(expected), "\(r.stderr)")
        } else {
            #expect(r.stderr.contains("cannot download the signature"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/shims/swift"))
    }

    @Test func theLockChecksumIsCheckedBeforeTheSignature() throws {
        let (s, m) = try setUp()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        #expect(try s.tack(["install"], in: "app", env: m.environment).status == 0)
        let lockPath = s.root + "/app/tack.lock"
        let lock = try String(contentsOfFile: lockPath, encoding: .utf8)
        let sum = try sha256(m.www + "/swift-6.0.3-release/\(m.platform.directory)/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE-\(m.platform.archiveSuffix).tar.gz")
        try lock.replacingOccurrences(of: sum, with: String(repeating: "a", count: 64)).write(toFile: lockPath, atomically: true, encoding: .utf8)
        #expect(try s.tack(["uninstall", "swift@6.0.3"], in: "app").status == 0)
        try? FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/downloads")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        #expect(r.failures.map(\.cause) == [.install(.checksumMismatch(tool: "swift 6.0.3", platform: m.platform.description, expected: String(repeating: "a", count: 64), actual: sum, origin: .lock))], "\(r.stderr)")
        #expect(!installed(s, "6.0.3"))
    }

    @Test func anArchiveWhoseTopDirectoryIsNotTheToolchainsIsRefused() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try m.releases(["6.0.3"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release", top: "usr-elsewhere")
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains("holds usr-elsewhere, not the toolchain directory swift-6.0.3-RELEASE-\(m.platform.archiveSuffix)"), "\(r.stderr)")
        #expect(!installed(s, "6.0.3"))
    }

    /// A setuid bit in a toolchain archive is removed and said, as for any archive tack extracts.
    @Test func aSetuidBitInAToolchainIsRemovedAndSaid() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try m.releases(["6.0.3"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release", setuid: true)
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let top = "swift-6.0.3-RELEASE-\(m.platform.archiveSuffix)"
        #expect(r.stderr.contains("swift 6.0.3: removed the setuid/setgid bit from \(top)/usr/bin/sourcekit-lsp"), "\(r.stderr)")
        let attrs = try FileManager.default.attributesOfItem(atPath: s.root + "/tack-home/installs/swift/6.0.3/files/\(top)/usr/bin/sourcekit-lsp")
        #expect((attrs[.posixPermissions] as? Int).map { $0 & 0o6000 } == 0)
    }

    @Test func snapshotsResolveToTheNewestOfTheirBranch() throws {
        let (s, m) = try setUp()
        try m.snapshots(branch: "main", ["swift-DEVELOPMENT-SNAPSHOT-2024-08-22-a", "swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a"])
        try m.toolchain(tag: "swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a", branchDirectory: "development")
        try s.write("app/tack.yml", "tools:\n  swift: main-snapshot\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(installed(s, "main-snapshot-2024-08-30"))
        let exec = try s.tack(["exec", "--", "swift", "--version"], in: "app", env: m.environment)
        #expect(exec.stdout.contains("swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a"), "\(exec.stdout)\(exec.stderr)")
        let list = try s.tack(["ls-remote", "swift", "--snapshots"], in: "app", env: m.environment)
        #expect(list.stdout == "main-snapshot-2024-08-22\nmain-snapshot-2024-08-30\n", "\(list.stdout)\(list.stderr)")
        let releases = try s.tack(["ls-remote", "swift"], in: "app", env: m.environment)
        #expect(releases.stdout == "6.0.2\n6.0.3\n6.1\n", "\(releases.stdout)\(releases.stderr)")
        // Where nothing pins swift, the built-in registry names its source.
        try s.mkdir("elsewhere")
        let unpinned = try s.tack(["ls-remote", "swift", "6.0"], in: "elsewhere", env: m.environment)
        #expect(unpinned.status == 0 && unpinned.stdout == "6.0.2\n6.0.3\n", "\(unpinned.stdout)\(unpinned.stderr)")
    }

    @Test func anUnknownVersionListsTheNearestOnes() throws {
        let (s, m) = try setUp()
        try s.write("app/.swift-version", "6.0.9\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        let failure = try #require(r.noVersion, "\(r.stderr)")
        #expect(failure.tool == "swift" && failure.requirement == "6.0.9" && failure.hint == .nearest(["6.0.2", "6.0.3", "6.1"], newest: nil), "\(r.stderr)")
    }

    @Test func aDistributionWithoutABuildSaysWhichExistAndPlatformChoosesOne() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        // The release is built for two other platforms only.
        try m.releases(["6.0.3"], platforms: [(name: "Ubuntu 22.04", dir: nil), (name: "Red Hat Universal Base Image 9", dir: nil)])
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains("swift 6.0.3 has no build for \(m.platform.identifier)"), "\(r.stderr)")
        #expect(r.stderr.contains("swift.org builds it for ubi9, ubuntu2204"), "\(r.stderr)")
        #expect(r.stderr.contains("platform: NAME"), "\(r.stderr)")
        #expect(!installed(s, "6.0.3"))
    }
}

extension SwiftToolchainTests {
    /// One lock for Linux on both architectures and both Macs: each platform's archive, its
    /// SHA-256 and its signer, from this machine; --verify fetches each again.
    @Test(.enabled(if: Platform.machine.description == "linux-x86_64")) func aLockRecordsEveryPlatformsToolchainAndVerifyCatchesAReplacedOne() throws {
        let (s, m) = try setUp()
        let arm = SwiftPlatform(identifier: m.platform.identifier, arch: "aarch64")
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release", for: arm)
        let pkg = try m.package(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
        try s.write("app/tack.yml", "platforms: [linux-x86_64, linux-arm64, darwin-arm64, darwin-x86_64]\ntools:\n  swift: 6.0.3\n")
        let lock = try s.tack(["lock"], in: "app", env: m.environment)
        #expect(lock.status == 0, "\(lock.stderr)")
        let text = try #require(s.read("app/tack.lock"))
        let fingerprint = try m.gpg(["--with-colons", "--fingerprint"]).stdout.split(separator: "\n").first { $0.hasPrefix("fpr:") }?.split(separator: ":", omittingEmptySubsequences: false)[9] ?? ""
        let here = m.platform.description, there = arm.description
        for (key, dir) in [(here, m.platform.directory), (there, arm.directory)] {
            let archive = "swift-6.0.3-RELEASE-\(key).tar.gz"
            let path = "swift-6.0.3-release/\(dir)/swift-6.0.3-RELEASE/\(archive)"
            #expect(text.contains("\(key): \"\(path)\""), "\(key): \(text)")
            #expect(text.contains("\(key): \"\(try sha256(m.www + "/" + path))\""), "\(key): \(text)")
            #expect(text.contains("\(key): \"\(fingerprint)\""), "\(key): \(text)")
        }
        // Both Macs install the one package; its signer is its certificate's SHA-256, as
        // pkgutil names it (a Mac checks the signature itself before installing).
        let certificate = try sha256(pkg.certificate).uppercased()
        #expect(text.contains("osx: \"swift-6.0.3-release/xcode/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE-osx.pkg\""), "\(text)")
        #expect(text.contains("osx: \"\(try sha256(pkg.path))\""), "\(text)")
        #expect(text.contains("osx: \"\(certificate)\""), "\(text)")
        #expect(!installed(s, "6.0.3"), "locking installs nothing")
        let install = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(install.status == 0, "\(install.stderr)")

        let fine = try s.tack(["lock", "--verify"], in: "app", env: m.environment)
        #expect(fine.status == 0 && fine.stderr == "verified 3 downloads: each matches tack.lock\n", "\(fine.stderr)")
        // The ARM archive replaced by one signed with the same key: only its checksum tells.
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release", banner: "something else", for: arm)
        let now = try sha256(m.www + "/swift-6.0.3-release/\(arm.directory)/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE-\(there).tar.gz")
        let caught = try s.tack(["lock", "--verify"], in: "app", env: m.environment)
        #expect(caught.status == 1)
        #expect(caught.stderr.hasPrefix("tack: swift 6.0.3 (\(there)): tack.lock says ") && caught.stderr.hasSuffix("now serves \(now)\n"), "\(caught.stderr)")
        #expect(s.read("app/tack.lock") == text, "--verify changes nothing")
    }

    /// A package whose table of contents has no signature is not locked.
    @Test func anUnsignedMacPackageIsNotLocked() throws {
        let (s, m) = try setUp()
        let dir = m.www + "/swift-6.0.3-release/xcode/swift-6.0.3-RELEASE"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let r = try FixturePython.run([FixtureServer.script, "xar", dir + "/swift-6.0.3-RELEASE-osx.pkg"])
        #expect(r.status == 0, "\(r.stderr)")
        try s.write("app/tack.yml", "platforms: [linux-x86_64, darwin-arm64]\ntools:\n  swift: 6.0.3\n")
        let lock = try s.tack(["lock"], in: "app", env: m.environment)
        #expect(lock.status == 1)
        #expect(lock.stderr.contains("swift 6.0.3 (osx): the package's signature names no certificate — tack locks no toolchain whose signer it cannot name"), "\(lock.stderr)")
        #expect(!s.exists("app/tack.lock"))
    }

    /// What tack builds runs with the project's pinned swift first on PATH.
    @Test func buildsUseThePinnedToolchain() throws {
        let (s, m) = try setUp()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        let build = "{ git: \"\(repo.path)\", version: \"1.0.0\", build: 'sh build.sh && swift --version | head -1 | sed \"s/^/# /\" >> out/hello', bin: [out/hello] }"
        try s.writeTrusted("app/tack.yml", "tools:\n  swift: 6.0.3\n  hello: \(build)\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let built = try String(contentsOfFile: s.root + "/tack-home/installs/hello/1.0.0/bin/hello", encoding: .utf8)
        #expect(built.contains("# swift: Swift version swift-6.0.3-RELEASE"), "\(built)")
    }
}

/// This machine's own Swift toolchain, packaged in swift.org's layout, signed, served,
/// installed through tack from a project with `.swift-version`, and used to build and run a
/// package. Slow (it archives a whole toolchain): `TACK_SLOW_TESTS=1`.
@Suite(.ownThreads, .enabled(if: ProcessInfo.processInfo.environment["TACK_SLOW_TESTS"] == "1"))
struct RealSwiftToolchainTests {
    @Test func installsThisMachinesToolchainAndBuildsAPackageWithIt() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        // `swift` as installed (on swift.org's Linux toolchains a link to swift-driver, which
        // answers only to the name `swift`): its usr is the link's real directory's parent.
        let swift = try runProgram("/bin/sh", ["-c", "command -v swift"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let real = URL(fileURLWithPath: try runProgram("/bin/sh", ["-c", "readlink -f \"$1\"", "sh", swift]).trimmingCharacters(in: .whitespacesAndNewlines))
        let usr = real.deletingLastPathComponent().deletingLastPathComponent()  // …/usr
        let banner = try runProgram(swift, ["--version"])
        let version = try #require(banner.firstMatch(of: /Swift version (\d+\.\d+(\.\d+)?)/).map { String($0.1) })
        let tag = "swift-\(version)-RELEASE"
        let name = "\(tag)-\(m.platform.archiveSuffix)"
        // swift.org's layout: <name>/usr/…, here a link to this toolchain's usr (tar follows it).
        try FileManager.default.createDirectory(atPath: s.root + "/build/" + name, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: s.root + "/build/\(name)/usr", withDestinationPath: usr.path)
        let dir = "swift-\(version)-release/\(m.platform.directory)/\(tag)"
        try FileManager.default.createDirectory(atPath: m.www + "/" + dir, withIntermediateDirectories: true)
        let archive = m.www + "/\(dir)/\(name).tar.gz"
        let tar = try s.run("/usr/bin/env", ["tar", "-czhf", archive, "-C", s.root + "/build", name])
        #expect(tar.status == 0, "\(tar.stderr)")
        try m.gpg(["--detach-sign", "--output", archive + ".sig", archive])
        try m.releases([version])
        try m.exportKeyring()
        try m.start()
        try s.write("app/.swift-version", "\(tag)\n")
        try s.write("app/Package.swift", "// swift-tools-version: 5.9\nimport PackageDescription\nlet package = Package(name: \"hello\", targets: [.executableTarget(name: \"hello\")])\n")
        try s.write("app/Sources/hello/main.swift", "print(\"hello from the pinned toolchain\")\n")
        let install = try s.tack(["install"], in: "app", env: m.environment)
        #expect(install.status == 0, "\(install.stderr)")
        let build = try s.tack(["exec", "--", "swift", "build"], in: "app", env: m.environment)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let run = try s.run(s.root + "/tack-home/shims/swift", ["run", "hello"], in: "app")
        #expect(run.stdout.contains("hello from the pinned toolchain"), "\(run.stdout)\(run.stderr)")
        let which = try s.tack(["which", "swift"], in: "app")
        #expect(which.stdout.hasPrefix(s.root + "/tack-home/installs/swift/\(version)/bin/swift"), "\(which.stdout)")
    }
}

extension SwiftToolchainTests {
    /// doctor names the system packages the pinned toolchain needs that are missing, and
    /// bootstrap plans to install them (swift.org's list for the platform).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query")))
    func doctorAndBootstrapKnowTheToolchainsSystemPackages() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  swift: { version: 6.0.3, platform: debian12 }\n")
        let env = ["TACK_PACKAGE_MANAGER": "apt"]
        let doctor = try s.tack(["doctor"], in: "app", env: env)
        let missing = try s.run("/usr/bin/env", ["sh", "-c", "for p in binutils-gold gcc git libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev libpython3-dev libsqlite3-dev libstdc++-12-dev libxml2-dev pkg-config tzdata uuid-dev; do dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q 'install ok installed' || echo $p; done"]).stdout
            .split(separator: "\n").map(String.init)
        if missing.isEmpty {
            #expect(doctor.stdout.contains("the system packages the pinned Swift toolchain needs (debian12) are installed"), "\(doctor.stdout)")
        } else {
            #expect(doctor.stdout.contains("needs system packages that are missing (debian12): \(missing.joined(separator: ", "))"), "\(doctor.stdout)")
            let plan = try s.tack(["bootstrap", "--dry-run"], in: "app", env: env)
            #expect((plan.stdout + plan.stderr).contains("install system packages with apt-get") && (plan.stdout + plan.stderr).contains(missing.joined(separator: ", ")), "\(plan.stdout)\(plan.stderr)")
        }
    }
}
