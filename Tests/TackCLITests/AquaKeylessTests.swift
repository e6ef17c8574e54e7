import Foundation
import TackCore
import Testing

/// The keyless signatures aqua's registry names for a package (issue 47): a cosign bundle of
/// the download or of its checksum file, GitHub's artifact attestations, SLSA provenance —
/// each made with the test's own Sigstore instance (Fixtures/sigstore.py) and served by a
/// fake GitHub on loopback, checked against the policy the (pinned) registry gives.
@Suite(.ownThreads) struct AquaKeylessTests {
    static let actions = "https://token.actions.githubusercontent.com"
    static let release = "https://github.com/acme/keyless/.github/workflows/release.yml@refs/tags/v1.0.0"
    static let builder = "https://github.com/slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@refs/tags/v2.1.0"
    static let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
    static let platforms = [("linux", "amd64", "linux-x86_64"), ("linux", "arm64", "linux-arm64"), ("darwin", "arm64", "darwin-arm64")]

    struct Fake {
        var s: Sandbox
        var server: FixtureServer
        var env: [String: String]
        var dir: String { s.root + "/www/gh/acme/keyless/releases/download/v1.0.0" }
        func asset(_ os: String = Platform.current.os, _ arch: String = AquaKeylessTests.goarch) -> String { dir + "/keyless-\(os)-\(arch)" }

        func sign(_ file: String, _ out: String, _ args: [String]) throws {
            try KeylessSignatureTests.python(["sign", s.root + "/sigstore", file, out] + args)
        }

        /// The cosign bundle of `file`, signed as `identity`.
        func cosign(_ file: String, identity: String = AquaKeylessTests.release, _ more: [String] = []) throws {
            try sign(file, file + ".sigstore.json", ["--identity", identity, "--repository", "https://github.com/acme/keyless"] + more)
        }

        /// GitHub's attestation of `file`.
        func attest(_ file: String, identity: String = AquaKeylessTests.release) throws {
            let bundle = s.root + "/attestation.json"
            try sign(file, bundle, ["--dsse", "https://slsa.dev/provenance/v1", "--identity", identity, "--repository", "https://github.com/acme/keyless"])
            try s.write("www/repos/acme/keyless/attestations/sha256:\(try sha256(file))", "{\"attestations\": [{\"bundle\": \(try String(contentsOfFile: bundle, encoding: .utf8))}]}")
        }

        /// slsa-github-generator's provenance of `file` (a bundle, as 2.1 and later write it).
        func provenance(_ file: String, repository: String = "https://github.com/acme/keyless", identity: String = AquaKeylessTests.builder) throws {
            try sign(file, file + ".intoto.jsonl", ["--dsse", "https://slsa.dev/provenance/v0.2", "--identity", identity, "--repository", repository])
        }

        func registry(_ signatures: String) throws {
            try s.write("registry.yaml", """
                packages:
                  - type: github_release
                    repo_owner: acme
                    repo_name: keyless
                    asset: keyless-{{.OS}}-{{.Arch}}
                    format: raw
                \(signatures)
                """)
        }

        var installed: Bool { FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/keyless/1.0.0/bin/keyless") }
        var lock: String { s.read("app/tack.lock") ?? "" }
        func tack(_ args: [String]) throws -> Sandbox.Result { try s.tack(args, in: "app", env: env) }
    }

    func fake() throws -> Fake {
        let s = try Sandbox()
        let dir = "www/gh/acme/keyless/releases/download/v1.0.0"
        try s.mkdir(dir)
        for (os, arch, _) in Self.platforms { try s.write("\(dir)/keyless-\(os)-\(arch)", "#!/bin/sh\necho keyless 1.0.0 \(os) \(arch)\n") }
        try s.write("www/repos/acme/keyless/releases/index.html", #"[{"tag_name": "v1.0.0"}]"#)
        try KeylessSignatureTests.python(["init", s.root + "/sigstore"])
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  keyless: { aqua: acme/keyless, version: 1.0.0 }\n")
        return Fake(s: s, server: server, env: [
            "TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": s.root + "/registry.yaml",
            "TACK_SIGSTORE_TRUSTED_ROOT": s.root + "/sigstore/trusted_root.json",
        ])
    }

    static let allThree = """
        cosign:
          bundle:
            type: github_release
            asset: "{{.Asset}}.sigstore.json"
          opts:
            - --certificate-identity
            - https://github.com/acme/keyless/.github/workflows/release.yml@refs/tags/{{.Version}}
            - --certificate-oidc-issuer
            - https://token.actions.githubusercontent.com
        github_artifact_attestations:
          signer_workflow: acme/keyless/\\.github/workflows/release\\.yml
        slsa_provenance:
          type: github_release
          asset: "{{.Asset}}.intoto.jsonl"

    """

    @Test func aPackageSignedThreeWaysIsCheckedEachWayAndItsSignersLocked() throws {
        let f = try fake()
        try f.registry(Self.allThree)
        try f.cosign(f.asset())
        try f.attest(f.asset())
        try f.provenance(f.asset())
        let r = try f.tack(["install"])
        #expect(r.status == 0 && f.installed, "\(r.stderr)")
        #expect(!r.stderr.contains("not verified"), "\(r.stderr)")
        #expect(f.lock.contains("\(Platform.current.description): \"sigstore:\(Self.actions) \(Self.release), slsa:\(Self.builder) https://github.com/acme/keyless@refs/tags/v1.0.0\""), "\(f.lock)")
        #expect(!f.lock.contains("signatures:"), "every signature is verified: \(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    @Test(arguments: ["cosign by another workflow", "no attestation", "provenance of another repository", "provenance by another builder", "cosign of another file",
                      "cosign by another issuer", "cosign log entry of another file", "cosign logged after the certificate expired"])
    func aSignatureThatDoesNotHoldInstallsNothing(_ attack: String) throws {
        let f = try fake()
        try f.registry(Self.allThree)
        let more: [String]
        switch attack {
        case "cosign of another file": more = ["--tamper", "artifact"]
        case "cosign by another issuer": more = ["--issuer", "https://accounts.google.com"]
        case "cosign log entry of another file": more = ["--tamper", "log-entry"]
        case "cosign logged after the certificate expired": more = ["--tamper", "time"]
        default: more = []
        }
        try f.cosign(f.asset(), identity: attack == "cosign by another workflow" ? "https://github.com/acme/keyless/.github/workflows/other.yml@refs/tags/v1.0.0" : Self.release, more)
        if attack != "no attestation" { try f.attest(f.asset()) }
        try f.provenance(f.asset(), repository: attack == "provenance of another repository" ? "https://github.com/mallory/keyless" : "https://github.com/acme/keyless",
                         identity: attack == "provenance by another builder" ? "https://github.com/mallory/generator/.github/workflows/builder.yml@refs/tags/v1.0.0" : Self.builder)
        let r = try f.tack(["install"])
        #expect(r.status == 1 && !f.installed, "\(attack): \(r)")
        let expected: String
        switch attack {
        case "cosign by another workflow": expected = "signed by https://github.com/acme/keyless/.github/workflows/other.yml@refs/tags/v1.0.0, not an identity matching"
        case "no attestation": expected = "GitHub keeps no attestation of keyless 1.0.0"
        case "provenance of another repository": expected = "the signature was made for https://github.com/mallory/keyless, not https://github.com/acme/keyless"
        case "provenance by another builder": expected = "signed by https://github.com/mallory/generator/"
        case "cosign by another issuer": expected = "the signer's identity was issued by https://accounts.google.com, not https://token.actions.githubusercontent.com"
        case "cosign log entry of another file": expected = "transparency log entry 0 records another artifact digest than the bundle"
        case "cosign logged after the certificate expired": expected = "outside the signing certificate's validity"
        default: expected = "signature: it does not verify with the signer's key"
        }
        #expect(r.stderr.contains(expected) && r.stderr.contains("nothing was installed"), "\(attack): \(r.stderr)")
        withExtendedLifetime(f.server) {}
    }

    /// Provenance in slsa-github-generator's old format (a bare DSSE envelope, no log proof):
    /// said, not verified; the rest still is.
    @Test func oldStyleProvenanceIsSaidNotVerified() throws {
        let f = try fake()
        try f.registry(Self.allThree)
        try f.cosign(f.asset())
        try f.attest(f.asset())
        try f.s.write("www/gh/acme/keyless/releases/download/v1.0.0/keyless-\(Platform.current.os)-\(Self.goarch).intoto.jsonl",
                      #"{"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[{"keyid":"","sig":"MEUC"}]}"#)
        let r = try f.tack(["install"])
        #expect(r.status == 0 && f.installed, "\(r.stderr)")
        #expect(r.stderr.contains("not verified: the SLSA provenance aqua's registry names for keyless 1.0.0 is in slsa-github-generator's old format"), "\(r.stderr)")
        withExtendedLifetime(f.server) {}
    }

    /// A cosign bundle of the checksum file: the file is used only when it holds.
    @Test func aKeylessSignedChecksumFile() throws {
        let f = try fake()
        var sums = ""
        for (os, arch, _) in Self.platforms { sums += "\(try sha256(f.asset(os, arch)))  keyless-\(os)-\(arch)\n" }
        try f.s.write("www/gh/acme/keyless/releases/download/v1.0.0/checksums.txt", sums)
        try f.registry("""
                checksum:
                  type: github_release
                  asset: checksums.txt
                  algorithm: sha256
                  cosign:
                    bundle:
                      type: github_release
                      asset: checksums.txt.sigstore.json
                    opts:
                      - --certificate-identity-regexp
                      - ^https://github\\.com/acme/keyless/
                      - --certificate-oidc-issuer
                      - https://token.actions.githubusercontent.com

            """)
        try f.cosign(f.dir + "/checksums.txt")
        let good = try f.tack(["install"])
        #expect(good.status == 0 && f.installed && !good.stderr.contains("not verified"), "\(good.stderr)")
        // Signed by a stranger: the checksum file is not used, nothing is installed.
        try f.cosign(f.dir + "/checksums.txt", identity: "https://github.com/mallory/keyless/.github/workflows/release.yml@refs/tags/v1.0.0")
        try FileManager.default.removeItem(atPath: f.s.root + "/app/tack.lock")
        let bad = try f.s.tack(["install"], in: "app", env: f.env.merging(["TACK_HOME": f.s.root + "/home2"]) { $1 })
        #expect(bad.status == 1 && bad.stderr.contains("keyless 1.0.0's checksums failed its sigstore signature check"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.s.root + "/home2/installs/keyless/1.0.0"))
        withExtendedLifetime(f.server) {}
    }

    /// `tack lock` for three platforms checks each platform's signatures.
    @Test func aLockOfThreePlatformsChecksEachPlatformsSignatures() throws {
        let f = try fake()
        try f.registry(Self.allThree)
        for (os, arch, _) in Self.platforms {
            try f.cosign(f.asset(os, arch))
            try f.attest(f.asset(os, arch))
            try f.provenance(f.asset(os, arch))
        }
        let args = ["lock"] + Self.platforms.flatMap { ["--platform", $0.2] }
        let r = try f.tack(args)
        #expect(r.status == 0, "\(r.stderr)")
        for (_, _, p) in Self.platforms {
            #expect(f.lock.contains("\(p): \"sigstore:\(Self.actions) \(Self.release), slsa:\(Self.builder) https://github.com/acme/keyless@refs/tags/v1.0.0\""), "\(p): \(f.lock)")
        }
        // Offline, with nothing served: every platform's kept signatures are checked again.
        try FileManager.default.moveItem(atPath: f.s.root + "/www", toPath: f.s.root + "/www-gone")
        let offline = try f.tack(["lock", "--verify", "--offline"])
        #expect(offline.status == 0 && offline.stderr.contains("verified 3 downloads from the download cache, with no network"), "\(offline.stderr)")
        try FileManager.default.moveItem(atPath: f.s.root + "/www-gone", toPath: f.s.root + "/www")
        // One platform's provenance now another repository's: locking it again refuses.
        try f.provenance(f.asset("linux", "arm64"), repository: "https://github.com/mallory/keyless")
        try FileManager.default.removeItem(atPath: f.s.root + "/app/tack.lock")
        let again = try f.tack(args)
        #expect(again.status == 1 && again.stderr.contains("(linux-arm64)") && again.stderr.contains("https://github.com/mallory/keyless"), "\(again.stderr)")
        withExtendedLifetime(f.server) {}
    }
}
