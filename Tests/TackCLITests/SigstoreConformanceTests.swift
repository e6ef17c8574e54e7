import Foundation
import Testing

/// The sigstore-conformance suite's `bundle-verify` cases (Fixtures/sigstore-conformance),
/// through `tack verify` as the suite's harness runs a client: every happy path verifies,
/// every `_fail` case is refused, each with the file and with its digest.
@Suite(.ownThreads) struct SigstoreConformanceTests {
    static let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sigstore-conformance/bundle-verify").path
    static let beacon = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main"
    static let actions = "https://token.actions.githubusercontent.com"

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cases)) ?? []).filter {
            FileManager.default.fileExists(atPath: cases + "/" + $0 + "/bundle.sigstore.json")
        }.sorted()
    }

    /// The arguments the harness passes for a case, with the file or its digest last.
    static func arguments(_ name: String, digest: Bool) throws -> [String] {
        let dir = cases + "/" + name
        func file(_ f: String) -> String? { FileManager.default.fileExists(atPath: dir + "/" + f) ? dir + "/" + f : nil }
        func text(_ f: String) throws -> String? { try file(f).map { try String(contentsOfFile: $0, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) } }
        var args = ["verify", "--bundle", dir + "/bundle.sigstore.json"]
        if let key = file("key.pub") {
            args += ["--key", key]
        } else {
            args += ["--certificate-identity", try text("identity") ?? beacon, "--certificate-oidc-issuer", try text("issuer") ?? actions]
        }
        if let root = file("trusted_root.json") { args += ["--trusted-root", root] }
        let artifact = file("artifact") ?? cases + "/a.txt"
        if digest {
            args.append("sha256:" + (try sha256(artifact)))
        } else {
            args.append(artifact)
        }
        return args
    }

    @Test func theSuiteHasItsCases() {
        #expect(Self.names.count == 70)
        #expect(Self.names.filter { !$0.hasSuffix("fail") }.count == 21)
    }

    @Test(arguments: names) func bundleVerify(_ name: String) throws {
        let s = try Sandbox()
        for digest in [false, true] {
            let r = try s.tack(try Self.arguments(name, digest: digest))
            if name.hasSuffix("fail") {
                // A malformed trusted root is said as such; everything else as the bundle's failure.
                let said = name.hasPrefix("trust-root-") ? "the Sigstore trusted root" : "does not verify"
                #expect(r.status == 1 && r.stdout == "" && r.stderr.hasPrefix("tack: ") && r.stderr.contains(said), "\(name) (digest: \(digest)): \(r)")
            } else {
                #expect(r.status == 0 && r.stdout.hasPrefix("verified") && r.stderr == "", "\(name) (digest: \(digest)): \(r)")
            }
        }
    }
}
