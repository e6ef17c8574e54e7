import Testing
@testable import TackCore

/// nvm's cases for .nvmrc: the fixtures of `nvm-sh/nvmrc` (test/fixtures/valid and
/// test/fixtures/invalid) that nvm's `test/fast/Unit tests/nvm_process_nvmrc` runs, and that
/// package's own unit tests, in tack's words. The fixture or test name is beside each case.
@Suite struct PeerNvmTests {
    @Test(arguments: [
        ("valid/basic-comments", "v20\n\n# this is a comment\n", "20"),
        ("valid/basic-with-npm", "node\nnpm=10\n", "latest"),
        ("valid/pair-value-with-equals", "20\nmirror=https://example.com/dist?arch=x64\n", "20"),
        ("valid/bom-in-key", "\u{FEFF}npm=10\n20\n", "20"),
        ("valid/bom-version", "\u{FEFF}20\n", "20"),
        ("valid/crlf-comment-line", "20\r\n# a comment\r\n", "20"),
        ("valid/crlf-comment-with-equals", "20\r\n# npm=10 is required\r\n", "20"),
        ("valid/crlf-inline-comment", "20 # pinned\r\n", "20"),
        ("returns success: true with options for valid content", "lts/*", "lts/*"),
        ("handles key=value pairs", "20\nnpm=10\nyarn=1.22", "20"),
        ("strips comments", "20 # this is node version\n# full line comment\nnpm=10 # npm version", "20"),
        ("(issue) the newest release", "node\n", "latest"),
        ("(issue) stable is the newest release", "stable\n", "latest"),
        ("(issue) the newest of an LTS line", "lts/hydrogen\n", "lts/hydrogen"),
        ("nvm install with nonlowercase LTS name", "lts/Hydrogen\n", "lts/hydrogen"),
        ("(tack) an exact version", "v20.11.1\n", "20.11.1"),
        ("(tack) system", "system\n", "system"),
    ])
    func valid(_ fixture: String, _ text: String, _ expected: String) throws {
        #expect(try versions(.nvmrc, text) == [expected], "\(fixture)")
    }

    /// nvm refuses these; tack warns and lets the file pin nothing.
    @Test(arguments: [
        ("invalid/bare-and-leading-eq", "20\n=foo\n"),
        ("invalid/leading-eq-with-pair", "20\n=foo\nnpm=10\n"),
        ("invalid/lone-cr-line", "20\rnpm=1\n"),
        ("invalid/unpaired-and-node", "node\nnode=iojs # oops\n"),
        ("invalid/duplicate-pairs", "node\nnpm=3\nnpm=4\n"),
        ("invalid/caret", "^20\n"),
        ("invalid/tilde", "~20\n"),
        ("invalid/gt", ">20\n"),
        ("invalid/gte", ">=20\n"),
        ("invalid/lt", "<20\n"),
        ("invalid/lte", "<=20\n"),
        ("invalid/eq", "=20\n"),
        ("returns false when no node key", "npm=10\n"),
        ("returns false when multiple bare values", "20\n22\n"),
        ("(issue) io.js is not supported", "iojs\n"),
        ("(issue) io.js is not supported", "iojs-v3.3.1\n"),
        ("(tack) a path", "../../x\n"),
        ("(tack) an LTS line that is not a codename", "lts/-1\n"),
    ])
    func invalid(_ fixture: String, _ text: String) {
        #expect(isUnreadable(.nvmrc, text), "\(fixture)")
    }

    /// invalid/crlf-comments-only and only-comments: nvm refuses a file without a version;
    /// tack reads it as pinning nothing, without a warning (a file of comments says nothing).
    @Test(arguments: ["# just a comment\r\n", "# a comment\n# another\n", "", "\n\n"])
    func commentsOnlyPinNothing(_ text: String) throws {
        #expect(try versions(.nvmrc, text) == nil)
    }

    /// .node-version takes the same words as the first line of an .nvmrc.
    @Test func nodeVersionFile() throws {
        #expect(try versions(.nodeVersion, "lts/iron\n") == ["lts/iron"])
        #expect(try versions(.nodeVersion, "v20.11.1\r\n") == ["20.11.1"])
        #expect(isUnreadable(.nodeVersion, "iojs\n"))
    }

    /// `lts/*` selects the newest release of any LTS line; `lts/<codename>` the newest of
    /// that line; `node` the newest release, as nvm resolves them from node's release index.
    @Test func aliasesSelectFromTheIndex() {
        let index = [
            AvailableVersion(version: Version("22.1.0")!, lts: nil),
            AvailableVersion(version: Version("20.11.1")!, lts: "Iron"),
            AvailableVersion(version: Version("20.9.0")!, lts: "Iron"),
            AvailableVersion(version: Version("20.8.0")!, lts: nil),
            AvailableVersion(version: Version("18.19.0")!, lts: "Hydrogen"),
        ]
        #expect(Requirement.lts(nil).best(of: index)?.version.text == "20.11.1")
        #expect(Requirement.lts("hydrogen").best(of: index)?.version.text == "18.19.0")
        #expect(Requirement.lts("argon").best(of: index) == nil)
        #expect(Requirement.latest.best(of: index)?.version.text == "22.1.0")
    }
}
