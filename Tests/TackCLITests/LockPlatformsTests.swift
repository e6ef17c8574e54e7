import Foundation
import Testing
import TackCore

/// One lock for every platform a team runs on: `platforms:` in tack.yml, `tack lock
/// --platform`, and `--frozen` on a platform the lock does not cover. Other platforms are
/// pretended with TACK_PLATFORM (for locking and verifying; nothing installed for another
/// platform is run).
@Suite(.ownThreads) struct LockPlatformsTests {
    static let all = ["linux-x86_64", "linux-arm64", "darwin-x86_64", "darwin-arm64"]

    /// A url tool with one script per platform, served on loopback.
    func project(_ s: Sandbox, platforms: String?) throws -> FixtureServer {
        for p in Self.all { try s.write("www/tool-1.0.0-\(p).sh", "#!/bin/sh\necho tool for \(p)\n") }
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", (platforms.map { "platforms: \($0)\n" } ?? "")
                    + "tools:\n  tool: { url: \"\(server.url("files/tool-{version}-{os}-{arch}.sh"))\", version: 1.0.0, bin: [tool] }\n")
        return server
    }

    func checksum(_ s: Sandbox, _ platform: String) throws -> String { try sha256(s.root + "/www/tool-1.0.0-\(platform).sh") }

    @Test func oneLockRecordsEveryPlatformsChecksum() throws {
        let s = try Sandbox()
        let server = try project(s, platforms: "[darwin-arm64, linux-x86_64, linux-aarch64]")
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status == 0, "\(lock.stderr)")
        let text = try #require(s.read("app/tack.lock"))
        #expect(text.contains("platforms: [\"darwin-arm64\", \"linux-arm64\", \"linux-x86_64\"]\n"), "\(text)")
        for p in ["darwin-arm64", "linux-arm64", "linux-x86_64"] {
            #expect(text.contains("\(p): \"\(try checksum(s, p))\""), "\(p) in \(text)")
        }
        #expect(!text.contains("darwin-x86_64"), "a platform nobody asked for: \(text)")
        // A second lock with nothing changed downloads nothing.
        let before = try server.requests("files/tool-1.0.0-darwin-arm64.sh")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(try server.requests("files/tool-1.0.0-darwin-arm64.sh") == before)
        // --frozen installs here, and on the other platforms, verifying each download.
        let here = try s.tack(["install", "--frozen"], in: "app")
        #expect(here.status == 0, "\(here.stderr)")
        let mac = try s.tack(["install", "--frozen"], in: "app", env: ["TACK_PLATFORM": "darwin-arm64", "TACK_HOME": s.root + "/mac-home"])
        #expect(mac.status == 0, "\(mac.stderr)")
        #expect(s.read("mac-home/installs/tool/1.0.0/bin/tool")?.contains("tool for darwin-arm64") == true)
    }

    @Test func aTamperedArtifactForAnotherPlatformIsCaughtByItsInstall() throws {
        let s = try Sandbox()
        let server = try project(s, platforms: "[linux-x86_64, darwin-arm64]")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["lock"], in: "app").status == 0)
        try s.write("www/tool-1.0.0-darwin-arm64.sh", "#!/bin/sh\necho something else\n")
        let mac = try s.tack(["install", "--frozen"], in: "app", env: ["TACK_PLATFORM": "darwin-arm64", "TACK_HOME": s.root + "/mac-home"])
        #expect(mac.status != 0)
        #expect(mac.stderr.contains("checksum") || mac.stderr.contains("SHA-256"), "\(mac.stderr)")
        #expect(!s.exists("mac-home/installs/tool/1.0.0"))
    }

    @Test func lockVerifyDownloadsEveryPlatformAgainAndCatchesATamperedOne() throws {
        let s = try Sandbox()
        let server = try project(s, platforms: "[linux-x86_64, darwin-arm64, darwin-x86_64]")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        let fine = try s.tack(["lock", "--verify"], in: "app")
        #expect(fine.status == 0 && fine.stderr == "verified 3 downloads: each matches tack.lock\n", "\(fine.stderr)")
        // Fetched again, not taken from the download cache.
        #expect(try server.requests("files/tool-1.0.0-darwin-x86_64.sh") == 2)
        let evil = "#!/bin/sh\necho something else\n"
        try s.write("www/tool-1.0.0-darwin-x86_64.sh", evil)
        let caught = try s.tack(["lock", "--verify"], in: "app")
        #expect(caught.status == 1)
        let now = try sha256(s.root + "/www/tool-1.0.0-darwin-x86_64.sh")
        #expect(caught.stderr == "tack: tool 1.0.0 (darwin-x86_64): tack.lock says \(try #require(lock.split(separator: "\n").first { $0.contains("darwin-x86_64:") }).split(separator: "\"")[1]), but \(server.url("files/tool-1.0.0-darwin-x86_64.sh")) now serves \(now)\n", "\(caught.stderr)")
        #expect(s.read("app/tack.lock") == lock, "--verify changes nothing")
    }

    @Test func frozenOnAPlatformTheLockDoesNotCoverSaysHowToAddIt() throws {
        let s = try Sandbox()
        let server = try project(s, platforms: "[linux-x86_64, darwin-arm64]")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let arm = try s.tack(["install", "--frozen"], in: "app", env: ["TACK_PLATFORM": "linux-arm64", "TACK_HOME": s.root + "/arm-home"])
        #expect(arm.status == 1)
        #expect(arm.failures.map(\.cause) == [.frozen(.lockUncovered(covered: ["darwin-arm64", "linux-x86_64"], platform: "linux-arm64"))], "\(arm.stderr)")
        #expect(!s.exists("arm-home/installs/tool"))
        // The command it names adds the platform, from this machine; the platform stays.
        let add = try s.tack(["lock", "--platform", "linux-arm64"], in: "app")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(s.read("app/tack.lock")?.contains("linux-arm64: \"\(try checksum(s, "linux-arm64"))\"") == true)
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(s.read("app/tack.lock")?.contains("platforms: [\"darwin-arm64\", \"linux-arm64\", \"linux-x86_64\"]") == true, "\(s.read("app/tack.lock") ?? "")")
        let again = try s.tack(["install", "--frozen"], in: "app", env: ["TACK_PLATFORM": "linux-arm64", "TACK_HOME": s.root + "/arm-home"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aPlatformWithNoDownloadIsNamedWithItsURL() throws {
        let s = try Sandbox()
        let server = try project(s, platforms: "[linux-x86_64, darwin-x86_64]")
        try FileManager.default.removeItem(atPath: s.root + "/www/tool-1.0.0-darwin-x86_64.sh")
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status != 0)
        #expect(lock.stderr.contains("no darwin-x86_64 download of tool 1.0.0 at \(server.url("files/tool-1.0.0-darwin-x86_64.sh"))"), "\(lock.stderr)")
        #expect(!s.exists("app/tack.lock"), "nothing is written when a platform fails")
    }

    @Test func badPlatformsAreRefused() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "platforms: [windows-x86_64]\ntools: {}\n")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status != 0 && r.stderr.contains("\"windows-x86_64\" is not a platform"), "\(r.stderr)")
        try s.write("app/tack.yml", "tools: {}\n")
        let flag = try s.tack(["lock", "--platform", "linux"], in: "app")
        #expect(flag.status == 2 && flag.stderr.contains("\"linux\" is not a platform"), "\(flag.stderr)")
    }

    // MARK: pip: every platform's wheels

    static let onLinuxX86 = Platform.machine.description == "linux-x86_64"

    /// `greet` (pure Python) needs `native`, which has wheels for linux-x86_64 and both Macs
    /// only, and on macOS `macdep`; their PEP 503 index on loopback.
    func wheels(_ s: Sandbox, nativeMarker: String = "") throws -> FixtureServer {
        let dists = s.root + "/dists"
        try s.mkdir("dists")
        let pip = PipBackendTests()
        try pip.python(["wheel", "greet", "1.0.0", dists, "native>=1", "macdep; sys_platform == 'darwin'"])
        for tag in ["manylinux_2_17_x86_64", "macosx_11_0_arm64", "macosx_10_12_x86_64"] {
            try pip.python(["wheel", "native", "1.0.0", dists, "--tag=py3-none-\(tag)"])
        }
        try pip.python(["wheel", "macdep", "2.0.0", dists])
        try pip.python(["simple", dists])
        let server = try FixtureServer(serving: dists)
        s.environment["PATH"] = try uvDirectory() + ":/usr/bin:/bin"
        try s.write("app/tack.yml", "platforms: [linux-x86_64, darwin-arm64, darwin-x86_64]\ntools:\n  greet: { pip: greet, version: 1.0.0, index_url: \"\(server.url("static/simple"))\" }\n")
        return server
    }

    @Test(.enabled(if: onLinuxX86)) func pipLocksEveryPlatformsWheelsAndInstallsThisOnesFrozen() throws {
        let s = try Sandbox()
        let server = try wheels(s)
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status == 0, "\(lock.stderr)")
        let text = try #require(s.read("app/tack.lock"))
        // What each platform installs, and every platform's wheel hash for native.
        #expect(text.contains("darwin-arm64: \"greet macdep native\""), "\(text)")
        #expect(text.contains("darwin-x86_64: \"greet macdep native\""), "\(text)")
        #expect(text.contains("linux-x86_64: \"greet native\""), "\(text)")
        let nativeLine = try #require(text.split(separator: "\n").first { $0.contains("native: \"sha256:") })
        for tag in ["manylinux_2_17_x86_64", "macosx_11_0_arm64", "macosx_10_12_x86_64"] {
            #expect(nativeLine.contains(try sha256(s.root + "/dists/native-1.0.0-py3-none-\(tag).whl")), "\(tag): \(nativeLine)")
        }
        #expect(text.contains("macdep: \"2.0.0\""), "\(text)")
        // A second lock with nothing changed asks the index nothing.
        let asked = try server.requests("static/simple/greet/")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(try server.requests("static/simple/greet/") == asked)
        #expect(s.read("app/tack.lock") == text)

        // --frozen installs this platform's distributions only, verified by hash.
        let install = try s.tack(["install", "--frozen"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        let run = try s.tack(["exec", "--", "greet", "hi"], in: "app")
        #expect(run.stdout == "greet 1.0.0 hi\n", "\(run)")
        let site = try #require(FileManager.default.subpaths(atPath: s.root + "/tack-home/installs/greet/1.0.0/venv/lib"))
        #expect(site.contains { $0.hasSuffix("site-packages/native_tool") } && !site.contains { $0.contains("macdep") }, "\(site.filter { $0.hasSuffix("_tool") })")
        // An install that may write the lock leaves the other platforms in it.
        #expect(try s.tack(["uninstall", "greet@1.0.0"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(s.read("app/tack.lock") == text)
    }

    @Test(.enabled(if: onLinuxX86)) func pipSaysWhichPlatformHasNoWheelAndVerifyCatchesAReplacedOne() throws {
        let s = try Sandbox()
        let server = try wheels(s)
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let text = try #require(s.read("app/tack.lock"))

        let arm = try s.tack(["lock", "--platform", "linux-arm64"], in: "app")
        #expect(arm.status == 1)
        #expect(arm.stderr.hasPrefix("tack: greet 1.0.0 needs native 1.0.0, which has no wheel for linux-arm64 and no source distribution to build one (the index has wheels for "), "\(arm.stderr)")
        #expect(arm.stderr.contains("drop linux-arm64 from `platforms:`"), "\(arm.stderr)")
        #expect(s.read("app/tack.lock") == text, "nothing is written when a platform fails")

        // Every file the lock allows, downloaded again: greet's, macdep's and native's three.
        let fine = try s.tack(["lock", "--verify"], in: "app")
        #expect(fine.status == 0 && fine.stderr == "verified 5 downloads: each matches tack.lock\n", "\(fine.stderr)")
        let fetched = try server.requests("static/native-1.0.0-py3-none-macosx_11_0_arm64.whl")
        #expect(fetched >= 1, "downloaded, not taken from a cache")
        // The Apple silicon wheel replaced on the index (same name and version, other bytes).
        let old = try sha256(s.root + "/dists/native-1.0.0-py3-none-macosx_11_0_arm64.whl")
        try PipBackendTests().python(["wheel", "native", "1.0.0", s.root + "/dists", "--tag=py3-none-macosx_11_0_arm64", "--marker=replaced"])
        try PipBackendTests().python(["simple", s.root + "/dists"])
        let now = try sha256(s.root + "/dists/native-1.0.0-py3-none-macosx_11_0_arm64.whl")
        #expect(now != old)
        let caught = try s.tack(["lock", "--verify"], in: "app")
        #expect(caught.status == 1)
        #expect(caught.stderr == "tack: greet 1.0.0: the index no longer serves the file of native 1.0.0 that tack.lock locks with sha256 \(old); it now offers native-1.0.0-py3-none-macosx_11_0_arm64.whl (sha256 \(now)) — was it replaced? tack.lock is unchanged\n", "\(caught.stderr)")
        #expect(s.read("app/tack.lock") == text, "--verify changes nothing")
    }

    @Test(.enabled(if: onLinuxX86)) func aToolInstalledBeforeThePlatformsWereAddedIsNotInstalledAgain() throws {
        let s = try Sandbox()
        let server = try wheels(s)
        defer { withExtendedLifetime(server) {} }
        // A find_links directory: uv locks only the wheels each resolution can use there.
        let yml = "platforms: [linux-x86_64, darwin-arm64, darwin-x86_64]\ntools:\n  greet: { pip: greet, version: 1.0.0, find_links: ../dists, index_url: \"\(server.url("static/none"))\" }\n"
        try s.write("app/tack.yml", yml.replacingOccurrences(of: "platforms: [linux-x86_64, darwin-arm64, darwin-x86_64]\n", with: ""))
        #expect(try s.tack(["install"], in: "app").status == 0)
        let single = try #require(s.read("app/tack.lock"))
        #expect(!single.contains("darwin"), "\(single)")
        let linuxWheel = try sha256(s.root + "/dists/native-1.0.0-py3-none-manylinux_2_17_x86_64.whl")
        #expect(single.contains("native: \"sha256:\(linuxWheel)\"\n"), "this platform's wheel only: \(single)")
        try s.write("app/tack.yml", yml)
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let text = try #require(s.read("app/tack.lock"))
        #expect(text.contains("linux-x86_64: \"greet native\"") && text.contains("darwin-arm64: \"greet macdep native\""), "\(text)")
        let nativeLine = try #require(text.split(separator: "\n").first { $0.contains("native: \"sha256:") })
        for tag in ["manylinux_2_17_x86_64", "macosx_11_0_arm64", "macosx_10_12_x86_64"] {
            #expect(nativeLine.contains(try sha256(s.root + "/dists/native-1.0.0-py3-none-\(tag).whl")), "each platform's own wheel: \(nativeLine)")
        }
        // The install made from the one-platform lock is still this lock's install here.
        let again = try s.tack(["install", "--frozen"], in: "app")
        #expect(again.status == 0 && !again.stderr.contains("installed"), "\(again.stderr)")
    }

    // MARK: gem: platform gems

    /// `greet` (a plain gem) needs `native`, built for x86_64-linux and arm64-darwin only.
    func gems(_ s: Sandbox) throws -> FixtureServer {
        s.environment["PATH"] = "/usr/bin:/bin"
        try GemBackendTests.buildGem(s, "native", "1.0.0", platform: "x86_64-linux")
        try GemBackendTests.buildGem(s, "native", "1.0.0", platform: "arm64-darwin")
        try GemBackendTests.buildGem(s, "greet", "1.0.0", dependsOn: "native")
        try GemBackendTests.index(s)
        let server = try FixtureServer(serving: s.root + "/repo")
        try s.write("app/tack.yml", "platforms: [linux-x86_64, darwin-arm64]\ntools:\n  greet: { gem: greet, version: 1.0.0, source: \"\(server.url("static/"))\" }\n")
        return server
    }

    @Test(.enabled(if: onLinuxX86)) func gemLocksEachPlatformsGemsAndVerifyCatchesAReplacedOne() throws {
        let s = try Sandbox()
        let server = try gems(s)
        defer { withExtendedLifetime(server) {} }
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status == 0, "\(lock.stderr)")
        let text = try #require(s.read("app/tack.lock"))
        for file in ["greet-1.0.0.gem", "native-1.0.0-x86_64-linux.gem", "native-1.0.0-arm64-darwin.gem"] {
            #expect(text.contains("\(file): \"\(try sha256(s.root + "/repo/gems/" + file))\""), "\(file): \(text)")
        }
        #expect(text.contains("darwin-arm64: \"greet-1.0.0 native-1.0.0-arm64-darwin\""), "\(text)")
        #expect(text.contains("linux-x86_64: \"greet-1.0.0 native-1.0.0-x86_64-linux\""), "\(text)")
        #expect(text.contains("native: \"1.0.0\""), "one version of each gem: \(text)")
        let fetched = try server.requests("static/gems/native-1.0.0-arm64-darwin.gem")
        #expect(fetched == 1, "each gem fetched once")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(s.read("app/tack.lock") == text)
        #expect(try server.requests("static/gems/native-1.0.0-arm64-darwin.gem") == fetched, "a second lock fetches nothing")

        // This platform's gems, --frozen; then an install that may write the lock keeps the rest.
        let install = try s.tack(["install", "--frozen"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        let run = try s.tack(["exec", "--", "greet", "hi"], in: "app")
        #expect(run.stdout.hasPrefix("greet 1.0.0 native 1.0.0"), "\(run)")
        #expect(s.exists("tack-home/installs/greet/1.0.0/gems/specifications/native-1.0.0-x86_64-linux.gemspec"))
        #expect(try s.tack(["uninstall", "greet@1.0.0"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(s.read("app/tack.lock") == text)

        // No gem of native for Linux on ARM.
        let arm = try s.tack(["lock", "--platform", "linux-arm64"], in: "app")
        #expect(arm.status == 1)
        #expect(arm.stderr.contains("greet 1.0.0 needs the gem native") && arm.stderr.contains("has none for linux-arm64 (aarch64-linux)"), "\(arm.stderr)")
        #expect(s.read("app/tack.lock") == text)
        // With a plain native gem published, Linux on ARM installs that one: the lock names
        // it, and fetches it as itself (not this machine's x86_64-linux gem of the same version).
        try GemBackendTests.buildGem(s, "native", "1.0.0")
        try GemBackendTests.index(s)
        let added = try s.tack(["lock", "--platform", "linux-arm64"], in: "app")
        #expect(added.status == 0, "\(added.stderr)")
        let withArm = try #require(s.read("app/tack.lock"))
        #expect(withArm.contains("linux-arm64: \"greet-1.0.0 native-1.0.0\""), "\(withArm)")
        #expect(withArm.contains("native-1.0.0.gem: \"\(try sha256(s.root + "/repo/gems/native-1.0.0.gem"))\""), "\(withArm)")
        #expect(withArm.contains("linux-x86_64: \"greet-1.0.0 native-1.0.0-x86_64-linux\""), "\(withArm)")

        let fine = try s.tack(["lock", "--verify"], in: "app")
        #expect(fine.status == 0 && fine.stderr == "verified 4 downloads: each matches tack.lock\n", "\(fine.stderr)")
        // Gem files are downloads like any other: checking them needs no Ruby.
        try s.mkdir("no-ruby")
        let noRuby = try s.tack(["lock", "--verify"], in: "app", env: ["PATH": s.root + "/no-ruby"])
        #expect(noRuby.status == 0 && noRuby.stderr == "verified 4 downloads: each matches tack.lock\n", "\(noRuby.stderr)")
        try GemBackendTests.buildGem(s, "native", "1.0.0", marker: "replaced", platform: "arm64-darwin")
        try GemBackendTests.index(s)
        let now = try sha256(s.root + "/repo/gems/native-1.0.0-arm64-darwin.gem")
        let caught = try s.tack(["lock", "--verify"], in: "app")
        #expect(caught.status == 1)
        #expect(caught.stderr == "tack: greet 1.0.0: native-1.0.0-arm64-darwin.gem from \(server.url("static/")) is \(now), but tack.lock says \(try #require(withArm.split(separator: "\n").first { $0.contains("native-1.0.0-arm64-darwin.gem:") }).split(separator: "\"")[1]) — was the gem replaced? tack.lock is unchanged\n", "\(caught.stderr)")
        #expect(s.read("app/tack.lock") == withArm)
    }

    /// tack.lock's gem names become file names in tack's scratch and cache: a lock whose names
    /// are paths is refused before anything is fetched or written, by `lock --verify` and by
    /// `install` alike.
    @Test(.enabled(if: onLinuxX86)) func gemNamesInTheLockThatArePathsAreRefused() throws {
        let s = try Sandbox()
        let server = try gems(s)
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let text = try #require(s.read("app/tack.lock"))
        let hostile = text.replacingOccurrences(of: "native-1.0.0-x86_64-linux", with: "../../../../evil-1.0.0-x86_64-linux")
            .replacingOccurrences(of: "native: \"1.0.0\"", with: "../../../../evil: \"1.0.0\"")
        #expect(hostile != text)
        try s.write("app/tack.lock", hostile)
        let verify = try s.tack(["lock", "--verify"], in: "app")
        #expect(verify.status == 1 && verify.stderr.contains("`../../../../evil-1.0.0-x86_64-linux.gem` is not the name of a gem file"), "\(verify.stderr)")
        let install = try s.tack(["install", "--frozen"], in: "app")
        #expect(install.status == 1 && install.stderr.contains("is not the name of a gem file"), "\(install.stderr)")
        let written = FileManager.default.enumerator(atPath: s.root)?.compactMap { $0 as? String }.filter { $0.contains("evil") } ?? []
        #expect(written.isEmpty, "\(written)")
        #expect(!FileManager.default.fileExists(atPath: Paths.dirname(s.root) + "/evil-1.0.0-x86_64-linux.gem"))
    }

    // MARK: All together

    /// The issue's scenario in one project: a url tool with an artifact per OS and arch, a pip
    /// tool with platform wheels and a gem tool with a platform gem, locked at once.
    @Test(.enabled(if: onLinuxX86)) func oneLockForAUrlAPipAndAGemTool() throws {
        let s = try Sandbox()
        let dists = try wheels(s)
        let gemServer = try gems(s)
        let urls = try project(s, platforms: nil)
        defer { withExtendedLifetime((dists, gemServer)) {} }
        s.environment["PATH"] = try uvDirectory() + ":/usr/bin:/bin"
        try s.write("app/tack.yml", """
            platforms: [linux-x86_64, darwin-arm64]
            tools:
              tool: { url: "\(urls.url("files/tool-{version}-{os}-{arch}.sh"))", version: 1.0.0, bin: [tool] }
              greet: { pip: greet, version: 1.0.0, index_url: "\(dists.url("static/simple"))" }
              hello: { gem: greet, version: 1.0.0, source: "\(gemServer.url("static/"))" }

            """)
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status == 0, "\(lock.stderr)")
        let text = try #require(s.read("app/tack.lock"))
        #expect(text.contains("platforms: [\"darwin-arm64\", \"linux-x86_64\"]\n"), "\(text)")
        #expect(text.contains("darwin-arm64: \"\(try checksum(s, "darwin-arm64"))\""), "\(text)")
        #expect(text.contains("darwin-arm64: \"greet macdep native\""), "\(text)")
        #expect(text.contains("native-1.0.0-arm64-darwin.gem: \"\(try sha256(s.root + "/repo/gems/native-1.0.0-arm64-darwin.gem"))\""), "\(text)")

        let here = try s.tack(["install", "--frozen"], in: "app")
        #expect(here.status == 0 && here.stderr.contains("3 installed"), "\(here.stderr)")
        #expect(try s.tack(["lock", "--verify"], in: "app").status == 0)

        // The Mac's url artifact replaced: --verify names it, and a (pretended) Mac install refuses it.
        try s.write("www/tool-1.0.0-darwin-arm64.sh", "#!/bin/sh\necho something else\n")
        let caught = try s.tack(["lock", "--verify"], in: "app")
        #expect(caught.status == 1 && caught.stderr.contains("tool 1.0.0 (darwin-arm64): tack.lock says"), "\(caught.stderr)")
        let mac = try s.tack(["install", "--frozen", "tool"], in: "app", env: ["TACK_PLATFORM": "darwin-arm64", "TACK_HOME": s.root + "/mac-home"])
        #expect(mac.status != 0 && mac.stderr.contains("checksum mismatch"), "\(mac.stderr)")
        #expect(!s.exists("mac-home/installs/tool/1.0.0"))
        #expect(s.read("app/tack.lock") == text)
    }
}
