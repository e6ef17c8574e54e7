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
