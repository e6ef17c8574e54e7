import Foundation
import Testing
import TackCore
@testable import Backends

/// Keyless (Sigstore) signatures on url downloads (issue 47): a Sigstore instance of the
/// test's own (Fixtures/sigstore.py: a certificate authority, a transparency log, a CT log,
/// and the trusted root tack is given with TACK_SIGSTORE_TRUSTED_ROOT), bundles made with it
/// beside each download (`URL.sigstore.json`, as publishers put them), served on loopback.
@Suite(.ownThreads) struct KeylessSignatureTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sigstore.py").path
    static let workflow = "https://github.com/acme/tool/.github/workflows/release.yml"
    static let actions = "https://token.actions.githubusercontent.com"

    struct Fixture {
        let s: Sandbox
        let server: FixtureServer
        var env: [String: String] { ["TACK_SIGSTORE_TRUSTED_ROOT": s.root + "/sigstore/trusted_root.json"] }

        func file(_ platform: String) -> String { s.root + "/www/tool-\(platform).tar.gz" }

        /// Signs `platform`'s download as `identity` (with a hostile change, `tamper`).
        func sign(_ platform: String, identity: String = KeylessSignatureTests.workflow + "@refs/tags/v1.0.0", issuer: String = KeylessSignatureTests.actions, tamper: String? = nil) throws {
            var args = ["sign", s.root + "/sigstore", file(platform), file(platform) + ".sigstore.json", "--identity", identity, "--issuer", issuer]
            if let tamper { args += ["--tamper", tamper] }
            try KeylessSignatureTests.python(args)
        }

        /// The tool's pin with `signing` (lines of its mapping, indented four spaces).
        func pin(_ signing: String) throws {
            try s.write("app/tack.yml", """
                tools:
                  tool:
                    url: "\(server.url("files/tool-{os}-{arch}.tar.gz"))"
                    version: 1.0.0
                    bin: shellcheck-v{version}/shellcheck

                """ + signing)
        }

        func manifest(identity: String = KeylessSignatureTests.workflow + "@refs/tags/v*", issuer: String = KeylessSignatureTests.actions) throws {
            try pin("    signer:\n      issuer: \(issuer)\n      identity: \(identity)\n")
        }

        func tack(_ args: [String], env extra: [String: String] = [:]) throws -> Sandbox.Result {
            try s.tack(args, in: "app", env: env.merging(extra) { $1 })
        }

        var installed: Bool { FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/tool/1.0.0/bin/shellcheck") }
        var lock: String { s.read("app/tack.lock") ?? "" }
    }

    /// The interpreter with `cryptography`: the system's (Debian's python3-cryptography, which
    /// `./bootstrap.sh --dev` installs), else the one on PATH.
    static let interpreter: String = {
        let system = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: system) else { return FixtureServer.python }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: system)
        p.arguments = ["-c", "import cryptography"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return FixtureServer.python }
        p.waitUntilDone()
        return p.terminationStatus == 0 ? system : FixtureServer.python
    }()

    static func python(_ args: [String]) throws {
        try FixturePython.check([script] + args, interpreter: interpreter)
    }

    static let platforms = ["linux-x86_64", "linux-arm64", "darwin-arm64"]

    func setUp() throws -> Fixture {
        let s = try Sandbox()
        try s.mkdir("www")
        for p in Self.platforms { try FixtureServer.archive("tar.gz", s.root + "/www/tool-\(p).tar.gz", version: "1.0.0") }
        try Self.python(["init", s.root + "/sigstore"])
        return Fixture(s: s, server: try FixtureServer(serving: s.root + "/www"))
    }

    static var here: String { Platform.current.description }

    @Test func aKeylessSignedDownloadIsCheckedAndItsSignerLocked() throws {
        let f = try setUp()
        try f.sign(Self.here)
        try f.manifest()
        let r = try f.tack(["install"])
        #expect(r.status == 0 && f.installed, "\(r.stderr)")
        let signer = "sigstore:\(Self.actions) \(Self.workflow)@refs/tags/v1.0.0"
        #expect(f.lock.contains("signed-by:\n      \(Self.here): \"\(signer)\""), "\(f.lock)")
        // The bill of materials says who signed; doctor has nothing to say of it.
        let sbom = try f.tack(["sbom"])
        #expect(sbom.stdout.contains("keyless Sigstore signature by \(Self.workflow.replacingOccurrences(of: "/", with: "\\/"))@refs\\/tags\\/v1.0.0 (issuer https:\\/\\/token.actions.githubusercontent.com)")
                || sbom.stdout.contains("keyless Sigstore signature by \(Self.workflow)@refs/tags/v1.0.0 (issuer \(Self.actions))"), "\(sbom.stdout)")
        let doctor = try f.tack(["doctor"])
        #expect(!doctor.stdout.contains("trust on first use") && !doctor.stdout.contains("checksum only"), "\(doctor.stdout)")
        // The bundle is kept with the download: offline, with the server's copy gone, a
        // reinstall checks it again.
        try FileManager.default.removeItem(atPath: f.file(Self.here) + ".sigstore.json")
        #expect(try f.tack(["uninstall", "tool@1.0.0"]).status == 0)
        let offline = try f.tack(["install"], env: ["TACK_OFFLINE": "1"])
        #expect(offline.status == 0 && f.installed, "\(offline.stderr)")
        withExtendedLifetime(f.server) {}
    }

    @Test(arguments: ["artifact", "log-entry", "promise", "time", "untrusted-ca", "identity", "issuer", "missing", "no trusted root"])
    func aDownloadWhoseKeylessSignatureFailsInstallsNothing(_ attack: String) throws {
        let f = try setUp()
        switch attack {
        case "identity": try f.sign(Self.here, identity: "https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0")
        case "issuer": try f.sign(Self.here, issuer: "https://accounts.google.com")
        case "missing", "no trusted root": if attack == "no trusted root" { try f.sign(Self.here) }
        default: try f.sign(Self.here, tamper: attack)
        }
        try f.manifest()
        // Without its own trusted root, the test's instance is nobody Sigstore's public-good root trusts.
        let r = attack == "no trusted root" ? try f.s.tack(["install"], in: "app") : try f.tack(["install"])
        #expect(r.status == 1 && !f.installed, "\(attack): \(r)")
        let expected: String
        switch attack {
        case "artifact": expected = "signature: it does not verify with the signer's key"
        case "log-entry": expected = "transparency log entry 0 records another artifact digest than the bundle"
        case "promise": expected = "no transparency log entry from a log of the trusted root verifies"
        case "time": expected = "outside the signing certificate's validity"
        case "untrusted-ca": expected = "signing certificate: at 2026-01-01T00:00:00Z: unable to get local issuer certificate"
        case "identity": expected = "signed by https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0, not \(Self.workflow)@refs/tags/v*"
        case "issuer": expected = "the signer's identity was issued by https://accounts.google.com, not \(Self.actions)"
        case "missing": expected = "cannot download the sigstore signature of tool 1.0.0"
        default: expected = "no transparency log entry from a log of the trusted root verifies"
        }
        #expect(r.stderr.contains(expected), "\(attack): \(r.stderr)")
        if attack != "missing" { #expect(r.stderr.contains("failed its sigstore signature check") && r.stderr.contains("nothing was installed"), "\(r.stderr)") }
        #expect(!f.lock.contains("sigstore:"), "nothing is locked: \(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    /// `tack lock` checks every platform's bundle, not only this machine's, and records who
    /// signed each; one signed by someone else is refused.
    @Test func aLockOfThreePlatformsVerifiesEach() throws {
        let f = try setUp()
        for p in Self.platforms { try f.sign(p) }
        try f.manifest()
        let others = Self.platforms.filter { $0 != Self.here }
        let lock = try f.tack(["lock", "--platform", Self.here] + others.flatMap { ["--platform", $0] })
        #expect(lock.status == 0, "\(lock.stderr)")
        for p in Self.platforms {
            #expect(f.lock.contains("\(p): \"sigstore:\(Self.actions) \(Self.workflow)@refs/tags/v1.0.0\""), "\(p): \(f.lock)")
        }
        #expect(try f.tack(["lock", "--verify"]).status == 0)
        // Offline, with nothing served: the kept downloads and bundles are checked again.
        try FileManager.default.moveItem(atPath: f.s.root + "/www", toPath: f.s.root + "/www-gone")
        let offline = try f.tack(["lock", "--verify", "--offline"], env: ["TACK_GITHUB_API": "http://127.0.0.1:9"])
        #expect(offline.status == 0 && offline.stderr.contains("verified 3 downloads from the download cache, with no network"), "\(offline.stderr)")
        // A kept bundle replaced in the cache by another signer's: refused offline too.
        let cached = try #require(FileManager.default.contentsOfDirectory(atPath: f.s.root + "/tack-home/cache/downloads").filter { $0.hasSuffix(".sigstore.json") }.sorted().first)
        try FileManager.default.moveItem(atPath: f.s.root + "/www-gone", toPath: f.s.root + "/www")
        let stranger = f.s.root + "/stranger.json"
        try Self.python(["sign", f.s.root + "/sigstore", f.file(Self.here), stranger, "--identity", "https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0"])
        let original = try Data(contentsOf: URL(fileURLWithPath: f.s.root + "/tack-home/cache/downloads/" + cached))
        try FileManager.default.removeItem(atPath: f.s.root + "/tack-home/cache/downloads/" + cached)
        try FileManager.default.copyItem(atPath: stranger, toPath: f.s.root + "/tack-home/cache/downloads/" + cached)
        let replaced = try f.tack(["lock", "--verify", "--offline"])
        #expect(replaced.status == 1 && replaced.stderr.contains("the signature kept in the download cache does not hold"), "\(replaced.stderr)")
        try original.write(to: URL(fileURLWithPath: f.s.root + "/tack-home/cache/downloads/" + cached))
        // One platform's bundle replaced by another signer's: `lock --verify` and a new lock of
        // that platform refuse it.
        try f.sign("linux-arm64", identity: "https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0")
        let verify = try f.tack(["lock", "--verify"])
        #expect(verify.status == 1 && verify.stderr.contains("(linux-arm64)") && verify.stderr.contains("signed by https://github.com/mallory/"), "\(verify.stderr)")
        let lines = f.lock.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("linux-arm64") }
        try f.s.write("app/tack.lock", lines.joined(separator: "\n"))
        let again = try f.tack(["lock", "--platform", "linux-arm64"])
        #expect(again.status == 1 && again.stderr.contains("signed by https://github.com/mallory/"), "\(again.stderr)")
        #expect(!f.lock.contains("linux-arm64"), "nothing is written when a platform fails: \(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    /// A signer tack.yml no longer allows is refused until `tack update`, which checks the
    /// downloads' bundles again against the new signer.
    @Test func aChangedSignerIsRefusedUntilAnUpdateAcceptsIt() throws {
        let f = try setUp()
        try f.sign(Self.here)
        try f.manifest()
        #expect(try f.tack(["install"]).status == 0)
        let other = "https://github.com/acme/tool/.github/workflows/other.yml"
        try f.manifest(identity: other + "@*")
        let refused = try f.tack(["install"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("tack.yml allows the signer \(other)@* (issuer \(Self.actions)) for tool 1.0.0, but tack.lock says sigstore:\(Self.actions) \(Self.workflow)@refs/tags/v1.0.0 signed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("run `tack update tool`"), "\(refused.stderr)")
        // The publisher now signs with the other workflow: the update accepts it.
        try f.sign(Self.here, identity: other + "@refs/tags/v1.0.0")
        let update = try f.tack(["update", "tool"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(f.lock.contains("\"sigstore:\(Self.actions) \(other)@refs/tags/v1.0.0\""), "\(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    // MARK: GitHub artifact attestations (`attested:`)

    /// What GitHub's API answers for the download of `platform`: an attestation made with the
    /// test's instance (`sign` arguments), inline or at a `bundle_url`.
    func attest(_ f: Fixture, _ platform: String, _ args: [String] = [], atURL: Bool = false) throws {
        let bundle = f.s.root + "/attestation-\(platform).json"
        try Self.python(["sign", f.s.root + "/sigstore", f.file(platform), bundle, "--dsse", "https://slsa.dev/provenance/v1"] + args)
        let text = try String(contentsOfFile: bundle, encoding: .utf8)
        let entry = atURL ? "{\"bundle\": null, \"bundle_url\": \"\(f.server.url("static/bundles/\(platform).json"))\"}" : "{\"bundle\": \(text), \"repository_id\": 1}"
        if atURL { try f.s.write("www/bundles/\(platform).json", text) }
        try f.s.write("www/repos/acme/tool/attestations/sha256:\(try sha256(f.file(platform)))", "{\"attestations\": [\(entry)]}")
    }

    func attestedManifest(_ f: Fixture, _ attested: String = "{ github: acme/tool }") throws {
        try f.pin("    attested: \(attested)\n")
    }

    func githubEnv(_ f: Fixture) -> [String: String] { ["TACK_GITHUB_API": f.server.url("static")] }

    @Test(arguments: [false, true]) func aDownloadGitHubAttestsIsCheckedAndItsSignerLocked(atURL: Bool) throws {
        let f = try setUp()
        try attest(f, Self.here, atURL: atURL)
        try attestedManifest(f)
        let r = try f.tack(["install"], env: githubEnv(f))
        #expect(r.status == 0 && f.installed, "\(r.stderr)")
        #expect(f.lock.contains("\(Self.here): \"sigstore:\(Self.actions) \(Self.workflow)@refs/tags/v1.0.0\""), "\(f.lock)")
        // Kept with the download: offline, with GitHub gone, a reinstall checks it again.
        #expect(try f.tack(["uninstall", "tool@1.0.0"]).status == 0)
        let offline = try f.tack(["install"], env: ["TACK_OFFLINE": "1", "TACK_GITHUB_API": "http://127.0.0.1:9"])
        #expect(offline.status == 0 && f.installed, "\(offline.stderr)")
        withExtendedLifetime(f.server) {}
    }

    @Test(arguments: ["another repository's workflow", "made for another repository", "another predicate", "another subject", "none", "another workflow named"])
    func anAttestationThatDoesNotHoldInstallsNothing(_ attack: String) throws {
        let f = try setUp()
        var attested = "{ github: acme/tool }"
        switch attack {
        case "another repository's workflow": try attest(f, Self.here, ["--identity", "https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0"])
        case "made for another repository": try attest(f, Self.here, ["--repository", "https://github.com/mallory/tool"])
        case "another predicate":
            let bundle = f.s.root + "/spdx.json"
            try Self.python(["sign", f.s.root + "/sigstore", f.file(Self.here), bundle, "--dsse", "https://spdx.dev/Document/v2.3"])
            try f.s.write("www/repos/acme/tool/attestations/sha256:\(try sha256(f.file(Self.here)))", "{\"attestations\": [{\"bundle\": \(try String(contentsOfFile: bundle, encoding: .utf8))}]}")
        case "another subject": try attest(f, Self.here, ["--tamper", "artifact"])
        case "another workflow named":
            try attest(f, Self.here)
            attested = "{ github: acme/tool, workflow: acme/tool/.github/workflows/other.yml }"
        default: break
        }
        try attestedManifest(f, attested)
        let r = try f.tack(["install"], env: githubEnv(f))
        #expect(r.status == 1 && !f.installed, "\(attack): \(r)")
        let expected: String
        switch attack {
        case "another repository's workflow": expected = "signed by https://github.com/mallory/tool/.github/workflows/release.yml@refs/tags/v1.0.0, not an identity matching"
        case "made for another repository": expected = "the attestation was made for https://github.com/mallory/tool, not https://github.com/acme/tool"
        case "another predicate": expected = "the attestation's statement is a https://spdx.dev/Document/v2.3, not a https://slsa.dev/provenance/v1"
        case "another subject": expected = "its statement names no subject with the artifact's SHA-256"
        case "another workflow named": expected = "not an identity matching /(?i)^https://github\\.com/acme/tool/\\.github/workflows/other\\.yml/"
        default: expected = "GitHub keeps no attestation of tool 1.0.0"
        }
        #expect(r.stderr.contains(expected) && r.stderr.contains("nothing was installed"), "\(attack): \(r.stderr)")
        #expect(!f.lock.contains("sigstore:"), "\(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    /// `attested: github` takes the repository from a github.com release URL; any other URL
    /// must name it.
    @Test func attestedGitHubNeedsAGitHubReleaseURL() throws {
        let f = try setUp()
        try attestedManifest(f, "github")
        let r = try f.tack(["install"], env: githubEnv(f))
        #expect(r.status == 1 && r.stderr.contains("`attested: github` (tool, set by") && r.stderr.contains("to know the source repository; name it instead: `attested: { github: OWNER/REPO }`"), "\(r.stderr)")
        #expect(GitHub.repository(ofDownload: "https://github.com/cli/cli/releases/download/v2.63.0/gh_2.63.0_linux_amd64.tar.gz") == "cli/cli")
        #expect(GitHub.repository(ofDownload: "https://github.com/cli/cli/archive/v2.63.0.tar.gz") == nil)
        withExtendedLifetime(f.server) {}
    }

    // MARK: SLSA provenance (`provenance:`)

    static let builder = "https://github.com/slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@refs/tags/v2.1.0"

    /// slsa-github-generator's provenance of `platform`'s download, beside it.
    func provenance(_ f: Fixture, _ platform: String, repository: String = "https://github.com/acme/tool", identity: String = KeylessSignatureTests.builder, tamper: String? = nil) throws {
        var args = ["sign", f.s.root + "/sigstore", f.file(platform), f.file(platform) + ".intoto.jsonl", "--dsse", "https://slsa.dev/provenance/v0.2",
                    "--identity", identity, "--repository", repository]
        if let tamper { args += ["--tamper", tamper] }
        try Self.python(args)
    }

    func provenanceManifest(_ f: Fixture) throws {
        try f.pin("    provenance:\n      url: \"\(f.server.url("files/tool-{os}-{arch}.tar.gz.intoto.jsonl"))\"\n      source: acme/tool\n")
    }

    @Test func aDownloadWithSLSAProvenanceIsCheckedAndItsBuilderLocked() throws {
        let f = try setUp()
        try provenance(f, Self.here)
        try provenanceManifest(f)
        let r = try f.tack(["install"])
        #expect(r.status == 0 && f.installed, "\(r.stderr)")
        // The builder, and the repository and ref it built, as slsa-verifier reports them.
        #expect(f.lock.contains("\(Self.here): \"slsa:\(Self.builder) https://github.com/acme/tool@refs/tags/v1.0.0\""), "\(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    @Test(arguments: ["another repository", "another builder", "another subject", "old format", "issuer", "log-entry", "time"])
    func provenanceThatDoesNotHoldInstallsNothing(_ attack: String) throws {
        let f = try setUp()
        switch attack {
        case "another repository": try provenance(f, Self.here, repository: "https://github.com/mallory/tool")
        case "another builder": try provenance(f, Self.here, identity: "https://github.com/mallory/generator/.github/workflows/builder.yml@refs/tags/v1.0.0")
        case "another subject": try provenance(f, Self.here, tamper: "artifact")
        case "old format":
            try f.s.write("www/tool-\(Self.here).tar.gz.intoto.jsonl", #"{"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[{"keyid":"","sig":"MEUC"}]}"#)
        case "issuer":
            try Self.python(["sign", f.s.root + "/sigstore", f.file(Self.here), f.file(Self.here) + ".intoto.jsonl", "--dsse", "https://slsa.dev/provenance/v0.2",
                             "--identity", Self.builder, "--issuer", "https://accounts.google.com"])
        default: try provenance(f, Self.here, tamper: attack)
        }
        try provenanceManifest(f)
        let r = try f.tack(["install"])
        #expect(r.status == 1 && !f.installed, "\(attack): \(r)")
        let expected: String
        switch attack {
        case "another repository": expected = "the signature was made for https://github.com/mallory/tool, not https://github.com/acme/tool"
        case "another builder": expected = "signed by https://github.com/mallory/generator/.github/workflows/builder.yml@refs/tags/v1.0.0, not an identity matching"
        case "another subject": expected = "its statement names no subject with the artifact's SHA-256"
        case "old format": expected = "the provenance is in slsa-github-generator's old format"
        case "issuer": expected = "the signer's identity was issued by https://accounts.google.com"
        case "log-entry": expected = "transparency log entry 0 records another DSSE payload than the bundle"
        default: expected = "outside the signing certificate's validity"
        }
        #expect(r.stderr.contains(expected) && r.stderr.contains("nothing was installed"), "\(attack): \(r.stderr)")
        withExtendedLifetime(f.server) {}
    }
}

/// Snappy's block format, as GitHub serves attestation bundles at a `bundle_url`.
@Suite struct SnappyTests {
    @Test func literalsAndCopies() {
        // 12 bytes: the literal "abcd", then a copy of 8 bytes from 4 back (a 1-byte offset).
        #expect(Snappy.decode([12, 0x0C] + Array("abcd".utf8) + [0x11, 0x04]) == Array("abcdabcdabcd".utf8))
        // A copy with a 2-byte offset, and a long literal (length in the next byte).
        let text = Array(String(repeating: "x", count: 70).utf8)
        #expect(Snappy.decode([76, 60 << 2, 69] + text + [0x02 | (5 << 2), 70, 0]) == text + Array(text[0..<6]))
    }

    @Test(arguments: [
        [UInt8](), [5, 0x0C] + Array("abcd".utf8), [12, 0x0C] + Array("abcd".utf8) + [0x11, 0x05], [4, 0x0C] + Array("abcd".utf8) + [0x11, 0x04],
        [0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [3, 0xF0],
    ])
    func hostileBlocksAreRefused(_ block: [UInt8]) {
        #expect(Snappy.decode(block) == nil)
    }
}