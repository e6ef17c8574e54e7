import Foundation
import Testing
import TackCore
import TackKit

/// Every kind of backend has its implementation, and every implementation its kind: what the
/// rest of tack asks about a backend (`BackendKind`) is asked of one that exists.
@Suite(.ownThreads) struct BackendKindTests {
    @Test func everyKindHasABackendAndEveryBackendAKind() {
        let settings = Settings(environment: ["HOME": "/nonexistent", "PATH": "/usr/bin:/bin"], cwd: "/", fs: InMemoryFileSystem())
        let registry = BackendFactory.standard(settings, pathPrefix: [])
        #expect(Set(registry.backends.keys) == Set(BackendKind.allCases.map(\.rawValue)))
        for (name, backend) in registry.backends { #expect(BackendKind(name: backend.name)?.rawValue == name) }
    }

    @Test func aKeyOfAnotherKindIsRefusedNamingItsOwner() throws {
        let values = [
            "ref": "main", "products": "[x]", "build": "make", "checksum": String(repeating: "a", count: 64),
            "platforms": "{ linux-x86_64: { url: \"https://example.com/x\" } }", "versions": "{ url: \"https://example.com\", regex: \"(.*)\" }",
            "checksums": "{ url: \"https://example.com/SHA256SUMS\" }", "prebuilt": "false", "relocatable": "true", "build_env": "{ A: b }",
            "python": "python3", "index_url": "https://example.com/simple", "find_links": "/wheels", "extras": "[a]", "source": "https://example.com",
            "sdks": "[static-linux]", "minisign": "RWT+ocXWlNqWvrou0nldDB1llJd8bfHcY8r3dd66iHgj9X+mWtI1pUL4",
            "cosign": "\"-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExjQl2M+90GGUYabGlxlNvsHZqlqdowrbcA8M6M4dIhjCIGe0oBvddvFGvV1yqU9F4PBUNz21I3YW1ilPz6j7MA==\\n-----END PUBLIC KEY-----\"",
        ]
        for kind in BackendKind.allCases {
            for key in kind.ownKeys {
                let other = kind == .pip ? "gem: rake" : "pip: black"
                let version = key == "ref" ? "" : ", version: \"1.0\""
                let yml = "tools:\n  t: { \(other)\(version), \(key): \(values[key] ?? "x") }\n"
                #expect(throws: TackError.self) { _ = try Manifest.decode(Array(yml.utf8), path: "/tack.yml", kind: .manifest) }
                do { _ = try Manifest.decode(Array(yml.utf8), path: "/tack.yml", kind: .manifest) } catch {
                    #expect(error.message.contains("`\(key)` applies to \(kind.rawValue) tools"), "\(error.message)")
                }
            }
        }
    }

    @Test func traits() {
        #expect(BackendKind.allCases.filter(\.builds) == [.git, .asdf])
        #expect(BackendKind.allCases.filter(\.checksumsPerPlatform) == [.url])
        #expect(BackendKind.allCases.filter { $0.installRound == 0 }.contains(.swift), "a pinned toolchain installs before the builds that use it")
        #expect(BackendKind.git.installRound > BackendKind.swift.installRound)
        #expect(BackendKind.pip.installRound > BackendKind.git.installRound && BackendKind.gem.installRound > BackendKind.asdf.installRound)
        #expect(ToolSource.registry.kind == nil && ToolSource.git("x").kind == .git)
    }

    /// Each kind's option set owns its keys alone: no key is two kinds', none is shared as
    /// well, and a tool's mapping accepts each of them (the unknown-key list is built from them).
    @Test func eachKindsOptionsOwnTheirKeys() {
        let sets: [(BackendKind, [String])] = [(.git, GitOptions.keys), (.url, URLOptions.keys), (.pip, PipOptions.keys), (.gem, GemOptions.keys),
                                               (.asdf, AsdfOptions.keys), (.swift, SwiftOptions.keys)]
        for (kind, keys) in sets {
            #expect(Set(keys).isSubset(of: kind.ownKeys), "\(kind)")
            for other in BackendKind.allCases where other != kind {
                #expect(Set(keys).isDisjoint(with: other.ownKeys), "\(kind) and \(other) share \(Set(keys).intersection(other.ownKeys))")
            }
            #expect(Set(keys).isDisjoint(with: ToolOptions.sharedKeys))
            #expect(Set(keys).isSubset(of: Manifest.toolKeys))
        }
        #expect(Set(BackendKind.allCases.flatMap(\.ownKeys)).subtracting(["ref"]) == Set(sets.flatMap(\.1)), "every owned key belongs to an option set")
    }
}
