import Backends
import Foundation
import TackCore
import Testing

/// The url backend in-process, with an HTTP client that answers from memory: what it
/// downloads for which platform, what it refuses, and what it adds to a lock.
@Suite(.ownThreads) struct URLBackendUnitTests {
    static let linux = Platform(os: "linux", arch: "x86_64")
    static let mac = Platform(os: "darwin", arch: "arm64")
    static let script = "#!/bin/sh\necho tool 1.0.0\n"
    static let template = "https://example.com/tool-{version}-{os}-{arch}"

    /// A temporary directory with `install`, `scratch` and `cache` in it, removed afterwards.
    final class Place {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tack-url-\(UUID().uuidString)").path
        init() throws {
            for dir in ["install", "scratch", "cache"] { try FileManager.default.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true) }
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        func job(_ request: ToolRequest, sha256: [String: String] = [:], frozen: Bool = false) -> InstallJob {
            let fields: [String: LockValue] = sha256.isEmpty ? [:] : ["sha256": .map(sha256)]
            var job = InstallJob(request: request, locked: LockedTool(name: "tool", version: Version("1.0.0")!, requested: "1.0.0", backend: "url", source: URLBackendUnitTests.template, fields: fields),
                                 directory: root + "/install", scratch: root + "/scratch", cache: root + "/cache", report: { _ in })
            job.frozen = frozen
            return job
        }
    }

    func request(_ options: (inout ToolOptions) -> Void = { _ in }) -> ToolRequest {
        var o = ToolOptions()
        o.bin = ["tool"]
        options(&o)
        return ToolRequest(name: "tool", requirement: .prefix(Version("1.0.0")!), source: .url(Self.template), options: o,
                           origin: Origin(kind: .manifest, file: "/app/tack.yml", line: 2, column: 3))
    }

    @Test func aBareBinaryIsInstalledExecutableAndItsChecksumLearned() async throws {
        let place = try Place()
        let http = FakeHTTPClient(["https://example.com/tool-1.0.0-linux-x86_64": Self.script])
        let outcome = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).install(place.job(request()))
        #expect(outcome.binaries == ["bin/tool"])
        #expect(FileManager.default.isExecutableFile(atPath: place.root + "/install/bin/tool"))
        let sum = Hashing.sha256(Array(Self.script.utf8))
        #expect(outcome.lockFields["sha256"] == .map(["linux-x86_64": sum]))
        #expect(outcome.learned.map(\.value) == [sum], "an unlocked download's checksum is learned, to be recorded")
    }

    @Test func aDownloadThatIsNotWhatTheLockSaysInstallsNothing() async throws {
        let place = try Place()
        let http = FakeHTTPClient(["https://example.com/tool-1.0.0-linux-x86_64": Self.script])
        let wrong = String(repeating: "0", count: 64)
        do {
            _ = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).install(place.job(request(), sha256: ["linux-x86_64": wrong]))
            Issue.record("a download with another checksum was installed")
        } catch {
            #expect(error.message.contains(wrong) && error.message.contains("tack.lock says"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: place.root + "/install/bin"))
        // Frozen, with no checksum for this platform: refused before anything is fetched.
        let frozen = FakeHTTPClient([:])
        await #expect(throws: TackError.self) {
            _ = try await URLBackend(http: frozen, platform: Self.linux, retryDelays: []).install(place.job(request(), frozen: true))
        }
        #expect(frozen.requests.isEmpty)
    }

    @Test func aWebPageIsNeverABinary() async throws {
        let place = try Place()
        let http = FakeHTTPClient(["https://example.com/tool-1.0.0-linux-x86_64": "<!DOCTYPE html><html><body>Not Found</body></html>"])
        do {
            _ = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).install(place.job(request()))
            Issue.record("a web page was installed as the tool")
        } catch {
            #expect(error.message.contains("web page") || error.message.contains("HTML"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: place.root + "/install/bin/tool"))
    }

    @Test func aPlatformsOwnURLIsWhatItDownloadsAndUnsupportedIsSaid() async throws {
        let place = try Place()
        let http = FakeHTTPClient(["https://mirror.example.com/tool-mac": Self.script])
        let pinned = request { $0.url.platforms = ["darwin-arm64": ["url": "https://mirror.example.com/tool-mac"], "linux-x86_64": ["url": "unsupported"]] }
        _ = try await URLBackend(http: http, platform: Self.mac, retryDelays: []).install(place.job(pinned))
        #expect(http.requests == ["https://mirror.example.com/tool-mac"])
        await #expect(throws: TackError("tool publishes no binary for linux-x86_64 — pin it with `git:` (its repository) to build it here")) {
            _ = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).install(place.job(pinned))
        }
    }

    @Test func aLockIsCompletedForEveryPlatformAndVerifyCatchesAReplacedFile() async throws {
        let place = try Place()
        let files = ["https://example.com/tool-1.0.0-linux-x86_64": Self.script, "https://example.com/tool-1.0.0-darwin-arm64": "#!/bin/sh\necho mac\n"]
        let backend = URLBackend(http: FakeHTTPClient(files), platform: Self.linux, retryDelays: [])
        let entry = place.job(request()).locked
        let added = try await backend.completeLock(entry, for: request(), cache: place.root + "/cache", platforms: [Self.linux, Self.mac], jobs: 2)
        let sums = ["linux-x86_64": Hashing.sha256(Array(Self.script.utf8)), "darwin-arm64": Hashing.sha256(Array("#!/bin/sh\necho mac\n".utf8))]
        #expect(added == ["sha256": .map(sums)])
        var locked = entry
        locked.fields["sha256"] = .map(sums)
        let clean = await backend.verifyLock(locked, for: request(), scratch: place.root + "/scratch", jobs: 2)
        #expect(clean.checked == 2 && clean.problems.isEmpty, "\(clean.problems)")
        // The mac file replaced on the server.
        let replaced = URLBackend(http: FakeHTTPClient(files.merging(["https://example.com/tool-1.0.0-darwin-arm64": "#!/bin/sh\necho evil\n"]) { $1 }), platform: Self.linux, retryDelays: [])
        let caught = await replaced.verifyLock(locked, for: request(), scratch: place.root + "/scratch2", jobs: 2)
        #expect(caught.checked == 2 && caught.problems.count == 1 && caught.problems[0].contains("darwin-arm64"), "\(caught.problems)")
    }

    @Test func versionsComeFromTheIndexPageNewestLast() async throws {
        let http = FakeHTTPClient(["https://example.com/releases": "tool-1.2.0.tgz tool-1.10.0.tgz tool-1.9.1.tgz tool-1.2.0.tgz"])
        let listed = request { $0.url.versionIndex = ["url": "https://example.com/releases", "regex": "tool-([0-9.]+[0-9])\\.tgz"] }
        var any = listed
        any.requirement = .latest
        let versions = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).versions(of: any)
        #expect(versions.map(\.version.text) == ["1.2.0", "1.9.1", "1.10.0"])
        await #expect(throws: TackError.self) {
            var broken = any
            broken.options.url.versionIndex = ["url": "https://example.com/releases", "regex": "tool-(["]
            _ = try await URLBackend(http: http, platform: Self.linux, retryDelays: []).versions(of: broken)
        }
    }
}
