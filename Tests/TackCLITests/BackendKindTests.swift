import BackendKinds
import Foundation
import Testing
import TackCore
import TackKit

/// Every kind of backend has its implementation, and every implementation its kind: what the
/// rest of tack asks about a backend (`BackendKind`) is asked of one that exists.
@Suite(.ownThreads) struct BackendKindTests {
    static let catalog = BackendCatalog.standard

    func kind(_ name: String) throws -> any BackendKind { try #require(Self.catalog.kind(named: name)) }

    @Test func everyKindHasABackendAndEveryBackendAKind() {
        let settings = Settings(environment: ["HOME": "/nonexistent", "PATH": "/usr/bin:/bin"], cwd: "/", fs: InMemoryFileSystem(), backends: .standard)
        let registry = BackendFactory.standard(settings, pathPrefix: [], copy: nil)
        #expect(Set(registry.backends.keys) == Set(Self.catalog.kinds.map(\.name)))
        for (name, backend) in registry.backends { #expect(Self.catalog.kind(named: backend.name)?.name == name) }
    }

    @Test func aKeyOfAnotherKindIsRefusedNamingItsOwner() throws {
        let values = [
            "ref": "main", "products": "[x]", "build": "make", "checksum": String(repeating: "a", count: 64),
            "platforms": "{ linux-x86_64: { url: \"https://example.com/x\" } }", "versions": "{ url: \"https://example.com\", regex: \"(.*)\" }",
            "checksums": "{ url: \"https://example.com/SHA256SUMS\" }", "prebuilt": "false", "relocatable": "true", "build_env": "{ A: b }",
            "python": "python3", "index_url": "https://example.com/simple", "find_links": "/wheels", "extras": "[a]", "source": "https://example.com",
            "sdks": "[static-linux]", "attested": "github", "provenance": "{ url: \"https://example.com/x.intoto.jsonl\", source: o/r }", "signer": "{ issuer: \"https://token.actions.githubusercontent.com\", identity: \"https://github.com/o/r/*\" }", "vars": "{ channel: stable }", "asset": "tool", "minisign": "RWT+ocXWlNqWvrou0nldDB1llJd8bfHcY8r3dd66iHgj9X+mWtI1pUL4",
            "cosign": "\"-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExjQl2M+90GGUYabGlxlNvsHZqlqdowrbcA8M6M4dIhjCIGe0oBvddvFGvV1yqU9F4PBUNz21I3YW1ilPz6j7MA==\\n-----END PUBLIC KEY-----\"",
        ]
        for kind in Self.catalog.kinds {
            for key in kind.ownKeys {
                let other = kind.name == "pip" ? "gem: rake" : "pip: black"
                let version = key == "ref" ? "" : ", version: \"1.0\""
                let yml = "tools:\n  t: { \(other)\(version), \(key): \(values[key] ?? "x") }\n"
                #expect(throws: TackError.self) { _ = try Manifest.decode(Array(yml.utf8), path: "/tack.yml", kind: .manifest, backends: .standard) }
                do { _ = try Manifest.decode(Array(yml.utf8), path: "/tack.yml", kind: .manifest, backends: .standard) } catch {
                    #expect(error.message.contains("`\(key)` applies to \(kind.name) tools"), "\(error.message)")
                }
            }
        }
    }

    @Test func traits() throws {
        let kinds = Self.catalog.kinds
        #expect(kinds.filter(\.builds).map(\.name) == ["git", "asdf"])
        #expect(kinds.filter(\.checksumsPerPlatform).map(\.name) == ["url", "release", "aqua"])
        #expect(kinds.filter(\.isSwiftToolchain).map(\.name) == ["swift"])
        #expect(try kind("swift").installRound == 0, "a pinned toolchain installs before the builds that use it")
        #expect(try kind("git").installRound > kind("swift").installRound)
        #expect(try kind("pip").installRound > kind("git").installRound && kind("gem").installRound > kind("asdf").installRound)
        #expect(kinds.allSatisfy { (0...2).contains($0.installRound) }, "installItems runs rounds 0, 1 and 2 only")
        #expect(ToolSource.registry.kind == nil && ToolSource.git("x").kind?.name == "git")
        var options = ToolOptions()
        options.git.build = "make"
        let built = ToolRequest(name: "t", requirement: .latest, source: .git("x"), options: options, origin: Origin(kind: .manifest, file: "/t", line: 1, column: 1))
        #expect(try !kind("git").buildsWithSwift(built), "a `build:` command builds without the Swift toolchain")
    }

    /// Each kind's option set owns its keys alone: no key is two kinds', none is a source key or
    /// shared as well, and a tool's mapping accepts each of them (the unknown-key list is built
    /// from them).
    @Test func eachKindsOptionsOwnTheirKeys() {
        let kinds = Self.catalog.kinds
        for kind in kinds {
            let keys = kind.options.keys
            for other in kinds where other.name != kind.name {
                #expect(Set(keys).isDisjoint(with: other.ownKeys), "\(kind.name) and \(other.name) share \(Set(keys).intersection(other.ownKeys))")
                #expect(Set(kind.sourceKeys).isDisjoint(with: other.sourceKeys))
            }
            #expect(Set(keys).isDisjoint(with: ToolOptions.sharedKeys))
            #expect(Set(keys).isDisjoint(with: Self.catalog.sourceKeys))
            #expect(Set(keys).isSubset(of: Self.catalog.toolKeys))
            #expect(Self.catalog.kind(named: kind.name)?.name == kind.name)
        }
    }
}
