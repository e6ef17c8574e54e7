import Foundation
import Testing

/// One lock for every platform a team runs on: `platforms:` in tack.yml, `tack lock
/// --platform`, and `--frozen` on a platform the lock does not cover. Other platforms are
/// pretended with TACK_PLATFORM (for locking and verifying; nothing installed for another
/// platform is run).
@Suite struct LockPlatformsTests {
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
        #expect(arm.stderr == "tack: tack.lock covers darwin-arm64, linux-x86_64, not linux-arm64, and --frozen installs only what it can verify — run `tack lock --platform linux-arm64` (on any machine) and commit tack.lock; nothing was installed\n", "\(arm.stderr)")
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
}
