import Testing
import TackCore

/// `TACK_MIRRORS`: rules of the user's own, before the known mirror variables.
@Suite struct DownloadMirrorsTests {
    @Test func pairsOfURLsAndNothingElse() {
        let mirrors = DownloadMirrors(environment: [
            "TACK_MIRRORS": "https://releases.hashicorp.com=https://m.example/hc/ bad=https://x.example ftp://a=https://b.example https://github.com/x=http://127.0.0.1:1/x",
            "TACK_GITHUB_DOWNLOADS": "https://gh.example",
        ])
        #expect(mirrors.apply("https://releases.hashicorp.com/terraform/1.9.5/t.zip") == "https://m.example/hc/terraform/1.9.5/t.zip")
        #expect(mirrors.apply("https://github.com/x/releases/a") == "http://127.0.0.1:1/x/releases/a", "a rule of the user's own wins")
        #expect(mirrors.apply("https://github.com/y/releases/a") == "https://gh.example/y/releases/a")
        #expect(mirrors.apply("https://releases.hashicorp.comevil/x") == "https://releases.hashicorp.comevil/x", "a prefix ends at a /")
        #expect(mirrors.apply("ftp://a/x") == "ftp://a/x")
    }
}

/// `mirrors:` in the global manifest: rules in the file's order, after TACK_MIRRORS, before the
/// older variables; refused in a project's files.
@Suite struct ManifestMirrorsTests {
    @Test func theGlobalManifestsRulesInOrder() throws {
        let text = "mirrors:\n  https://github.com/acme: https://art.corp/acme/\n  https://github.com: https://art.corp/gh\n  https://nodejs.org/dist: file:///mnt/mirror/node\n"
        let m = try Manifest.decode(Array(text.utf8), path: "/h/.config/tack/tack.yml", kind: .globalManifest, backends: .standard)
        #expect(m.mirrors.map(\.from) == ["https://github.com/acme", "https://github.com", "https://nodejs.org/dist"])
        let mirrors = DownloadMirrors(environment: ["TACK_MIRRORS": "https://github.com/acme/x=https://ci.example/x", "TACK_GITHUB_DOWNLOADS": "https://old.example"], manifest: m.mirrors)
        #expect(mirrors.apply("https://github.com/acme/x/releases/a") == "https://ci.example/x/releases/a", "TACK_MIRRORS comes first")
        #expect(mirrors.apply("https://github.com/acme/y/a") == "https://art.corp/acme/y/a", "the first rule that fits wins")
        #expect(mirrors.apply("https://github.com/other/a") == "https://art.corp/gh/other/a", "before the older variables")
        #expect(mirrors.apply("https://nodejs.org/dist/v22/node.tar.xz") == "file:///mnt/mirror/node/v22/node.tar.xz")
    }

    @Test func refusedInAProjectAndWhenNotURLs() throws {
        #expect { try Manifest.decode(Array("mirrors:\n  https://github.com: https://art.corp/gh\n".utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard) } throws: {
            ($0 as? TackError)?.message.contains("/p/tack.yml:1:1: `mirrors` is read only from the global manifest") ?? false
        }
        for bad in ["github.com: https://a.example", "https://github.com: ftp://a.example", "file:///x: https://a.example", "https://a.example: [x]"] {
            #expect(throws: TackError.self, "\(bad)") {
                try Manifest.decode(Array("mirrors:\n  \(bad)\n".utf8), path: "/h/tack.yml", kind: .globalManifest, backends: .standard)
            }
        }
    }
}
