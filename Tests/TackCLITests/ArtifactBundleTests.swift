import Foundation
import Testing
@testable import Backends
import BackendKinds
import TackCore

/// Swift artifact bundles (SE-0305), made in the test (Fixtures/fixtures.py `archive
/// artifactbundle`) and served on loopback: `info.json` with variants for Linux x86_64 and
/// aarch64 and macOS arm64, each a script that says which triple it was built for.
@Suite(.ownThreads) struct ArtifactBundleTests {
    /// The triple this machine's variant in the fixture says.
    static var thisTriple: String { Platform.current.arch == "arm64" ? "aarch64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu" }

    func setUp(_ variant: String? = nil) throws -> (Sandbox, FixtureServer) {
        let s = try Sandbox()
        try s.mkdir("www/0.10.0")
        try FixtureServer.archive("artifactbundle", s.root + "/www/0.10.0/shellcheck.artifactbundle.zip", version: "0.10.0", hostile: variant)
        return (s, try FixtureServer(serving: s.root + "/www"))
    }

    func manifest(_ s: Sandbox, _ server: FixtureServer, extra: String = "") throws {
        try s.write("app/tack.yml", """
            tools:
              shellcheck: { artifactbundle: "\(server.url("static/{version}/shellcheck.artifactbundle.zip"))", version: 0.10.0\(extra) }

            """)
    }

    @Test func installsTheVariantForThisMachineAndLocksItsChecksum() throws {
        let (s, server) = try setUp()
        try manifest(s, server)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/0.10.0/bin/shellcheck") == "shellcheck 0.10.0 (\(Self.thisTriple))\n")
        let sum = try sha256(s.root + "/www/0.10.0/shellcheck.artifactbundle.zip")
        #expect(s.read("app/tack.lock")?.contains("\(Platform.current): \"\(sum)\"") == true, "\(s.read("app/tack.lock") ?? "")")
        // One bundle serves every platform: locking for another records the same checksum.
        try s.write("app/tack.yml", (s.read("app/tack.yml") ?? "") + "platforms: [linux-x86_64, linux-arm64, darwin-arm64]\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = s.read("app/tack.lock") ?? ""
        #expect(["linux-x86_64", "linux-arm64", "darwin-arm64"].allSatisfy { lock.contains("\($0): \"\(sum)\"") }, "\(lock)")
        let verify = try s.tack(["lock", "--verify"], in: "app")
        #expect(verify.status == 0, "\(verify.stderr)")
        // --frozen reinstalls from the lock.
        #expect(try s.tack(["uninstall", "shellcheck@0.10.0"], in: "app").status == 0)
        let frozen = try s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status == 0, "\(frozen.stderr)")
    }

    @Test func aBundleWithoutThisPlatformNamesTheTriplesItHas() throws {
        let (s, server) = try setUp("macos-only")
        try manifest(s, server)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("the artifact bundle of shellcheck 0.10.0 has no shellcheck for \(Platform.current) (\(ArtifactBundle.triple(of: .current))); it has arm64-apple-macosx, x86_64-apple-macosx — nothing was installed"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck/0.10.0"))
    }

    @Test(arguments: [
        ("escape", "a path outside the bundle — nothing was installed"),
        ("newer", "is schemaVersion 2.0; tack reads 1.x — nothing was installed"),
    ])
    func aHostileOrNewerBundleInstallsNothing(_ variant: String, _ message: String) throws {
        let (s, server) = try setUp(variant)
        try manifest(s, server)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1 && r.stderr.contains(message), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck/0.10.0"))
    }

    /// A variant without `supportedTriples` runs anywhere; `bin:` picks and renames artifacts.
    @Test func aUniversalVariantAndARenamedCommand() throws {
        let (s, server) = try setUp("universal")
        try manifest(s, server, extra: ", bin: shellcheck=sc")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/shellcheck/0.10.0/bin/sc").hasPrefix("shellcheck 0.10.0"))
        try manifest(s, server, extra: ", bin: docs")
        #expect(try s.tack(["uninstall", "shellcheck@0.10.0"], in: "app").status == 0)
        let docs = try s.tack(["install"], in: "app")
        #expect(docs.status == 1 && docs.stderr.contains("has no executable docs (named by `bin:`); it has shellcheck"), "\(docs.stderr)")
    }

    @Test func theSourceKeyTakesOnlyABundle() throws {
        let yaml = Array("tools:\n  x: { artifactbundle: \"https://example.org/x.zip\", version: 1.0.0 }\n".utf8)
        do {
            _ = try Manifest.decode(yaml, path: "tack.yml", kind: .manifest, backends: .standard)
            Issue.record("a zip that is not a bundle was taken as `artifactbundle:`")
        } catch {
            #expect(error.message.contains("tack.yml:2:") && error.message.contains("the URL of a `*.artifactbundle.zip`"), "\(error.message)")
        }
        let good = Array("tools:\n  x: { artifactbundle: \"https://example.org/{version}/x.artifactbundle.zip\", version: 1.0.0 }\n".utf8)
        #expect(try Manifest.decode(good, path: "tack.yml", kind: .manifest, backends: .standard).tools.first?.source == .url("https://example.org/{version}/x.artifactbundle.zip"))
    }

    /// What a lock may name as a `github:` package's release bundle: one release's asset, and
    /// nothing that climbs out of the repository's downloads.
    @Test func aReleaseBundleStaysInItsRepositorysDownloads() {
        let prefix = "https://github.com/acme/hello/releases/download/"
        #expect(PrebuiltBundle.isReleaseBundle(prefix + "v1.0.0/hello.artifactbundle.zip", prefix: prefix))
        for hostile in ["../../evil/x/releases/download/1/e.artifactbundle.zip", "1.0.0/../../e.artifactbundle.zip", "%2e%2e/e.artifactbundle.zip",
                        "./1.0.0/e.artifactbundle.zip", "1.0.0//e.artifactbundle.zip", "1.0.0/e.artifactbundle.zip?x=.artifactbundle.zip",
                        "1.0.0/e.zip", "1.0.0/sub/e.artifactbundle.zip"] {
            #expect(!PrebuiltBundle.isReleaseBundle(prefix + hostile, prefix: prefix), "\(hostile)")
        }
        #expect(!PrebuiltBundle.isReleaseBundle("https://github.com/other/repo/releases/download/1/e.artifactbundle.zip", prefix: prefix))
    }

    /// Triples as publishers write them, matched to tack's platforms.
    @Test func triplesMatchTheirPlatform() {
        let linuxX86 = Platform(os: "linux", arch: "x86_64"), linuxArm = Platform(os: "linux", arch: "arm64")
        let macArm = Platform(os: "darwin", arch: "arm64"), macX86 = Platform(os: "darwin", arch: "x86_64")
        #expect(ArtifactBundle.runs("x86_64-unknown-linux-gnu", on: linuxX86))
        #expect(ArtifactBundle.runs("x86_64-unknown-linux-musl", on: linuxX86))
        #expect(ArtifactBundle.runs("aarch64-unknown-linux-gnu", on: linuxArm))
        #expect(ArtifactBundle.runs("arm64-apple-macosx", on: macArm))
        #expect(ArtifactBundle.runs("arm64-apple-macosx13.0", on: macArm))
        #expect(ArtifactBundle.runs("x86_64-apple-macosx10.15", on: macX86))
        #expect(!ArtifactBundle.runs("x86_64-apple-macosx", on: macArm))
        #expect(!ArtifactBundle.runs("arm64e-apple-macosx", on: macArm))
        #expect(!ArtifactBundle.runs("x86_64-unknown-windows-msvc", on: linuxX86))
        #expect(!ArtifactBundle.runs("garbage", on: linuxX86))
    }
}

/// A git tool whose releases publish an artifact bundle (`artifactbundle:` beside `git:`): the
/// lock chooses the bundle, installs download it instead of building, and `--build` or
/// `prebuilt: false` build (issue 33 item 2).
@Suite(.ownThreads) struct PrebuiltGitToolTests {
    func setUp(_ variant: String = "hello") throws -> (Sandbox, FixtureServer, GitFixture, String) {
        let s = try Sandbox()
        try s.mkdir("www/1.0.0")
        try FixtureServer.archive("artifactbundle", s.root + "/www/1.0.0/hello.artifactbundle.zip", version: "1.0.0", hostile: variant)
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        return (s, try FixtureServer(serving: s.root + "/www"), repo, log)
    }

    func pin(_ s: Sandbox, _ server: FixtureServer, _ repo: GitFixture, extra: String = "") throws {
        let bundle = server.url("static/{version}/hello.artifactbundle.zip")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { git: \"\(repo.path)\", version: \"1.0.0\", build: sh build.sh, bin: [out/hello], artifactbundle: \"\(bundle)\"\(extra) }\n")
    }

    @Test func theLockChoosesTheBundleAndInstallsDoNotBuild() throws {
        let (s, server, repo, log) = try setUp()
        try pin(s, server, repo)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 installed (1 prebuilt)"), "\(r.stderr)")
        #expect(s.read("builds.log") == nil, "nothing was built")
        #expect(try runProgram(s.root + "/tack-home/installs/hello/1.0.0/bin/hello") == "hello 1.0.0 (\(ArtifactBundleTests.thisTriple))\n")
        let lock = s.read("app/tack.lock") ?? ""
        let sum = try sha256(s.root + "/www/1.0.0/hello.artifactbundle.zip")
        #expect(lock.contains("prebuilt:") && lock.contains("sha256: \"\(sum)\""), "\(lock)")
        #expect(try s.tack(["ls", "--json"], in: "app").stdout.contains(#""from":"prebuilt"}"#))
        // --build builds it from source anyway; the lock keeps its choice.
        #expect(try s.tack(["uninstall", "hello@1.0.0"], in: "app").status == 0)
        let built = try s.tack(["install", "--build"], in: "app")
        #expect(built.status == 0 && built.stderr.contains("1 built here in"), "\(built.stderr)")
        #expect(s.read("builds.log") == "built\n")
        #expect(try runProgram(s.root + "/tack-home/installs/hello/1.0.0/bin/hello") == "hello 1.0.0\n")
        #expect(s.read("app/tack.lock") == lock)
        _ = log
    }

    /// A setuid bit in a prebuilt bundle is removed and said, as for any url archive.
    @Test func aSetuidBitInAPrebuiltBundleIsRemovedAndSaid() throws {
        let (s, server, repo, _) = try setUp("hello-setuid")
        try pin(s, server, repo)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("hello 1.0.0: removed the setuid/setgid bit from hello.artifactbundle/"), "\(r.stderr)")
        let binary = s.root + "/tack-home/installs/hello/1.0.0/bin/hello"
        let attrs = try FileManager.default.attributesOfItem(atPath: (binary as NSString).resolvingSymlinksInPath)
        #expect((attrs[.posixPermissions] as? Int).map { $0 & 0o6000 } == 0)
        withExtendedLifetime(server) {}
    }

    @Test func prebuiltFalseBuildsAndLocksNoBundle() throws {
        let (s, server, repo, _) = try setUp()
        try pin(s, server, repo, extra: ", prebuilt: false")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("builds.log") == "built\n")
        #expect(!(s.read("app/tack.lock") ?? "").contains("prebuilt: {") && !(s.read("app/tack.lock") ?? "").contains("    prebuilt:\n"))
    }

    /// A bundle with no variant for this machine: the tool is built from its source.
    @Test func noVariantForThisMachineBuildsInstead() throws {
        let (s, server, repo, _) = try setUp("hello-macos-only")
        try pin(s, server, repo)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("builds.log") == "built\n")
        #expect(try runProgram(s.root + "/tack-home/installs/hello/1.0.0/bin/hello") == "hello 1.0.0\n")
    }

    /// A `github:` Swift package with no `artifactbundle:`: the release for the locked tag is
    /// asked for its `*.artifactbundle.zip` asset (a GitHub-shaped API and download host on
    /// loopback; git's `insteadOf` sends the clone to the fixture repository), and a release
    /// without one is recorded as built.
    @Test func aGitHubReleasesBundleIsFoundAndTheLockSaysWhichWasChosen() throws {
        let (s, server, repo, _) = try setUp()
        try s.write("home/.gitconfig", "[url \"\(repo.path)\"]\n\tinsteadOf = https://github.com/acme/hello.git\n")
        let download = "https://github.com/acme/hello/releases/download/1.0.0/hello.artifactbundle.zip"
        try s.write("www/repos/acme/hello/releases/tags/1.0.0", #"{"tag_name":"1.0.0","assets":[{"name":"hello.artifactbundle.zip","browser_download_url":"\#(download)"},{"name":"notes.txt","browser_download_url":"https://github.com/acme/hello/releases/download/1.0.0/notes.txt"}]}"#)
        try s.mkdir("www/gh/acme/hello/releases/download/1.0.0")
        try FileManager.default.copyItem(atPath: s.root + "/www/1.0.0/hello.artifactbundle.zip", toPath: s.root + "/www/gh/acme/hello/releases/download/1.0.0/hello.artifactbundle.zip")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh")]
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { github: acme/hello, version: 1.0.0 }\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("builds.log") == nil, "nothing was built")
        #expect(try runProgram(s.root + "/tack-home/installs/hello/1.0.0/bin/hello") == "hello 1.0.0 (\(ArtifactBundleTests.thisTriple))\n")
        #expect((s.read("app/tack.lock") ?? "").contains("url: \"\(download)\""), "\(s.read("app/tack.lock") ?? "")")
        // A release without a bundle: the lock records that it is built, and it is.
        try FileManager.default.removeItem(atPath: s.root + "/www/repos/acme/hello/releases/tags/1.0.0")
        try repo.commitAndTag("1.1.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { github: acme/hello, version: 1.1.0, build: sh build.sh, bin: [out/hello] }\n")
        #expect(try s.tack(["lock"], in: "app", env: env).status == 0)
        #expect(!(s.read("app/tack.lock") ?? "").contains("prebuilt"), "a tool with its own build command is not looked up")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { github: acme/hello, version: 1.1.0 }\n")
        #expect(try s.tack(["lock"], in: "app", env: env).status == 0)
        #expect((s.read("app/tack.lock") ?? "").contains("none: \"acme/hello has no release for 1.1.0\""), "\(s.read("app/tack.lock") ?? "")")
    }

    /// The lock may choose only the bundle the manifest names: another URL is refused.
    @Test func aLockNamingAnotherBundleIsRefused() throws {
        let (s, server, repo, _) = try setUp()
        try pin(s, server, repo)
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "/static/1.0.0/hello.artifactbundle.zip", with: "/static/evil/hello.artifactbundle.zip"))
        let r = try s.tack(["install", "--frozen"], in: "app")
        #expect(r.status == 1 && r.stderr.contains("tack.lock's prebuilt bundle of hello 1.0.0 is not the manifest's `artifactbundle:`"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/hello/1.0.0"))
    }

    /// The lock's tag fills `{tag}`, so the tag is checked against the repository first, as a
    /// build checks it: a lock that renames the tag (and the bundle URL and checksum with it)
    /// to reach another bundle is refused.
    @Test func aLockWhoseTagIsNotTheRepositorysIsRefused() throws {
        let (s, server, repo, _) = try setUp()
        try s.mkdir("www/evil")
        try FixtureServer.archive("artifactbundle", s.root + "/www/evil/hello.artifactbundle.zip", version: "6.6.6", hostile: "hello")
        let bundle = server.url("static/{tag}/hello.artifactbundle.zip")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { git: \"\(repo.path)\", version: \"1.0.0\", build: sh build.sh, bin: [out/hello], artifactbundle: \"\(bundle)\" }\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        let good = try sha256(s.root + "/www/1.0.0/hello.artifactbundle.zip"), evil = try sha256(s.root + "/www/evil/hello.artifactbundle.zip")
        #expect(lock.contains(good), "\(lock)")
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "tag: \"1.0.0\"", with: "tag: \"evil\"")
            .replacingOccurrences(of: "/static/1.0.0/hello", with: "/static/evil/hello").replacingOccurrences(of: good, with: evil))
        let r = try s.tack(["install", "--frozen"], in: "app")
        #expect(r.status == 1 && r.stderr.contains("tack.lock's tag \"evil\" for hello 1.0.0 does not name version 1.0.0 — nothing was installed"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/hello/1.0.0"))
    }
}
