@testable import Backends
import BackendKinds
import TackCore
import Testing

/// Each backend's typed lock record: what it reads from an entry is what it writes back, and
/// a field of the wrong kind (a list where a commit belongs, hand-edited or hostile) reads as
/// absent rather than as something else.
@Suite(.ownThreads) struct LockRecordTests {
    static let commit = String(repeating: "c", count: 40), sum = String(repeating: "d", count: 64)

    @Test func recordsRoundTripThroughTheirFields() {
        let git = GitLockRecord(commit: Self.commit, tag: "v1.0.0")
        #expect(GitLockRecord(git.fields) == git && git.fullCommit == Self.commit)
        #expect(GitLockRecord(commit: "main").fullCommit == nil, "a branch name is not a commit")
        let url = URLLockRecord(sha256: ["linux-x86_64": Self.sum])
        #expect(URLLockRecord(url.fields) == url && URLLockRecord(sha256: [:]).fields.isEmpty)
        let asdf = AsdfLockRecord(pluginCommit: Self.commit)
        #expect(AsdfLockRecord(asdf.fields) == asdf)
        let gem = GemLockRecord(gems: ["rake": "13.2.1"], sha256: ["rake-13.2.1.gem": Self.sum])
        #expect(GemLockRecord(gem.fields) == gem)
        var swift = SwiftLockRecord(["tag": .string("swift-6.0.3-RELEASE")])
        swift.record("ubuntu2204-x86_64", sha256: Self.sum, signer: "ABCD", archive: "swift.tar.gz", path: "swift-6.0.3-release/ubuntu2204/swift-6.0.3-RELEASE/swift.tar.gz")
        #expect(SwiftLockRecord(swift.fields) == swift)
        let pip = PipLockRecord([PipPin(name: "black", version: "24.1.0", hashes: [Self.sum])])
        #expect(PipLockRecord(pip.fields) == pip)
    }

    @Test func aFieldOfTheWrongKindReadsAsAbsent() {
        #expect(GitLockRecord(["commit": .list([Self.commit]), "tag": .map([:])]) == GitLockRecord(commit: nil))
        #expect(URLLockRecord(["sha256": .string(Self.sum)]).sha256.isEmpty)
        #expect(AsdfLockRecord(["plugin-commit": .map(["a": "b"])]).pluginCommit == nil)
        #expect(GemLockRecord(["gems": .string("rake")]).gems.isEmpty)
        #expect(SwiftLockRecord(["tag": .list(["swift-6.0.3-RELEASE"])]).tag == nil)
    }
}
