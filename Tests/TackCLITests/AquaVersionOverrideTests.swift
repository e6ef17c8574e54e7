@testable import Backends
import TackCore
import Testing
import YAML

/// How a version chooses among an entry's overrides, in the cases aqua's own tests check
/// (pkg/config/registry/version_override_test.go), in tack's words.
@Suite struct AquaVersionOverrideTests {
    func package(_ yaml: String) throws -> AquaPackage {
        try AquaPackage(try #require(try YAMLParser.parse(Array(yaml.utf8))))
    }
    static let linux = Platform(os: "linux", arch: "x86_64")

    @Test func aLegacyRangeANewRangeAndTheBaseBetween() throws {
        let p = try package("""
            type: github_release
            repo_owner: kubernetes
            repo_name: kubernetes
            asset: kubectl
            format: raw
            version_prefix: v
            version_constraint: semver(">= 1.20.0, < 1.25.0")
            version_overrides:
              - version_constraint: semver("< 1.20.0")
                type: http
                url: https://legacy.example.com/kubectl
              - version_constraint: semver(">= 1.25.0")
                asset: kubectl-new.{{.Format}}
                format: tar.gz
            """)
        let legacy = try p.download(version: "v1.18.0", platform: Self.linux)
        #expect(legacy.url == "https://legacy.example.com/kubectl" && legacy.format == "raw")
        let base = try p.download(version: "v1.22.0", platform: Self.linux)
        #expect(base.url == "https://github.com/kubernetes/kubernetes/releases/download/v1.22.0/kubectl")
        let new = try p.download(version: "v1.26.0", platform: Self.linux)
        #expect(new.asset == "kubectl-new.tar.gz" && new.format == "tar.gz")
    }

    @Test func prefixesAndUnreadableConstraintsChooseNothing() throws {
        // The top level's prefix does not fit: its constraint does not hold, so an override is tried.
        let p = try package("""
            type: github_release
            repo_owner: a
            repo_name: b
            asset: top
            format: raw
            version_prefix: release-
            version_constraint: "true"
            version_overrides:
              - version_constraint: not a constraint (
                asset: unreadable
              - version_constraint: "true"
                version_prefix: v
                asset: second
            """)
        #expect(try p.download(version: "v1.0.0", platform: Self.linux).asset == "second")
        #expect(try p.download(version: "release-1.0.0", platform: Self.linux).asset == "top")
        // Nothing holds: the entry as it is.
        let none = try package("type: github_release\nrepo_owner: a\nrepo_name: b\nasset: base\nformat: raw\nversion_constraint: \"false\"\nversion_overrides:\n  - version_constraint: semver(\">= 9\")\n    asset: nine\n")
        #expect(try none.download(version: "v1.0.0", platform: Self.linux).asset == "base")
        // No constraint at all: the overrides are not read.
        let free = try package("type: github_release\nrepo_owner: a\nrepo_name: b\nasset: base\nformat: raw\nversion_overrides:\n  - version_constraint: \"true\"\n    asset: ignored\n")
        #expect(try free.download(version: "v1.0.0", platform: Self.linux).asset == "base")
    }
}
