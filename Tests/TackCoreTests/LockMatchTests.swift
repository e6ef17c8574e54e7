import Testing
@testable import TackCore

/// `LockMatch`: the one rule for "does this tack.lock entry still describe this pin".
@Suite struct LockMatchTests {
    let repo = "https://example.com/lint.git"

    func pin(_ requirement: String, source: ToolSource? = nil, options: ToolOptions = ToolOptions()) throws -> ToolRequest {
        ToolRequest(name: "lint", requirement: try Requirement.parse(requirement), source: source ?? .git(repo), options: options,
                    origin: Origin(kind: .manifest, file: "/app/tack.yml", line: 2, column: 3))
    }

    func entry(_ version: String, requested: String, backend: String = "git", source: String? = nil, fields: [String: LockValue] = [:]) throws -> LockedTool {
        LockedTool(name: "lint", version: try #require(Version(version)), requested: requested, backend: backend, source: source ?? repo, fields: fields)
    }

    @Test func anEntryWrittenForThePinMatches() throws {
        let match = LockMatch(pinOnly: try pin("~> 1.2"))
        #expect(match.disagreements(try entry("1.4.0", requested: "~> 1.2")) == [])
        #expect(match.matches(try entry("1.4.0", requested: "~> 1.2")))
    }

    @Test func eachDisagreementIsNamed() throws {
        let match = LockMatch(pinOnly: try pin("~> 1.2"))
        #expect(match.disagreements(try entry("1.4.0", requested: "~> 1.1")) == [.requirement(pinned: "~> 1.2", locked: "~> 1.1")])
        #expect(match.disagreements(try entry("1.4.0", requested: "~> 1.2", source: "https://example.com/fork.git"))
            == [.source(pinned: "git \(repo)", locked: "git https://example.com/fork.git")])
        #expect(match.disagreements(try entry("2.0.0", requested: "~> 1.2")) == [.versionOutside(locked: "2.0.0", requirement: "~> 1.2")])
        #expect(match.disagreements(try entry("1.4.0", requested: "~> 1.2", fields: ["ref": .string("main")]))
            == [.unaskedRef("main", pinned: "~> 1.2")])
        #expect(match.disagreements(try entry("1.4.0", requested: "~> 1.2", fields: ["options": .map(["bin": "lint"])])) == [.options(["bin"])])
    }

    @Test func aRefPinNeedsItsRef() throws {
        let match = LockMatch(pinOnly: try pin("ref:main"))
        let requested = try Requirement.parse("ref:main").description
        #expect(match.disagreements(try entry("0.0.0-main", requested: requested)) == [.missingRef("main")])
        #expect(match.disagreements(try entry("0.0.0-main", requested: requested, fields: ["ref": .string("dev")])) == [.ref(pinned: "main", locked: "dev")])
        #expect(match.matches(try entry("0.0.0-main", requested: requested, fields: ["ref": .string("main")])))
    }

    @Test func aUrlEntryMustAgreeWithTheManifestsChecksumAndHaveOneToInstallFrozen() throws {
        var options = ToolOptions()
        let here = Platform.current.description
        options.url.checksum = String(repeating: "a", count: 64)
        let match = LockMatch(pinOnly: try pin("1.0.0", source: .url("https://example.com/lint-{version}"), options: options))
        let src = "https://example.com/lint-{version}"
        let agreeing = try entry("1.0.0", requested: "1.0.0", backend: "url", source: src,
                                 fields: ["sha256": .map([here: String(repeating: "a", count: 64)]), "options": .map(options.lockRecord)])
        #expect(match.isReadyToInstall(agreeing))
        let other = try entry("1.0.0", requested: "1.0.0", backend: "url", source: src,
                              fields: ["sha256": .map([here: String(repeating: "b", count: 64)]), "options": .map(options.lockRecord)])
        #expect(match.disagreements(other) == [.checksum(platform: here, pinned: String(repeating: "a", count: 64), locked: String(repeating: "b", count: 64))])
        let none = try entry("1.0.0", requested: "1.0.0", backend: "url", source: src, fields: ["options": .map(options.lockRecord)])
        #expect(match.matches(none) && !match.isReadyToInstall(none), "locked, but --frozen cannot verify it")
    }

    @Test func aToolOnlyTheRegistryNamesIsComparedByItsRequirement() throws {
        let match = LockMatch(pinOnly: try pin("1.7.1", source: .registry))
        #expect(match.source == nil)
        #expect(match.matches(try entry("1.7.1", requested: "1.7.1", backend: "url", source: "https://jq.example/{version}", fields: ["options": .map(["bin": "jq"])])))
        #expect(!match.matches(try entry("1.7.1", requested: "1.6")))
    }

    @Test func messagesSayWhereThePinWasSet() {
        let d = LockDisagreement.requirement(pinned: "~> 1.2", locked: "~> 1.1")
        #expect(d.message == "the requirement is ~> 1.2, but tack.lock was resolved for ~> 1.1")
        #expect(d.message(setBy: "(set by tack.yml:2)") == "the requirement is ~> 1.2 (set by tack.yml:2), but tack.lock was resolved for ~> 1.1")
        #expect(LockDisagreement.options(["bin", "build"]).message(setBy: "(x)") == "the options differ from tack.lock's (bin, build) (x)")
    }
}
