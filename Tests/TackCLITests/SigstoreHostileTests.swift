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

/// Bundles and trusted roots made from the conformance cases to pass where a check was
/// missing: each verified before its check was added, through `tack verify`.
@Suite(.ownThreads) struct SigstoreLooseningTests {
    static let cases = SigstoreConformanceTests.cases

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static func write(_ object: Any, _ path: String) throws {
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// `tack verify` of `bundle` (with `root`, else the public-good one) for a.txt, as the beacon.
    func verify(_ s: Sandbox, bundle: [String: Any], root: [String: Any]? = nil) throws -> Sandbox.Result {
        try Self.write(bundle, s.root + "/bundle.json")
        var args = ["verify", "--bundle", s.root + "/bundle.json", "--certificate-identity", SigstoreConformanceTests.beacon,
                    "--certificate-oidc-issuer", SigstoreConformanceTests.actions]
        if let root {
            try Self.write(root, s.root + "/root.json")
            args += ["--trusted-root", s.root + "/root.json"]
        }
        return try s.tack(args + [Self.cases + "/a.txt"])
    }

    func entries(_ bundle: [String: Any]) throws -> [[String: Any]] {
        try #require((bundle["verificationMaterial"] as? [String: Any])?["tlogEntries"] as? [[String: Any]])
    }

    func with(_ bundle: [String: Any], entries: [[String: Any]]) -> [String: Any] {
        var b = bundle
        var material = b["verificationMaterial"] as? [String: Any] ?? [:]
        material["tlogEntries"] = entries
        b["verificationMaterial"] = material
        return b
    }

    @Test func aV3EntryWithoutItsOwnProofDoesNotBorrowAnothers() throws {
        let s = try Sandbox()
        let bundle = try Self.json(Self.cases + "/happy-path-v0.3/bundle.sigstore.json")
        #expect(try verify(s, bundle: bundle).status == 0)
        let entry = try #require(try entries(bundle).first)
        // A: the real entry with its signed promise but no proof. B: a copy from a log the root
        // does not list, which keeps the proof (and is skipped).
        var promiseOnly = entry
        promiseOnly["inclusionProof"] = nil
        var elsewhere = entry
        elsewhere["logId"] = ["keyId": Data(repeating: 7, count: 32).base64EncodedString()]
        let r = try verify(s, bundle: with(bundle, entries: [promiseOnly, elsewhere]))
        #expect(r.status == 1 && r.stderr.contains("log entries need an inclusion proof"), "\(r.stderr)")
    }

    @Test func oneLogEntryTwiceIsRefused() throws {
        let s = try Sandbox()
        let bundle = try Self.json(Self.cases + "/happy-path-v0.3/bundle.sigstore.json")
        let entry = try #require(try entries(bundle).first)
        let r = try verify(s, bundle: with(bundle, entries: [entry, entry]))
        #expect(r.status == 1 && r.stderr.contains("it is the same log entry as another in the bundle"), "\(r.stderr)")
    }

    @Test func aTrustedRootWithNoCertificateTransparencyLogVerifiesNoCertificate() throws {
        let s = try Sandbox()
        let bundle = try Self.json(Self.cases + "/happy-path-v0.3/bundle.sigstore.json")
        var root = try Self.json("Sources/Sigstore/Resources/trusted_root.json".withPackageRoot)
        #expect(try verify(s, bundle: bundle, root: root).status == 0)
        root["ctlogs"] = [Any]()
        let r = try verify(s, bundle: bundle, root: root)
        #expect(r.status == 1 && r.stderr.contains("the trusted root lists no certificate transparency log"), "\(r.stderr)")
    }

    /// The root names the timestamp authority's own certificate: a token signed by any other
    /// (here, the authority's real one, which the token carries) does not count.
    @Test func aTimestampMustBeSignedByTheCertificateTheRootNames() throws {
        let s = try Sandbox()
        let dir = Self.cases + "/rekor2-timestamp-with-embedded-cert"
        let bundle = try Self.json(dir + "/bundle.sigstore.json")
        var root = try Self.json(dir + "/trusted_root.json")
        #expect(try verify(s, bundle: bundle, root: root).status == 0)
        // Another certificate under the same root in the authority's place: the bundle's own
        // signing certificate (not a CA).
        let signing = try #require(((bundle["verificationMaterial"] as? [String: Any])?["certificate"] as? [String: Any])?["rawBytes"] as? String)
        var authorities = try #require(root["timestampAuthorities"] as? [[String: Any]])
        var chain = try #require((authorities[0]["certChain"] as? [String: Any])?["certificates"] as? [[String: Any]])
        chain[0] = ["rawBytes": signing]
        authorities[0]["certChain"] = ["certificates": chain]
        root["timestampAuthorities"] = authorities
        let r = try verify(s, bundle: bundle, root: root)
        #expect(r.status == 1 && r.stderr.contains("the timestamp is not signed by the authority's certificate the trusted root names"), "\(r.stderr)")
    }
}

extension String {
    /// A path in the package, from this test file's place.
    var withPackageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(self).path
    }
}
