@testable import Backends
import Foundation
import TackCore
import Testing
import YAML

/// What aqua's registry entries download, version by version and platform by platform, read
/// from the trimmed copy of the standard registry (`Fixtures/aqua/registry.yaml`).
@Suite struct AquaPackageTests {
    static let packages: [String: AquaPackage] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/aqua/registry.yaml")
        guard let data = try? Data(contentsOf: url), case .mapping(let top, _)? = (try? YAMLParser.parse(Array(data), aliases: true)) ?? nil,
              case .sequence(let items, _)? = top.first(where: { $0.key.value == "packages" })?.value else { return [:] }
        var out: [String: AquaPackage] = [:]
        for item in items { if let p = try? AquaPackage(item) { out[p.name] = p } }
        return out
    }()
    static let linux = Platform(os: "linux", arch: "x86_64"), linuxArm = Platform(os: "linux", arch: "arm64")
    static let mac = Platform(os: "darwin", arch: "arm64"), intelMac = Platform(os: "darwin", arch: "x86_64")

    func download(_ name: String, _ version: String, _ platform: Platform) throws -> AquaDownload {
        let package = try #require(Self.packages[name], "\(name) is not in the fixture")
        return try package.download(version: version, platform: platform)
    }

    @Test func aReleaseWithOverridesByVersionAndOS() throws {
        let linux = try download("cli/cli", "v2.62.0", Self.linux)
        #expect(linux.url == "https://github.com/cli/cli/releases/download/v2.62.0/gh_2.62.0_linux_amd64.tar.gz")
        #expect(linux.format == "tar.gz" && linux.files == [.init(name: "gh", src: "gh_2.62.0_linux_amd64/bin/gh")])
        #expect(linux.checksum == .init(url: "https://github.com/cli/cli/releases/download/v2.62.0/gh_2.62.0_checksums.txt", algorithm: "sha256", fileFormat: ""))
        // The attestation the registry names is one tack verifies: by gh's deployment workflow.
        #expect(linux.signatures == [])
        #expect(linux.keyless.map(\.kind) == ["github_artifact_attestations"])
        #expect(linux.keyless.first?.key.repository == "cli/cli" && linux.keyless.first?.key.text == "(?i)^https://github\\.com/cli/cli/.github/workflows/deployment.yml")
        let mac = try download("cli/cli", "v2.62.0", Self.mac)
        #expect(mac.asset == "gh_2.62.0_macOS_arm64.zip" && mac.format == "zip" && mac.files.first?.src == "gh_2.62.0_macOS_arm64/bin/gh")
    }

    @Test func aPrefixedTagAndARawProgram() throws {
        let jq = try download("jqlang/jq", "jq-1.7.1", Self.linux)
        #expect(jq.url == "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-linux-amd64" && jq.format == "raw")
        #expect(jq.files == [.init(name: "jq", src: "jq-linux-amd64")])
        #expect(jq.checksum?.url == "https://github.com/jqlang/jq/releases/download/jq-1.7.1/sha256sum.txt")
        #expect(try download("jqlang/jq", "jq-1.7.1", Self.mac).asset == "jq-macos-arm64")
    }

    @Test func replacementsMergeByOSAndRosettaRunsIntelBuildsOnAppleSilicon() throws {
        #expect(try download("koalaman/shellcheck", "v0.10.0", Self.linux).asset == "shellcheck-v0.10.0.linux.x86_64.tar.xz")
        #expect(try download("koalaman/shellcheck", "v0.10.0", Self.mac).asset == "shellcheck-v0.10.0.darwin.aarch64.tar.xz")
        #expect(try download("koalaman/shellcheck", "v0.10.0", Self.linux).files == [.init(name: "shellcheck", src: "shellcheck-v0.10.0/shellcheck")])
        // 0.9.0: no Apple-silicon build (rosetta2), and aarch64 only for Linux (an override's replacements).
        #expect(try download("koalaman/shellcheck", "v0.9.0", Self.mac).asset == "shellcheck-v0.9.0.darwin.x86_64.tar.xz")
        #expect(try download("koalaman/shellcheck", "v0.9.0", Self.linuxArm).asset == "shellcheck-v0.9.0.linux.aarch64.tar.xz")
    }

    @Test func anHTTPPackageWithTheChecksumsFileBesideIt() throws {
        let tf = try download("hashicorp/terraform", "v1.9.5", Self.mac)
        #expect(tf.url == "https://releases.hashicorp.com/terraform/1.9.5/terraform_1.9.5_darwin_arm64.zip" && tf.asset == "terraform_1.9.5_darwin_arm64.zip")
        #expect(tf.format == "zip" && tf.files == [.init(name: "terraform", src: "terraform")])
        #expect(tf.checksum?.url == "https://releases.hashicorp.com/terraform/1.9.5/terraform_1.9.5_SHA256SUMS")
        // Before 1.0.2 there was no Apple-silicon build: the override says rosetta2.
        #expect(try download("hashicorp/terraform", "v1.0.0", Self.mac).asset == "terraform_1.0.0_darwin_amd64.zip")
    }

    @Test func whatTackDoesNotInstallIsSaid() throws {
        let built = try AquaPackage(try #require(try YAMLParser.parse(Array("type: go_install\nrepo_owner: a\nrepo_name: b\npath: github.com/a/b/cmd/b\n".utf8))))
        let go = #expect(throws: TackError.self) { try built.download(version: "v1", platform: Self.linux) }
        #expect(go?.message.contains("it is built from source with go, which tack does not do") == true)
        let windowsOnly = try AquaPackage(try #require(try YAMLParser.parse(Array("type: github_release\nrepo_owner: a\nrepo_name: b\nasset: b.zip\nsupported_envs: [windows]\n".utf8))))
        let error = #expect(throws: TackError.self) { try windowsOnly.download(version: "v1", platform: Self.linux) }
        #expect(error?.message == "aqua's registry entry for a/b v1: it is not published for linux/amd64 (its supported_envs)")
        // What `tack lock` asks before locking a platform: nothing to lock where it is not published.
        #expect(!windowsOnly.isPublished(version: "v1", platform: Self.linux))
        #expect(windowsOnly.isPublished(version: "v1", platform: Platform(os: "windows", arch: "x86_64")))
        #expect(built.isPublished(version: "v1", platform: Self.linux), "no supported_envs: everywhere")
        let noAsset = try AquaPackage(try #require(try YAMLParser.parse(Array("type: github_release\nrepo_owner: a\nrepo_name: b\nasset: b.zip\nversion_constraint: \"false\"\nversion_overrides:\n  - version_constraint: \"true\"\n    no_asset: true\n    error_message: use b2 instead\n".utf8))))
        #expect(throws: TackError("aqua's registry entry for a/b v1: use b2 instead")) { try noAsset.download(version: "v1", platform: Self.linux) }
        #expect(noAsset.isPublished(version: "v1", platform: Self.linux), "an entry that says why has it said")
    }

    /// Every package of the fixture, at a plain version, on the four platforms: a download, or
    /// one of the errors tack means (not published there, built from source, no asset).
    @Test func everyPackageRendersOrSaysWhyNot() throws {
        #expect(Self.packages.count > 100)
        var rendered = 0
        var problems: [String] = []
        for (name, package) in Self.packages.sorted(by: { $0.key < $1.key }) {
            for platform in [Self.linux, Self.linuxArm, Self.mac, Self.intelMac] {
                do {
                    let d = try package.download(version: "v1.2.3", platform: platform)
                    rendered += 1
                    if d.url.isEmpty || d.asset.isEmpty || d.files.isEmpty { problems.append("\(name) \(platform): \(d)") }
                } catch {
                    let meant = ["is not published for", "is built from source", "no asset is released", "tack does not unpack", "registry entry for"]
                    if !meant.contains(where: error.message.contains) || error.message.contains("is not one tack") { problems.append("\(name) \(platform): \(error.message)") }
                }
            }
        }
        #expect(rendered > 250, "\(rendered) downloads")
        #expect(problems.isEmpty, "\(problems.count):\n\(problems.prefix(20).joined(separator: "\n"))")
    }
}
