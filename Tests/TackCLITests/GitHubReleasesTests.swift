@testable import Backends
import Foundation
import TackCore
import Testing

/// A repository's releases read from GitHub's REST API, served by a fake.
@Suite struct GitHubReleasesTests {
    static let api = "http://127.0.0.1:9/api"
    let mirrors = DownloadMirrors(environment: ["TACK_GITHUB_API": GitHubReleasesTests.api])

    static func releaseJSON(_ tag: String, draft: Bool = false, prerelease: Bool = false, assets: [(String, String?)] = []) -> String {
        let list = assets.map { name, digest in
            #"{"name": "\#(name)", "browser_download_url": "https://github.com/o/r/releases/download/\#(tag)/\#(name)", "digest": \#(digest.map { "\"\($0)\"" } ?? "null")}"#
        }
        return #"{"tag_name": "\#(tag)", "draft": \#(draft), "prerelease": \#(prerelease), "published_at": "2026-03-01T12:00:00Z", "assets": [\#(list.joined(separator: ","))]}"#
    }

    @Test func theListSkipsDraftsAndReadsEveryPage() async throws {
        let full = (0..<100).map { Self.releaseJSON("v2.\($0).0") }
        let http = FakeHTTPClient([
            "\(Self.api)/repos/o/r/releases?per_page=100&page=1": "[\(full.joined(separator: ","))]",
            "\(Self.api)/repos/o/r/releases?per_page=100&page=2": "[\(Self.releaseJSON("v1.0.0")), \(Self.releaseJSON("v1.1.0", draft: true)), \(Self.releaseJSON("nightly", prerelease: true))]",
        ])
        let releases = try await GitHubReleases(http: http, mirrors: mirrors, retryDelays: []).list("o/r")
        #expect(releases.count == 102)
        #expect(releases.map(\.tag).suffix(2) == ["v1.0.0", "nightly"])
        #expect(releases.last?.version == nil && releases.last?.prerelease == true)
        #expect(releases.first?.version == Version("2.0.0"))
        #expect(releases.first?.published == 1_772_366_400)
        #expect(http.requests.count == 2)
    }

    @Test func aReleaseHasItsAssetsAndTheDigestsGitHubGives() async throws {
        let sum = String(repeating: "ab", count: 32)
        let http = FakeHTTPClient([
            "\(Self.api)/repos/o/r/releases/tags/v1.2.3": Self.releaseJSON("v1.2.3", assets: [("r_linux_amd64.tar.gz", "sha256:" + sum.uppercased()),
                                                                                               ("r_darwin_arm64.tar.gz", "sha1:abc"), ("checksums.txt", nil)]),
        ])
        let release = try await GitHubReleases(http: http, mirrors: mirrors, retryDelays: []).release("o/r", tag: "v1.2.3")
        #expect(release.assets.map(\.name) == ["r_linux_amd64.tar.gz", "r_darwin_arm64.tar.gz", "checksums.txt"])
        #expect(release.assets.map(\.sha256) == [sum, nil, nil])
        #expect(release.assets.first?.url == "https://github.com/o/r/releases/download/v1.2.3/r_linux_amd64.tar.gz")
    }

    @Test func whatGitHubCannotAnswerIsSaid() async throws {
        let http = FakeHTTPClient(["\(Self.api)/repos/o/r/releases/tags/v1": "<html>rate limited</html>", "\(Self.api)/repos/o/r/releases?per_page=100&page=1": "{}"])
        let releases = GitHubReleases(http: http, mirrors: mirrors, retryDelays: [])
        await #expect(throws: TackError("GitHub has no release v2 of o/r (\(Self.api)/repos/o/r/releases/tags/v2 answered 404)")) {
            _ = try await releases.release("o/r", tag: "v2")
        }
        await #expect(throws: TackError("GitHub's answer for release v1 of o/r (\(Self.api)/repos/o/r/releases/tags/v1) is not a release")) {
            _ = try await releases.release("o/r", tag: "v1")
        }
        await #expect(throws: TackError("GitHub's answer at \(Self.api)/repos/o/r/releases is not a list of releases")) {
            _ = try await releases.list("o/r")
        }
    }

    @Test(arguments: [
        ("v1.2.3", "1.2.3"), ("1.2.3", "1.2.3"), ("cli/v2.62.0", "2.62.0"), ("tool-v1.0", "1.0"), ("tool_1.0.1", "1.0.1"), ("pkg@3.1.0", "3.1.0"),
        ("release-2024.1", "2024.1"), ("k8s-v1.30.2", "1.30.2"), ("V4.0", "4.0"),
    ])
    func tagsNameVersions(tag: String, version: String) {
        #expect(Version(tag: tag) == Version(version))
    }

    @Test(arguments: ["nightly", "latest", "go1.21.0", "", "v", "x1.0", "1..2"])
    func tagsThatNameNoVersion(tag: String) {
        #expect(Version(tag: tag) == nil)
    }

    @Test func aTagWithSlashesIsOnePathSegment() async throws {
        let http = FakeHTTPClient(["\(Self.api)/repos/o/r/releases/tags/cli%2Fv1.0": Self.releaseJSON("cli/v1.0")])
        let release = try await GitHubReleases(http: http, mirrors: mirrors, retryDelays: []).release("o/r", tag: "cli/v1.0")
        #expect(release.version == Version("1.0"))
    }
}
