import Foundation
import Sigstore
import Testing

/// Hostile bundles and trusted roots reach the verifier from the network and from files: cut
/// short or changed anywhere, they are refused with an error, never a trap, and never verify.
@Suite struct SigstoreHostileTests {
    static let cases = SigstoreConformanceTests.cases

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static let policy = SigstorePolicy.certificate(identity: .exact(SigstoreConformanceTests.beacon), issuer: SigstoreConformanceTests.actions)

    func verifies(_ bundle: [UInt8], root: TrustedRoot, artifact: [UInt8]) -> Bool {
        guard let parsed = try? SigstoreBundle.parse(bundle) else { return false }
        return (try? BundleVerifier(root: root).verify(parsed, artifact: .bytes(artifact), policy: Self.policy)) != nil
    }

    @Test(arguments: ["happy-path-v0.3", "rekor2-happy-path", "happy-path-intoto-in-dsse-v3"])
    func aBundleCutShortOrChangedNeverVerifies(_ name: String) throws {
        let bundle = try Self.bytes("\(Self.cases)/\(name)/bundle.sigstore.json")
        let artifact = try Self.bytes("\(Self.cases)/a.txt")
        let rootFile = "\(Self.cases)/\(name)/trusted_root.json"
        let root = FileManager.default.fileExists(atPath: rootFile) ? try TrustedRoot.parse(try Self.bytes(rootFile)) : try TrustedRoot.publicGood()
        let itself = verifies(bundle, root: root, artifact: artifact)
        #expect(itself, "the case itself verifies")
        var generator = SystemRandomNumberGenerator()
        // Cut anywhere before its last brace: never JSON that verifies.
        let end = try #require(bundle.lastIndex(of: UInt8(ascii: "}")))
        for _ in 0..<150 {
            let cut = Int.random(in: 0..<end, using: &generator)
            let verified = verifies(Array(bundle[..<cut]), root: root, artifact: artifact)
            #expect(!verified, "cut at \(cut) of \(bundle.count)")
        }
        // A base64 character of a signature, a proof hash or the certificate changed.
        let text = String(decoding: bundle, as: UTF8.self)
        var changed = 0
        for key in ["\"signature\"", "\"rawBytes\"", "\"rootHash\"", "\"signedEntryTimestamp\"", "\"canonicalizedBody\"", "\"sig\"", "\"payload\""] {
            guard let at = text.range(of: key + ":\"") ?? text.range(of: key + ": \"") else { continue }
            var b = bundle
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: at.upperBound.samePosition(in: text.utf8) ?? text.utf8.startIndex) + 10
            guard offset < b.count else { continue }
            b[offset] = b[offset] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let verified = verifies(b, root: root, artifact: artifact)
            #expect(!verified, "\(key) changed")
            changed += 1
        }
        #expect(changed >= 3)
        // Random bytes anywhere: no trap (whatever the outcome).
        for _ in 0..<300 {
            var b = bundle
            b[Int.random(in: 0..<b.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = verifies(b, root: root, artifact: artifact)
        }
    }

    @Test func hostileTrustedRootsAreRefused() throws {
        let root = try Self.bytes("\(Self.cases)/rekor2-happy-path/trusted_root.json")
        for cut in stride(from: 0, to: root.count, by: max(1, root.count / 97)) {
            #expect(throws: SigstoreError.self) { _ = try TrustedRoot.parse(Array(root[..<cut])) }
        }
        for hostile in ["[]", "{\"tlogs\": 5}", "{\"tlogs\": [{\"publicKey\": {\"rawBytes\": \"!!\"}}]}", "{\"certificateAuthorities\": [{\"certChain\": {\"certificates\": [{\"rawBytes\": \"AAAA\"}]}}]}",
                        "{\"tlogs\": [{\"logId\": {\"keyId\": \"AA==\"}, \"publicKey\": {\"rawBytes\": \"AA==\", \"validFor\": {\"start\": \"yesterday\"}}}]}"] {
            #expect(throws: SigstoreError.self, "\(hostile)") { _ = try TrustedRoot.parse(Array(hostile.utf8)) }
        }
    }
}
