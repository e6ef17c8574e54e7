import BackendKinds
import TackCore
import Testing

/// Trust is a file's path and the SHA-256 of its bytes: an edit undoes it, the user's own
/// files need none, and a path that could forge a line of the store is never trusted.
@Suite struct TrustStoreTests {
    func settings(_ fs: InMemoryFileSystem) -> Settings {
        Settings(environment: ["HOME": "/home/u", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
    }

    @Test func trustHoldsForTheBytesItWasGivenAndNoOthers() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  jq: 1.7.1\n"])
        let store = try #require(settings(fs).store)
        let bytes = try fs.read("/work/app/tack.yml")
        try TrustStore(store: store).trust("/work/app/tack.yml", hash: SHA256Digest.hex(bytes))
        #expect(TrustPolicy(settings: settings(fs)).isTrusted("/work/app/tack.yml"))
        try fs.writeAtomically("/work/app/tack.yml", Array("tools:\n  jq: 1.7.1\nenv:\n  EVIL: 1\n".utf8))
        #expect(!TrustPolicy(settings: settings(fs)).isTrusted("/work/app/tack.yml"), "an edit undoes trust")
        #expect(try TrustStore(store: store).untrust("/work/app/tack.yml"))
        #expect(try !TrustStore(store: store).untrust("/work/app/tack.yml"), "nothing left to forget")
    }

    @Test func theUsersOwnFilesNeedNoTrustAndForgedPathsGetNone() throws {
        let fs = InMemoryFileSystem(files: ["/home/u/.config/tack/tack.yml": "tools: {}\n", "/work/a\nb/tack.yml": "tools: {}\n"])
        let policy = TrustPolicy(settings: settings(fs))
        #expect(policy.isTrusted(try #require(settings(fs).globalManifest)))
        #expect(!policy.isTrusted("/work/a\nb/tack.yml"))
        #expect(!policy.isTrusted("/work/missing/tack.yml"))
        let store = try #require(settings(fs).store)
        #expect(throws: TackError.self) { try TrustStore(store: store).trust("/work/a\nb/tack.yml", hash: String(repeating: "0", count: 64)) }
    }

    @Test func aPathPinNeedsTrustAndAnswersWhereItPoints() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  x: { path: bin }\n"])
        let pin = ToolRequest(name: "x", requirement: .path("bin"), origin: Origin(kind: .manifest, file: "/work/app/tack.yml", line: 2, column: 3))
        #expect(TrustPolicy(settings: settings(fs)).pathRoot(pin) == nil)
        let store = try #require(settings(fs).store)
        try TrustStore(store: store).trust("/work/app/tack.yml", hash: SHA256Digest.hex(try fs.read("/work/app/tack.yml")))
        #expect(TrustPolicy(settings: settings(fs)).pathRoot(pin) == "/work/app/bin")
        var home = pin
        home.requirement = .path("~/tools")
        #expect(TrustPolicy(settings: settings(fs)).pathRoot(home) == "/home/u/tools")
    }
}
