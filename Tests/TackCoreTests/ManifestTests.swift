import Testing
@testable import TackCore

func decode(_ text: String, path: String = "/p/tack.yml") throws -> Manifest {
    try Manifest.decode(Array(text.utf8), path: path, kind: .manifest, backends: .standard)
}

func manifestError(_ text: String) -> String? {
    do {
        _ = try decode(text)
        return nil
    } catch { return (error as! TackError).message }
}

@Suite struct ManifestTests {
    @Test func productExample() throws {
        let m = try decode("""
            tools:
              swiftlint: 0.57.0                    # short name from the built-in registry
              swiftformat: "~> 0.54"
              ink:
                git: https://github.com/JohnSundell/Ink.git
                version: 0.6.0
                products: [ink-cli]
              shellcheck:
                url: "https://example.org/shellcheck-v{version}.{os}.{arch}.tar.xz"
                version: 0.10.0
                bin: "shellcheck-v{version}/shellcheck"
              black: { pip: black, version: ">= 24, < 25" }
              fastlane: { gem: fastlane, version: "~> 2.220" }
            env:
              SWIFTLINT_CACHE: .build/swiftlint
            bootstrap:
              packages: { apt: [libgit2-dev, libyaml-dev, pkg-config], brew: [libgit2, libyaml, pkg-config] }
              run: ["tack exec swiftlint --version"]
            """)
        #expect(m.tools.map(\.name) == ["swiftlint", "swiftformat", "ink", "shellcheck", "black", "fastlane"])
        #expect(m.tools[0].requirement == .prefix(Version("0.57.0")!))
        #expect(m.tools[0].origin.line == 2)
        #expect(m.tools[1].requirement.description == "~> 0.54")
        #expect(m.tools[2].source == .git("https://github.com/JohnSundell/Ink.git"))
        #expect(m.tools[2].options.git.products == ["ink-cli"])
        #expect(m.tools[3].source == .url("https://example.org/shellcheck-v{version}.{os}.{arch}.tar.xz"))
        #expect(m.tools[3].options.bin == ["shellcheck-v{version}/shellcheck"])
        #expect(m.tools[4].source == .pip("black"))
        #expect(m.tools[5].source == .gem("fastlane"))
        #expect(m.env == [.init(name: "SWIFTLINT_CACHE", value: ".build/swiftlint", line: 15)])
        #expect(m.bootstrap?.packages["apt"] == ["libgit2-dev", "libyaml-dev", "pkg-config"])
        #expect(m.bootstrap?.run == ["tack exec swiftlint --version"])
        #expect(m.needsTrust)
        #expect(m.bareEntries == ["swiftlint", "swiftformat"])
    }

    @Test func githubShorthandRefAndPath() throws {
        let m = try decode("tools:\n  a: { github: realm/SwiftLint, ref: main }\n  b: { path: ../b }\n  c: system\n  d: { git: x.git }\n")
        #expect(m.tools[0].source == .git("https://github.com/realm/SwiftLint.git"))
        #expect(m.tools[0].requirement == .ref("main"))
        #expect(m.tools[1].requirement == .path("../b"))
        #expect(m.tools[2].requirement == .system)
        #expect(m.tools[3].requirement == .latest)
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let m = try Manifest.decode([0xEF, 0xBB, 0xBF] + Array("tools:\n  jq: 1.7.1\n".utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard)
        #expect(m.tools.first?.name == "jq")
    }

    @Test func emptyToolsIsAllowed() throws {
        #expect(try decode("tools: {}\n").tools.isEmpty)
        #expect(try decode("tools:\n").tools.isEmpty)
    }

    /// Each bad input gives exactly this one-line error.
    @Test(arguments: [
        ("", "/p/tack.yml:1:1: the file is empty; expected `tools:` with one tool per line, for example `  swiftlint: 0.57.0`"),
        ("# only a comment\n", "/p/tack.yml:1:1: the file is empty; expected `tools:` with one tool per line, for example `  swiftlint: 0.57.0`"),
        ("tols:\n  jq: 1.7\n", "/p/tack.yml:1:1: unknown key `tols` at the top level; did you mean `tools`?"),
        ("tools:\n  jq: 1.7\nenvv: {}\n", "/p/tack.yml:3:1: unknown key `envv` at the top level; did you mean `env`?"),
        ("tools:\n  jq: 1.7\n  jq: 1.6\n", "/p/tack.yml:3:3: duplicate key `jq` (first set at line 2)"),
        ("tools:\n\tjq: 1.7\n", "/p/tack.yml:2:1: a tab character; YAML indents with spaces only"),
        ("tools:\n  swiftformat: \"~>> 1.2\"\n", "/p/tack.yml:2:16: expected a version requirement, found \"~>> 1.2\""),
        ("tools:\n  jq: ../../../tmp/evil\n", "/p/tack.yml:2:7: expected a version requirement for jq, found \"../../../tmp/evil\": `/` is not allowed in a version requirement"),
        ("tools:\n  jq: \"1.7; rm -rf ~\"\n", "/p/tack.yml:2:7: expected a version requirement for jq, found \"1.7; rm -rf ~\": `;` is not allowed in a version requirement"),
        ("tools:\n  jq: \"1.7\\u0007\"\n", "/p/tack.yml:2:7: expected a version requirement for jq, found \"1.7\\u0007\": a control character is not allowed in a version requirement"),
        ("tools:\n  ../evil: 1.0\n", "/p/tack.yml:2:3: `../evil` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"),
        ("tools:\n  SwiftLint: 1.0\n", "/p/tack.yml:2:3: `SwiftLint` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"),
        ("tools:\n  jq:\n", "/p/tack.yml:2:3: `jq` needs a version: write `jq: latest` for the newest, or a version like `jq: 1.2.3`"),
        ("tools:\n  jq: [1.7]\n", "/p/tack.yml:2:7: `jq` must be a version or a mapping (like `{ git: URL, version: 1.2 }`), found a list"),
        ("tools:\n  ink: { gti: https://x/y.git }\n", "/p/tack.yml:2:10: unknown key `gti` in ink; did you mean `git`?"),
        ("tools:\n  ink: { git: a.git, url: \"https://b\" }\n", "/p/tack.yml:2:22: ink has two sources, `git` (line 2) and `url`; keep one"),
        ("tools:\n  ink: { git: a.git, version: 1.0, ref: main }\n", "/p/tack.yml:2:36: `ref` and `version` (line 2) both say which version of ink to use; keep one"),
        ("tools:\n  ink: { pip: ink, products: [x] }\n", "/p/tack.yml:2:20: `products` applies to git tools, but ink comes from pip"),
        ("tools:\n  jq: { version: 1.7, sdks: [static-linux] }\n", "/p/tack.yml:2:23: `sdks` applies to swift tools, but jq comes from the registry"),
        ("tools:\n  swift: { version: 6.0.3, sdks: [android] }\n", "/p/tack.yml:2:34: \"android\" is not a Swift SDK tack knows; swift.org publishes static-linux, wasm"),
        ("min_release_age: soon\ntools:\n  jq: 1.7\n", "/p/tack.yml:1:18: `min_release_age` is an age like 3d, 12h, 2w or 90m (0 turns it off), found \"soon\""),
        ("tools:\n  ink: { github: notarepo }\n", "/p/tack.yml:2:18: expected `owner/repo` after `github:`, found \"notarepo\""),
        ("tools:\n  ink: { git: a.git, version: [1] }\n", "/p/tack.yml:2:31: `version` must be a string, found a list"),
        ("tools: [jq]\n", "/p/tack.yml:1:8: `tools` must be a mapping, found a list"),
        ("- jq\n", "/p/tack.yml:1:1: expected a mapping with `tools:` at the top of the file, found a list"),
        ("tools:\n  jq: 1.7\nenv:\n  1BAD: x\n", "/p/tack.yml:4:3: `1BAD` is not a valid environment variable name (letters, digits and `_`, not starting with a digit)"),
        ("tools:\n  jq: 1.7\nbootstrap:\n  packages: { yum: [x] }\n", "/p/tack.yml:4:15: unknown key `yum` in `bootstrap.packages` (expected one of: apt, dnf, pacman, apk, brew)"),
        ("tools:\n  jq: 1.7\nbootstrap:\n  packages: { apt: [\"x; reboot\"] }\n", "/p/tack.yml:4:21: \"x; reboot\" is not a valid package name"),
        ("tools:\n  jq: &v 1.7\n  yq: *v\n", "/p/tack.yml:2:7: YAML anchors (`&name`) are not supported in tack files"),
        ("tools:\n  jq: 1.7\n---\ntools: {}\n", "/p/tack.yml:3:1: a second YAML document (`---`); a tack file holds one"),
        ("tools:\n  jq: \"1.7\n", "/p/tack.yml:3:1: found unexpected end of stream while scanning a quoted scalar"),
        ("tools:\n  jq: 1.7\n bad\n", "/p/tack.yml:3:2: did not find expected key while parsing a block mapping"),
        ("tools:\n  jq: 1.7\nenv:\n  A: [x]\n", "/p/tack.yml:4:6: the value of `A` must be a string, found a list"),
    ])
    func badInput(_ text: String, _ expected: String) {
        #expect(manifestError(text) == expected)
    }

    @Test func nulByte() {
        #expect(manifestError("tools:\n  jq: 1\u{0}\n") == "/p/tack.yml:2:8: the file contains a NUL byte; is it a text file?")
    }

    @Test func invalidUTF8() {
        let bytes = Array("tools:\n  jq: ".utf8) + [0xFF, 0xFE] + Array("\n".utf8)
        #expect(throws: TackError.self) { try Manifest.decode(bytes, path: "/p/tack.yml", kind: .manifest, backends: .standard) }
    }

    @Test func deepNestingIsBounded() {
        let text = "tools:\n  jq: " + String(repeating: "[", count: 10000) + "\n"
        let message = manifestError(text) ?? ""
        #expect(message.hasPrefix("/p/tack.yml:2:"))
        #expect(message.hasSuffix("nested more than 64 levels deep"))
    }

    @Test func tooLargeFileIsRefusedBeforeParsing() throws {
        let fs = InMemoryFileSystem()
        fs.seed("/p/tack.yml", [UInt8](repeating: 0x20, count: 10 << 20))
        #expect(throws: TackError("/p/tack.yml: the file is 10.0 MiB; tack reads files of at most 1.0 MiB")) {
            try Manifest.load("/p/tack.yml", kind: .manifest, fs: fs, backends: .standard)
        }
    }

    @Test func suggestions() {
        #expect(Suggest.nearest("tols", in: Manifest.topLevelKeys) == "tools")
        #expect(Suggest.nearest("bootstarp", in: Manifest.topLevelKeys) == "bootstrap")
        #expect(Suggest.nearest("prodcuts", in: BackendCatalog.standard.toolKeys) == "products")
        #expect(Suggest.nearest("zzzzzz", in: Manifest.topLevelKeys) == nil)
    }
}
