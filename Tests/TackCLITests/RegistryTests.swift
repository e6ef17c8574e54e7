import Foundation
import Testing
@testable import Backends
import BackendKinds
import TackCore

@Suite(.ownThreads) struct RegistryTests {
    static func builtIn() throws -> ToolRegistry {
        var r = ToolRegistry(backends: .standard)
        try r.add(Registries.builtIn, path: "built-in")
        return r
    }

    @Test func namesTheToolsItShouldAndEveryEntryDecodes() throws {
        let r = try Self.builtIn()
        for tool in ["swiftlint", "swiftformat", "swift-format", "xcodegen", "xcbeautify", "sourcery", "periphery", "shellcheck", "jq", "gh", "node", "go"] {
            #expect(r.entries[tool] != nil, "\(tool)")
        }
    }

    /// The URLs the templates render, per platform, against the asset names each project
    /// publishes on its releases page (or download site).
    @Test(arguments: [
        ("shellcheck", "0.10.0", "linux-x86_64", "https://github.com/koalaman/shellcheck/releases/download/v0.10.0/shellcheck-v0.10.0.linux.x86_64.tar.xz", ["shellcheck-v0.10.0/shellcheck"]),
        ("shellcheck", "0.10.0", "linux-arm64", "https://github.com/koalaman/shellcheck/releases/download/v0.10.0/shellcheck-v0.10.0.linux.aarch64.tar.xz", ["shellcheck-v0.10.0/shellcheck"]),
        ("shellcheck", "0.10.0", "darwin-x86_64", "https://github.com/koalaman/shellcheck/releases/download/v0.10.0/shellcheck-v0.10.0.darwin.x86_64.tar.xz", ["shellcheck-v0.10.0/shellcheck"]),
        ("shellcheck", "0.10.0", "darwin-arm64", "https://github.com/koalaman/shellcheck/releases/download/v0.10.0/shellcheck-v0.10.0.darwin.aarch64.tar.xz", ["shellcheck-v0.10.0/shellcheck"]),
        ("jq", "1.7.1", "linux-x86_64", "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-linux-amd64", ["jq"]),
        ("jq", "1.7.1", "linux-arm64", "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-linux-arm64", ["jq"]),
        ("jq", "1.7.1", "darwin-x86_64", "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-macos-amd64", ["jq"]),
        ("jq", "1.7.1", "darwin-arm64", "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-macos-arm64", ["jq"]),
        ("gh", "2.50.0", "linux-x86_64", "https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_linux_amd64.tar.gz", ["gh_2.50.0_linux_amd64/bin/gh"]),
        ("gh", "2.50.0", "linux-arm64", "https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_linux_arm64.tar.gz", ["gh_2.50.0_linux_arm64/bin/gh"]),
        ("gh", "2.50.0", "darwin-arm64", "https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_macOS_arm64.zip", ["gh_2.50.0_macOS_arm64/bin/gh"]),
        ("node", "20.11.1", "linux-x86_64", "https://nodejs.org/dist/v20.11.1/node-v20.11.1-linux-x64.tar.xz", ["node-v20.11.1-linux-x64/bin/node", "node-v20.11.1-linux-x64/bin/npm", "node-v20.11.1-linux-x64/bin/npx"]),
        ("node", "20.11.1", "darwin-arm64", "https://nodejs.org/dist/v20.11.1/node-v20.11.1-darwin-arm64.tar.xz", ["node-v20.11.1-darwin-arm64/bin/node", "node-v20.11.1-darwin-arm64/bin/npm", "node-v20.11.1-darwin-arm64/bin/npx"]),
        ("go", "1.22.5", "linux-x86_64", "https://go.dev/dl/go1.22.5.linux-amd64.tar.gz", ["go/bin/go", "go/bin/gofmt"]),
        ("go", "1.22.5", "darwin-arm64", "https://go.dev/dl/go1.22.5.darwin-arm64.tar.gz", ["go/bin/go", "go/bin/gofmt"]),
        ("swiftlint", "0.57.0", "darwin-arm64", "https://github.com/realm/SwiftLint/releases/download/0.57.0/portable_swiftlint.zip", ["swiftlint"]),
        ("swiftlint", "0.57.0", "linux-x86_64", "https://github.com/realm/SwiftLint/releases/download/0.57.0/swiftlint_linux.zip", ["swiftlint"]),
        ("swiftlint", "0.57.0", "linux-arm64", "unsupported", ["swiftlint"]),
        ("swiftformat", "0.54.6", "darwin-x86_64", "https://github.com/nicklockwood/SwiftFormat/releases/download/0.54.6/swiftformat.zip", ["swiftformat"]),
        ("swiftformat", "0.54.6", "linux-x86_64", "https://github.com/nicklockwood/SwiftFormat/releases/download/0.54.6/swiftformat_linux.zip", ["swiftformat_linux=swiftformat"]),
        ("swiftformat", "0.54.6", "linux-arm64", "https://github.com/nicklockwood/SwiftFormat/releases/download/0.54.6/swiftformat_linux_aarch64.zip", ["swiftformat_linux_aarch64=swiftformat"]),
        ("xcodegen", "2.40.1", "darwin-arm64", "https://github.com/yonaskolb/XcodeGen/releases/download/2.40.1/xcodegen.zip", ["xcodegen/bin/xcodegen"]),
        ("sourcery", "2.2.4", "darwin-arm64", "https://github.com/krzysztofzablocki/Sourcery/releases/download/2.2.4/sourcery-2.2.4.zip", ["bin/sourcery"]),
        ("periphery", "2.21.0", "darwin-arm64", "https://github.com/peripheryapp/periphery/releases/download/2.21.0/periphery-2.21.0.zip", ["periphery"]),
    ])
    func urlTemplatesRender(_ tool: String, _ version: String, _ platform: String, _ url: String, _ bins: [String]) throws {
        let entry = try #require(try Self.builtIn().entries[tool])
        let parts = platform.split(separator: "-").map(String.init)
        let backend = URLBackend(http: CurlHTTPClient(), platform: Platform(os: parts[0], arch: parts[1]))
        let t = backend.target(entry, Version(version)!)
        #expect(t.url == url)
        #expect(t.bin == bins)
    }

    /// The publishers whose checksum files the registry names, rendered for a version: each
    /// download's first checksum is checked against them, never trusted as it arrives.
    @Test(arguments: [
        ("node", "20.11.1", "https://nodejs.org/dist/v20.11.1/SHASUMS256.txt"),
        ("gh", "2.50.0", "https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_checksums.txt"),
    ])
    func checksumFilesRender(_ tool: String, _ version: String, _ url: String) throws {
        let entry = try #require(try Self.builtIn().entries[tool])
        let template = try #require(entry.options.url.checksumsURL)
        #expect(Platform.current.render(template, version: version) == url)
        #expect(Verification.of(LockedTool(name: tool, version: Version(version)!, requested: version, backend: "url", source: "x",
                                           fields: ["options": .map(entry.options.lockRecord)]), request: entry, backends: .standard).kind == .checksumFile)
    }

    /// The registry's GitHub release indexes say when each release was published (what
    /// `min_release_age` holds back), and still list a draft that has no date.
    @Test func githubIndexesGiveEachReleasesPublicationTime() throws {
        let registry = try Self.builtIn()
        let page = #"[{"url": "u", "author": {"login": "a", "id": 1}, "tag_name": "jq-1.7.1", "draft": false, "created_at": "2023-12-13T19:00:00Z", "published_at": "2023-12-13T19:24:36Z", "assets": [{"name": "jq-linux-amd64"}]}, {"author": {"login": "a"}, "tag_name": "jq-1.8.0", "draft": true, "published_at": null, "assets": []}]"#
        let pattern = try #require(registry.entries["jq"]?.options.url.versionIndex?["regex"])
        let matches = page.matches(of: try Regex(pattern))
        #expect(matches.compactMap { $0.output[1].substring.map(String.init) } == ["1.7.1", "1.8.0"])
        #expect(matches.map { $0.output["published"]?.substring.map(String.init) } == ["2023-12-13T19:24:36Z", nil])
        let node = try #require(registry.entries["node"]?.options.url.versionIndex?["regex"])
        let index = #"[{"version":"v20.11.1","date":"2024-02-13","files":["linux-x64"],"npm":"10.2.4","lts":"Iron","security":false}]"#
        let n = try #require(index.matches(of: try Regex(node)).first)
        #expect(n.output["published"]?.substring == "2024-02-13" && n.output["lts"]?.substring == "Iron")
    }

    @Test func sourceBuiltEntries() throws {
        let r = try Self.builtIn()
        #expect(r.entries["swift-format"]?.source == .git("https://github.com/swiftlang/swift-format.git"))
        #expect(r.entries["xcbeautify"]?.source == .git("https://github.com/cpisciotta/xcbeautify.git"))
    }

    @Test func manifestOverridesFieldByField() throws {
        let r = try Self.builtIn()
        let m = try Manifest.decode(Array("tools:\n  shellcheck: { version: 0.10.0, checksum: \"abababababababababababababababababababababababababababababababab\", bin: sc }\n  jq: 1.7.1\n  mine: { url: \"https://x/{version}\", version: 1.0.0 }\n".utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard)
        let sc = r.apply(m.tools[0])
        #expect(sc.source == .url("https://github.com/koalaman/shellcheck/releases/download/v{version}/shellcheck-v{version}.{os}.{arch}.tar.xz"))
        #expect(sc.options.url.checksum == "abababababababababababababababababababababababababababababababab")
        #expect(sc.options.bin == ["sc"])
        #expect(sc.options.url.platforms["linux-arm64"]?["url"] != nil, "the registry's other fields stay")
        #expect(sc.requirement.description == "0.10.0")
        #expect(r.apply(m.tools[1]).source == .url("https://github.com/jqlang/jq/releases/download/jq-{version}/jq-linux-amd64"))
        #expect(r.apply(m.tools[2]).source == .url("https://x/{version}"), "an entry with its own source is left alone")
    }

    @Test(arguments: [
        ("swiftlint:\n  version: 1.0\n  github: a/b\n", "/r.yml:2:3: a registry entry names a source, not a version; remove `version`"),
        ("swiftlint:\n  bin: x\n", "/r.yml:1:1: the registry entry for `swiftlint` needs a source (git, github, url, artifactbundle, pip, gem, asdf, swift, release or aqua)"),
        ("swiftlint: 1.0\n", "/r.yml:1:12: the registry entry for `swiftlint` must be a mapping"),
        ("- x\n", "/r.yml:1:1: a registry is a mapping of tool names to entries"),
    ])
    func badRegistries(_ text: String, _ error: String) {
        var r = ToolRegistry(backends: .standard)
        #expect(throws: TackError(error)) { try r.add(Array(text.utf8), path: "/r.yml") }
    }
}

@Suite(.ownThreads) struct RegistryEndToEndTests {
    @Test func userRegistryFromGitInstallsByShortName() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/sc-0.10.0.tar.gz", version: "0.10.0")
        let server = try FixtureServer(serving: s.root + "/www")
        let repo = try GitFixture.tool(in: s, name: "my-registry", tags: [])
        try s.write("my-registry/registry.yml", "mytool:\n  url: \"\(server.url("files/sc-{version}.tar.gz"))\"\n  bin: shellcheck-v{version}/shellcheck=mytool\n")
        try repo.git("add", "registry.yml")
        try repo.commitAndTag("1")
        let add = try s.tack(["registry", "add", repo.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr == "added the registry my-registry from \(repo.path)\n")
        #expect(try s.tack(["registry", "list"]).stdout.contains("my-registry (\(repo.path)): mytool\n"))
        try s.write("app/tack.yml", "tools:\n  mytool: 0.10.0\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/mytool/0.10.0/bin/mytool") == "shellcheck 0.10.0\n")
        #expect(s.read("app/tack.lock")?.contains("source: \"\(server.url("files/sc-{version}.tar.gz"))\"") == true)
        // A no-op install after it is answered without tack-cli, and says nothing.
        let again = try s.tack(["install"], in: "app")
        #expect(again.status == 0 && again.stderr == "")
        // Update pulls the registry's new commit; a broken update keeps the old one.
        try s.write("my-registry/registry.yml", "mytool: [broken\n")
        try repo.git("commit", "-qam", "break")
        let u = try s.tack(["registry", "update"])
        #expect(u.status == 1)
        #expect(try s.tack(["registry", "list"]).stdout.contains("mytool"))
        let dup = try s.tack(["registry", "add", repo.path])
        #expect(dup.status == 1)
    }

    @Test func unsupportedPlatformSaysWhatToDo() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  mine: { url: \"https://example.invalid/x-{version}.tar.gz\", version: 1.0.0, platforms: { \(Platform.current): { url: unsupported } } }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("tack: mine publishes no binary for \(Platform.current) — pin it with `git:` (its repository) to build it here\n"))
    }

    @Test func registryToolWithoutNetworkFailsClearly() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  nosuchtool: 1.0.0\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("tack: nosuchtool has no source, and the built-in registry does not know it yet"))
    }
}
