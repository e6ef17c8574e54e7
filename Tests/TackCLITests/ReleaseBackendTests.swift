import Foundation
import TackCore
import Testing

/// `release: owner/repo` tools from a fake GitHub on loopback: its API (`TACK_GITHUB_API`)
/// lists the releases and their assets, its downloads (`TACK_GITHUB_DOWNLOADS`) serve them.
@Suite(.ownThreads) struct ReleaseBackendTests {
    /// This machine's asset name in the fake release, and the other platforms'.
    static let platforms = ["linux-x86_64": "linux_amd64", "linux-arm64": "linux_arm64", "darwin-arm64": "darwin_arm64"]
    static var here: String { platforms[Platform.current.description] ?? "linux_amd64" }

    struct Fake {
        var sandbox: Sandbox
        var server: FixtureServer
        var env: [String: String]
        /// SHA-256 of each asset by name.
        var sums: [String: String]
        func asset(_ platform: String, _ version: String = "1.2.0") -> String { "shellcheck_\(version)_\(ReleaseBackendTests.platforms[platform] ?? platform).tar.gz" }
        func downloads(_ name: String, tag: String = "v1.2.0") throws -> Int {
            try server.requests("static/gh/koalaman/shellcheck/releases/download/\(tag)/\(name)")
        }
    }

    /// Releases v1.1.0, v1.2.0 and the prerelease v1.3.0-rc1; v1.2.0 has a tar.gz per platform
    /// (each a different build), GitHub's digest only for linux-x86_64's, `checksums.txt` for
    /// the rest, and a source archive.
    func fake(digests: Bool = true, checksums: Bool = true, extraAssets: [String] = []) throws -> Fake {
        let s = try Sandbox()
        var sums: [String: String] = [:]
        var releases: [String] = []
        for (tag, pre) in [("v1.3.0-rc1", true), ("v1.2.0", false), ("v1.1.0", false)] {
            let version = String(tag.dropFirst())
            let dir = "www/gh/koalaman/shellcheck/releases/download/\(tag)"
            try s.mkdir(dir)
            var assets: [String] = []
            var listed: [String] = []
            for (platform, word) in Self.platforms.sorted(by: { $0.key < $1.key }) {
                let name = "shellcheck_\(version)_\(word).tar.gz"
                // Each platform's build prints its own version string, so their bytes differ.
                try FixtureServer.archive("tar.gz", s.root + "/\(dir)/\(name)", version: platform == Platform.current.description ? version : "\(version)+\(word)")
                let sum = try sha256(s.root + "/\(dir)/\(name)")
                sums[name] = sum
                let digest = digests && platform == "linux-x86_64" ? "\"sha256:\(sum)\"" : "null"
                assets.append(#"{"name": "\#(name)", "browser_download_url": "https://github.com/koalaman/shellcheck/releases/download/\#(tag)/\#(name)", "digest": \#(digest)}"#)
                if platform != "linux-x86_64" { listed.append("\(sum)  \(name)") }
            }
            if checksums { try s.write("\(dir)/checksums.txt", listed.joined(separator: "\n") + "\n") }
            for extra in (checksums ? ["checksums.txt"] : []) + ["shellcheck-\(version).tar.gz"] + extraAssets {
                assets.append(#"{"name": "\#(extra)", "browser_download_url": "https://github.com/koalaman/shellcheck/releases/download/\#(tag)/\#(extra)"}"#)
            }
            let json = #"{"tag_name": "\#(tag)", "prerelease": \#(pre), "draft": false, "published_at": "2026-01-01T00:00:00Z", "assets": [\#(assets.joined(separator: ","))]}"#
            try s.write("www/repos/koalaman/shellcheck/releases/tags/\(tag)", json)
            releases.append(json)
        }
        // The list, served for `releases?per_page=…` (the static server reads a directory's index.html).
        try s.write("www/repos/koalaman/shellcheck/releases/index.html", "[\(releases.joined(separator: ","))]")
        let server = try FixtureServer(serving: s.root + "/www")
        return Fake(sandbox: s, server: server, env: ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh")], sums: sums)
    }

    @Test func aReleaseToolIsLockedInstalledAndRunsAndFrozenInstallsTheSameBytes() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: \"~> 1.1\" }\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        // The newest release, not the prerelease.
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/1.2.0/bin/shellcheck") == "shellcheck 1.2.0\n")
        let lock = s.read("app/tack.lock") ?? ""
        let mine = f.asset(Platform.current.description)
        #expect(lock.contains("backend: \"release\"") && lock.contains("tag: \"v1.2.0\"") && lock.contains("\(Platform.current): \"\(mine)\""), "\(lock)")
        #expect(lock.contains("\(Platform.current): \"\(f.sums[mine] ?? "?")\""), "\(lock)")

        // A fresh TACK_HOME, --frozen: the same asset, checked against the lock.
        let r2 = try s.tack(["install", "--frozen"], in: "app", env: f.env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try runProgram(s.root + "/home2/installs/shellcheck/1.2.0/bin/shellcheck") == "shellcheck 1.2.0\n")
        #expect(try f.downloads(mine) == 2)
    }

    @Test func aLockForEveryPlatformDownloadsNoOtherPlatformsAsset() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0 }\nplatforms: [linux-x86_64, linux-arm64, darwin-arm64]\n")
        let r = try s.tack(["lock"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        let lock = s.read("app/tack.lock") ?? ""
        for platform in Self.platforms.keys {
            let name = f.asset(platform)
            #expect(lock.contains("\(platform): \"\(name)\"") && lock.contains("\(platform): \"\(f.sums[name] ?? "?")\""), "\(platform): \(lock)")
            // GitHub's digest (linux-x86_64) or checksums.txt (the others) gave each SHA-256.
            #expect(try f.downloads(name) == 0, "\(name) was downloaded")
        }
        #expect(try f.downloads("checksums.txt") >= 1)
    }

    /// `tack lock --verify` downloads each platform's asset again and names one that changed.
    @Test func verifyDownloadsEveryPlatformsAssetAgainAndNamesAReplacedOne() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0 }\nplatforms: [linux-x86_64, darwin-arm64]\n")
        #expect(try s.tack(["lock"], in: "app", env: f.env).status == 0)
        let verified = try s.tack(["lock", "--verify"], in: "app", env: f.env)
        #expect(verified.status == 0 && verified.stderr.contains("verified 2 downloads: each matches tack.lock"), "\(verified.stderr)")
        let mac = f.asset("darwin-arm64")
        try FixtureServer.archive("tar.gz", s.root + "/www/gh/koalaman/shellcheck/releases/download/v1.2.0/" + mac, version: "6.6.6")
        let replaced = try s.tack(["lock", "--verify"], in: "app", env: f.env)
        #expect(replaced.status == 1 && replaced.stderr.contains("shellcheck 1.2.0 (darwin-arm64): tack.lock says \(f.sums[mac] ?? "?"), but https://github.com/koalaman/shellcheck/releases/download/v1.2.0/\(mac) now serves"), "\(replaced.stderr)")
    }

    @Test func withNothingPublishedTheDownloadIsHashed() throws {
        let f = try fake(digests: false, checksums: false)
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0 }\nplatforms: [linux-x86_64, darwin-arm64]\n")
        let r = try s.tack(["lock"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        let name = f.asset("darwin-arm64")
        #expect((s.read("app/tack.lock") ?? "").contains("darwin-arm64: \"\(f.sums[name] ?? "?")\""))
        #expect(try f.downloads(name) == 1)
    }

    @Test func aLockCannotChooseAnotherAssetTagOrVersion() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0 }\n")
        #expect(try s.tack(["lock"], in: "app", env: f.env).status == 0)
        let good = s.read("app/tack.lock") ?? ""
        let mine = f.asset(Platform.current.description)
        let other = Platform.current.os == "linux" ? f.asset("darwin-arm64") : f.asset("linux-x86_64")
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: "\"\(mine)\"", with: "\"../../evil.tar.gz\""), "which is not a download of \(Platform.current)"),
            // Another platform's asset, with its own (right) checksum: still not this platform's.
            (good.replacingOccurrences(of: "\"\(mine)\"", with: "\"\(other)\"").replacingOccurrences(of: f.sums[mine] ?? "?", with: f.sums[other] ?? "?"),
             "which is not a download of \(Platform.current)"),
            (good.replacingOccurrences(of: "\"\(mine)\"", with: "\"shellcheck-1.2.0.tar.gz\""), "which is not a download of \(Platform.current)"),
            (good.replacingOccurrences(of: "tag: \"v1.2.0\"", with: "tag: \"v1.1.0\""), "does not name that version"),
            (good.replacingOccurrences(of: "tag: \"v1.2.0\"", with: "tag: \"../v1.2.0\""), "does not name that version"),
        ]
        for (lock, message) in cases {
            #expect(lock != good)
            try s.write("app/tack.lock", lock)
            let r = try s.tack(["install", "--frozen"], in: "app", env: f.env)
            #expect(r.status != 0 && r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/shellcheck/1.2.0"))
        }
    }

    @Test func differentProgramsInOneReleaseAreChosenWithAsset() throws {
        let f = try fake(extraAssets: ["shellcheck-lsp_1.2.0_\(Self.here).tar.gz"])
        let s = f.sandbox
        try FileManager.default.copyItem(atPath: s.root + "/www/gh/koalaman/shellcheck/releases/download/v1.2.0/\(f.asset(Platform.current.description))",
                                         toPath: s.root + "/www/gh/koalaman/shellcheck/releases/download/v1.2.0/shellcheck-lsp_1.2.0_\(Self.here).tar.gz")
        // The project's own program wins over another of the same release.
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0 }\n")
        #expect(try s.tack(["lock"], in: "app", env: f.env).status == 0)
        #expect((s.read("app/tack.lock") ?? "").contains("\"\(f.asset(Platform.current.description))\""))
        // `asset:` names the other; it is what the lock may hold.
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0, asset: \"shellcheck-lsp\" }\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect((s.read("app/tack.lock") ?? "").contains("\"shellcheck-lsp_1.2.0_\(Self.here).tar.gz\""), "\(s.read("app/tack.lock") ?? "")")
        // An `asset:` that no asset has says what the release has.
        try s.write("app/tack.yml", "tools:\n  shellcheck: { release: koalaman/shellcheck, version: 1.2.0, asset: \"nothing-like-it\" }\n")
        let r2 = try s.tack(["lock"], in: "app", env: f.env)
        #expect(r2.status != 0 && r2.stderr.contains("the koalaman/shellcheck v1.2.0 release has no asset named or containing \"nothing-like-it\""), "\(r2.stderr)")
    }

    @Test func tackUsePinsAReleaseTool() throws {
        let f = try fake()
        let s = f.sandbox
        try s.mkdir("app")
        let r = try s.tack(["use", "shellcheck@1.1", "--release", "koalaman/shellcheck"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.yml")?.contains("shellcheck: { release: \"koalaman/shellcheck\", version: \"1.1\" }") == true, "\(s.read("app/tack.yml") ?? "")")
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/1.1.0/bin/shellcheck") == "shellcheck 1.1.0\n")
        let bad = try s.tack(["use", "other@1.0", "--release", "not a repo"], in: "app", env: f.env)
        #expect(bad.status != 0 && bad.stderr.contains("`release` is a GitHub repository written `owner/repo`"), "\(bad.stderr)")
    }

    /// A release whose download is one compressed program (`tool-linux-amd64.gz`).
    @Test func aCompressedProgramRelease() throws {
        let s = try Sandbox()
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let dir = "www/gh/acme/packed/releases/download/v1.0.0"
        try s.mkdir(dir)
        let name = "packed-\(Platform.current.os)-\(goarch).gz"
        try FixturePython.check(["-c", "import gzip,sys; open(sys.argv[1],'wb').write(gzip.compress(sys.argv[2].encode()))", s.root + "/\(dir)/\(name)", "#!/bin/sh\necho packed 1.0.0\n"])
        let release = #"{"tag_name": "v1.0.0", "assets": [{"name": "\#(name)", "browser_download_url": "https://github.com/acme/packed/releases/download/v1.0.0/\#(name)"}]}"#
        try s.write("www/repos/acme/packed/releases/tags/v1.0.0", release)
        try s.write("www/repos/acme/packed/releases/index.html", "[\(release)]")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  packed: { release: acme/packed, version: 1.0.0 }\n")
        let r = try s.tack(["install"], in: "app", env: ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/packed/1.0.0/bin/packed") == "packed 1.0.0\n")
    }

    @Test func theManifestKeyIsChecked() throws {
        let s = try Sandbox()
        for (value, message) in [("koalaman", "`release` is a GitHub repository written `owner/repo`"), ("a/b/c", "`release` is a GitHub repository"),
                                 ("../x", "`release` is a GitHub repository")] {
            try s.write("app/tack.yml", "tools:\n  t: { release: \"\(value)\", version: 1.0.0 }\n")
            let r = try s.tack(["lock"], in: "app")
            #expect(r.status != 0 && r.stderr.contains(message), "\(value): \(r.stderr)")
        }
        try s.write("app/tack.yml", "tools:\n  t: { release: a/b, version: 1.0.0, asset: \"x/y\" }\n")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status != 0 && r.stderr.contains("`asset` is an asset's file name (or part of one), without `/`"), "\(r.stderr)")
    }
}
