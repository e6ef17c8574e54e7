import Foundation
import TackCore
import Testing

/// `min_release_age` (issue 35, item 3): a release index served on loopback, in GitHub's
/// releases format, with one release published a day ago and one a month ago.
@Suite(.ownThreads) struct ReleaseAgeTests {
    /// The min_release_age refusal a command said: the version, whether the pin named it, how
    /// old it is, and the minimum in force with where it was set.
    static func tooYoung(_ r: Sandbox.Result) -> (tool: String, version: String, exact: Bool, setBy: String, age: String, minimum: ReleaseAge)? {
        for f in r.failures {
            if case .resolution(.tooYoung(let tool, let version, let requirement, let setBy, let age, let minimum)) = f.cause {
                return (tool, version, requirement == nil, setBy, age, minimum)
            }
        }
        return nil
    }

    static let regex = #"'"tag_name":\s*"v([0-9][^"]*)"(?:[^{}]*?"published_at":\s*"(?<published>[^"]+)")?'"#

    static func iso(daysAgo days: Double) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date(timeIntervalSinceNow: -days * 86400))
    }

    func setUp() throws -> (Sandbox, FixtureServer) {
        let s = try Sandbox()
        try s.mkdir("www")
        for v in ["1.0.0", "1.1.0"] { try FixtureServer.archive("binary", s.root + "/www/hello-\(v)", version: v) }
        // As GitHub's API lists them: newest first, the author (an object) before tag_name.
        try s.write("www/releases.json", """
            [{"id": 2, "author": {"login": "me"}, "tag_name": "v1.1.0", "draft": false, "prerelease": false, "created_at": "\(Self.iso(daysAgo: 1))", "published_at": "\(Self.iso(daysAgo: 1))", "assets": []},
             {"id": 1, "author": {"login": "me"}, "tag_name": "v1.0.0", "draft": false, "prerelease": false, "created_at": "\(Self.iso(daysAgo: 30))", "published_at": "\(Self.iso(daysAgo: 30))", "assets": []}]

            """)
        return (s, try FixtureServer(serving: s.root + "/www"))
    }

    func manifest(_ s: Sandbox, _ server: FixtureServer, version: String, age: String? = "3d") throws {
        try s.write("app/tack.yml", (age.map { "min_release_age: \($0)\n" } ?? "") + """
            tools:
              hello:
                url: "\(server.url("files/hello-{version}"))"
                version: "\(version)"
                bin: hello
                versions: { url: "\(server.url("files/releases.json"))", regex: \(Self.regex) }

            """)
    }

    func locked(_ s: Sandbox) -> String? {
        s.read("app/tack.lock")?.split(separator: "\n").first { $0.contains("version: \"1.") }.map { String($0.split(separator: "\"")[1]) }
    }

    @Test func aReleaseYoungerThanTheAgeIsHeldBackAndShownSo() throws {
        let (s, server) = try setUp()
        try manifest(s, server, version: "~> 1.0")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(locked(s) == "1.0.0")
        let outdated = try s.tack(["outdated"], in: "app")
        #expect(outdated.stdout.contains("1.1.0 (held back: younger than 3d)"), "\(outdated.stdout)\(outdated.stderr)")
        let json = try s.tack(["outdated", "--json"], in: "app")
        #expect(json.stdout.contains("\"wanted\":\"1.0.0\"") && json.stdout.contains("\"held_back\":[\"1.1.0\"]"), "\(json.stdout)")
        // Without the age, the same requirement moves to 1.1.0.
        let update = try s.tack(["update", "hello"], in: "app", env: ["TACK_MIN_RELEASE_AGE": "0"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(locked(s) == "1.1.0")
        withExtendedLifetime(server) {}
    }

    @Test func anExactPinYoungerThanTheAgeIsAnErrorThatSaysHowToAllowIt() throws {
        let (s, server) = try setUp()
        try manifest(s, server, version: "1.1.0")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status != 0)
        let refusal = try #require(Self.tooYoung(r), "\(r.stderr)")
        #expect(refusal.tool == "hello" && refusal.version == "1.1.0" && refusal.exact && refusal.age == "1 day", "\(r.stderr)")
        #expect(refusal.setBy.hasPrefix(s.root + "/app/tack.yml:"), "\(r.stderr)")
        #expect(refusal.minimum == ReleaseAge(seconds: 3 * 86400, text: "3d", origin: s.root + "/app/tack.yml:1"))
        #expect(s.read("app/tack.lock") == nil)
        let allowed = try s.tack(["install"], in: "app", env: ["TACK_MIN_RELEASE_AGE": "0"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(locked(s) == "1.1.0")
        // Older than the age: fine.
        try manifest(s, server, version: "1.0.0")
        #expect(try s.tack(["install"], in: "app").status == 0)
        withExtendedLifetime(server) {}
    }

    /// PyPI's JSON API beside its simple index says when each version was uploaded.
    @Test func aPackageIndexsUploadTimesHoldBackAFreshRelease() throws {
        let s = try Sandbox()
        let dists = s.root + "/dists"
        try s.mkdir("dists")
        for v in ["1.0.0", "1.1.0"] {
            let p = try FixturePython.run([FixtureServer.script, "wheel", "greet", v, dists])
            #expect(p.status == 0, "\(p.stderr)")
        }
        #expect(try FixturePython.run([FixtureServer.script, "simple", dists]).status == 0)
        try s.write("dists/pypi/greet/json", #"{"info": {"name": "greet"}, "releases": {"1.0.0": [{"upload_time_iso_8601": ""# + Self.iso(daysAgo: 40)
            + #""}], "1.1.0": [{"upload_time_iso_8601": ""# + Self.iso(daysAgo: 0.5) + #""}]}}"#)
        let server = try FixtureServer(serving: dists)
        s.environment["PATH"] = "/usr/bin:/bin"
        let index = server.url("static/simple")
        try s.write("app/tack.yml", "min_release_age: 1d\ntools:\n  greet: { pip: greet, version: \"~> 1.0\", index_url: \"\(index)\" }\n")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.lock")?.contains("version: \"1.0.0\"") == true, "\(s.read("app/tack.lock") ?? "")")
        try s.write("app/tack.yml", "min_release_age: 1d\ntools:\n  greet: { pip: greet, version: 1.1.0, index_url: \"\(index)\" }\n")
        let exact = try s.tack(["lock"], in: "app")
        #expect(exact.status != 0, "\(exact.stderr)")
        let refusal = try #require(Self.tooYoung(exact), "\(exact.stderr)")
        #expect(refusal.tool == "greet" && refusal.version == "1.1.0" && refusal.exact && refusal.age == "12 hours" && refusal.minimum.text == "1d", "\(exact.stderr)")
        withExtendedLifetime(server) {}
    }

    /// A gem server's JSON API (rubygems.org's `/api/v1/versions/<gem>.json`) dates each version.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gem")))
    func aGemServersPublicationTimesHoldBackAFreshRelease() throws {
        let s = try Sandbox()
        s.environment["PATH"] = "/usr/bin:/bin"
        try GemBackendTests.buildGem(s, "greet", "1.0.0")
        try GemBackendTests.buildGem(s, "greet", "1.1.0")
        try GemBackendTests.index(s)
        try s.write("repo/api/v1/versions/greet.json", #"[{"number": "1.1.0", "platform": "ruby", "created_at": ""# + Self.iso(daysAgo: 2)
            + #""}, {"number": "1.0.0", "platform": "ruby", "created_at": ""# + Self.iso(daysAgo: 90) + #""}]"#)
        let server = try FixtureServer(serving: s.root + "/repo")
        try s.write("app/tack.yml", "min_release_age: 1w\ntools:\n  greet: { gem: greet, version: \"~> 1.0\", source: \"\(server.url("static/"))\" }\n")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.lock")?.contains("version: \"1.0.0\"") == true, "\(s.read("app/tack.lock") ?? "")")
        let outdated = try s.tack(["outdated"], in: "app")
        #expect(outdated.stdout.contains("1.1.0 (held back: younger than 1w)"), "\(outdated.stdout)\(outdated.stderr)")
        withExtendedLifetime(server) {}
    }

    @Test func theGlobalManifestAndTheEnvironmentSetItToo() throws {
        let (s, server) = try setUp()
        try manifest(s, server, version: "1.1.0", age: nil)
        try s.write("home/.config/tack/tack.yml", "min_release_age: 2w\n")
        let global = try s.tack(["install"], in: "app")
        #expect(Self.tooYoung(global)?.minimum == ReleaseAge(seconds: 14 * 86400, text: "2w", origin: "~/.config/tack/tack.yml:1"), "\(global.stderr)")
        try FileManager.default.removeItem(atPath: s.root + "/home/.config/tack/tack.yml")
        let env = try s.tack(["install"], in: "app", env: ["TACK_MIN_RELEASE_AGE": "36h"])
        #expect(Self.tooYoung(env)?.minimum == ReleaseAge(seconds: 36 * 3600, text: "36h", origin: "TACK_MIN_RELEASE_AGE"), "\(env.stderr)")
        let bad = try s.tack(["install"], in: "app", env: ["TACK_MIN_RELEASE_AGE": "soon"])
        #expect(bad.status != 0 && bad.stderr.contains("TACK_MIN_RELEASE_AGE is \"soon\"; write an age like 3d"), "\(bad.stderr)")
        withExtendedLifetime(server) {}
    }
}
