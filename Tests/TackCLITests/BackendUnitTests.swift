import Foundation
import Testing
@testable import Backends
import BackendKinds
import TackCore

/// Backends against fakes of the outside world: no server, no subprocess.
@Suite(.ownThreads) struct BackendUnitTests {
    static let origin = Origin(kind: .manifest, file: "/p/tack.yml", line: 2, column: 3)
    static let index = "https://example.org/releases"
    static let template = "https://example.org/sc-{version}.tar.gz"

    func request(_ requirement: Requirement, index: Bool = true) -> ToolRequest {
        var options = ToolOptions()
        if index { options.url.versionIndex = ["url": Self.index, "regex": "sc-([0-9.]+)[.]tar"] }
        return ToolRequest(name: "sc", requirement: requirement, source: .url(Self.template), options: options, origin: Self.origin)
    }

    @Test func anExactUrlPinResolvesWithoutTheIndexButListsAll() async throws {
        let http = FakeHTTPClient([Self.index: "sc-1.0.0.tar sc-1.1.0.tar sc-2.0.0.tar"])
        let backend = URLBackend(http: http, retryDelays: [])
        let exact = request(.prefix(try #require(Version("1.0.0"))))
        #expect(try await backend.versions(of: exact).map(\.version.text) == ["1.0.0"])
        #expect(http.requests.isEmpty, "resolution needs no index for an exact pin")
        #expect(try await backend.available(of: exact).map(\.version.text) == ["1.0.0", "1.1.0", "2.0.0"])
        #expect(http.requests == [Self.index])
        #expect(try await backend.versions(of: request(.latest)).map(\.version.text) == ["1.0.0", "1.1.0", "2.0.0"])
    }

    @Test func anIndexThatFailsIsNamedOnce() async throws {
        let backend = URLBackend(http: FakeHTTPClient([:]), retryDelays: [])
        do {
            _ = try await backend.available(of: request(.latest))
            Issue.record("expected a failure")
        } catch {
            #expect(error.message == "cannot list the versions of sc from \(Self.index): the server answered 404 Not Found")
        }
        // No index: only an exact pin is known.
        let bare = request(.prefix(try #require(Version("1.2.0"))), index: false)
        #expect(try await URLBackend(http: FakeHTTPClient([:])).available(of: bare).map(\.version.text) == ["1.2.0"])
        await #expect(throws: TackError.self) { try await URLBackend(http: FakeHTTPClient([:])).available(of: request(.latest, index: false)) }
    }

    /// Where tack takes a gem file from itself, and where it leaves it to `gem fetch`; which
    /// names from tack.lock can be a gem file's (and so a path component).
    @Test func gemFilesAndTheirNames() {
        #expect(GemBackend.fileURL("a-1.0.gem", source: "https://gems.example/") == "https://gems.example/gems/a-1.0.gem")
        #expect(GemBackend.fileURL("a-1.0.gem", source: "HTTP://gems.example/private") == "HTTP://gems.example/private/gems/a-1.0.gem")
        #expect(GemBackend.fileURL("a-1.0.gem", source: "file:///srv/gems") == "file:///srv/gems/gems/a-1.0.gem")
        #expect(GemBackend.fileURL("a-1.0.gem", source: "/srv/my gems#1") == "file:///srv/my%20gems%231/gems/a-1.0.gem")
        #expect(GemBackend.fileURL("a-1.0.gem", source: "s3://bucket/gems") == nil)
        #expect(GemBackend.fileURL("a-1.0.gem", source: "relative/dir") == nil)
        for good in ["nokogiri-1.16.0-x86_64-linux", "rails-8.0.0.beta1", "ffi-1.17.0-arm64-darwin", "c++-1.0"] { #expect(GemPin.isFileStem(good), "\(good)") }
        for bad in ["../x-1.0", "a/b-1.0", ".hidden-1.0", "", "-1.0", "a-1.0\n", "ä-1.0", "a b-1.0"] { #expect(!GemPin.isFileStem(bad), "\(bad)") }
    }

    @Test func gemVersionsComeFromGemSearch() async throws {
        let dir = FileManager.default.temporaryDirectory.path + "/tack-fake-ruby-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for tool in ["ruby", "gem"] {
            FileManager.default.createFile(atPath: dir + "/" + tool, contents: Data("#!/bin/sh\nexit 99\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        let runner = FakeProcessRunner { _, args in
            args.first == "search" ? ProcessOutput(status: 0, output: "*** REMOTE GEMS ***\n\nfastlane (2.220.0, 2.219.0 x86_64-linux, 2.9.0)\nfastlane-plugin (1.0.0)\n") : ProcessOutput(status: 1, output: "")
        }
        let backend = GemBackend(runner: runner, environment: ["PATH": dir], shims: nil)
        let r = ToolRequest(name: "fastlane", requirement: .latest, source: .gem("fastlane"), origin: Self.origin)
        #expect(try await backend.versions(of: r).map(\.version.text) == ["2.9.0", "2.219.0", "2.220.0"])
        let call = try #require(runner.calls.first)
        #expect(call.first == dir + "/gem")
        #expect(Array(call.dropFirst().prefix(5)) == ["search", "--remote", "--exact", "--all", "fastlane"])
        #expect(call.contains("--clear-sources"), "only the gem source asked for")
    }
}

/// The keys tack ships are swift.org's, by the fingerprints swift.org publishes.
@Suite(.ownThreads) struct SwiftKeysTests {
    @Test func theShippedKeyringHoldsSwiftOrgsKeys() throws {
        let keys = try OpenPGP.keys(SwiftKeys.builtIn)
        #expect(Set(keys.map(\.fingerprint)) == Set(SwiftKeys.fingerprints.keys))
        for key in keys {
            #expect(key.userID.hasPrefix(SwiftKeys.fingerprints[key.fingerprint] ?? "?"), "\(key.userID)")
        }
        // The 6.x key's self-signature gives it two years (2024-09-16 to 2026-09-16).
        let six = try #require(keys.first { $0.fingerprint.hasPrefix("52BB") })
        #expect(OpenPGP.date(six.created) == "2024-09-16" && six.expires.map(OpenPGP.date) == "2026-09-16")
    }

    @Test func damagedArmourIsRefused() throws {
        var text = String(decoding: SwiftKeys.builtIn, as: UTF8.self)
        text = text.replacingOccurrences(of: "mQINBGbolYEBEADEvoij", with: "mQINBGbolYEBEADEvoik")
        #expect(throws: OpenPGP.Failure.self) { try OpenPGP.keys(Array(text.utf8)) }
        #expect(throws: OpenPGP.Failure.self) { try OpenPGP.verify(signature: Array("not a signature".utf8), keys: [], data: { _ in }) }
    }
}

/// The registry client's parsing, without a registry.
@Suite(.ownThreads) struct RegistryAuthTests {
    @Test func challengesAsRegistriesSendThem() {
        let ghcr = AuthChallenge.parse(#"Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:acme/x:pull""#)
        #expect(ghcr == [AuthChallenge(scheme: "bearer", parameters: ["realm": "https://ghcr.io/token", "service": "ghcr.io", "scope": "repository:acme/x:pull"])])
        let basic = AuthChallenge.parse(#"Basic realm="Registry Realm""#)
        #expect(basic == [AuthChallenge(scheme: "basic", parameters: ["realm": "Registry Realm"])])
        let two = AuthChallenge.parse(#"Basic realm="a", Bearer realm="https://t/token", service=reg"#)
        #expect(two.map(\.scheme) == ["basic", "bearer"] && two.last?.parameters["service"] == "reg")
        #expect(AuthChallenge.parse(#"Bearer realm="quo\"te""#).first?.parameters["realm"] == "quo\"te")
        #expect(AuthChallenge.parse("").isEmpty)
    }

    @Test func credentialsFromDockerConfigAndTheEnvironment() async throws {
        let dir = FileManager.default.temporaryDirectory.path + "/tack-docker-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let auth = Data("me:pw".utf8).base64EncodedString()
        try #"{"auths": {"https://index.docker.io/v1/": {"auth": "\#(auth)"}, "ghcr.io": {"username": "u", "password": "p"}}, "credHelpers": {"ecr.example": "ecr-login"}, "credsStore": "desktop"}"#
            .write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        let asked = LockedList()
        let creds = RegistryCredentials(environment: ["DOCKER_CONFIG": dir]) { name, server in
            asked.append("\(name) \(server)")
            return name == "ecr-login" ? #"{"Username":"AWS","Secret":"tok"}"# : nil
        }
        #expect(await creds.credential(for: "docker.io") == RegistryCredential(username: "me", password: "pw"))
        #expect(await creds.credential(for: "ghcr.io") == RegistryCredential(username: "u", password: "p"))
        #expect(await creds.credential(for: "ecr.example") == RegistryCredential(username: "AWS", password: "tok"))
        #expect(await creds.credential(for: "other.example") == nil, "the desktop store has nothing")
        #expect(asked.items == ["ecr-login ecr.example", "desktop other.example"])
        let ci = RegistryCredentials(environment: ["DOCKER_CONFIG": dir, "TACK_CACHE_USERNAME": "bot", "TACK_CACHE_PASSWORD": "x"]) { _, _ in nil }
        #expect(await ci.credential(for: "ghcr.io") == RegistryCredential(username: "bot", password: "x"))
        #expect("\(RegistryCredential(username: "bot", password: "hunter2"))" == "bot:…", "a credential never prints its secret")
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ s: String) { lock.withLock { storage.append(s) } }
    var items: [String] { lock.withLock { storage } }
}
