import Foundation
import Testing
import TackCore

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

        func manifest(identity: String = KeylessSignatureTests.workflow + "@refs/tags/v*", issuer: String = KeylessSignatureTests.actions) throws {
            try s.write("app/tack.yml", """
                tools:
                  tool:
                    url: "\(server.url("files/tool-{os}-{arch}.tar.gz"))"
                    version: 1.0.0
                    bin: shellcheck-v{version}/shellcheck
                    signer:
                      issuer: \(issuer)
                      identity: \(identity)

                """)
        }

        func tack(_ args: [String], env extra: [String: String] = [:]) throws -> Sandbox.Result {
            try s.tack(args, in: "app", env: env.merging(extra) { $1 })
        }

        var installed: Bool { FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/tool/1.0.0/bin/shellcheck") }
        var lock: String { s.read("app/tack.lock") ?? "" }
    }

    static func python(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: FixtureServer.python)
        p.arguments = [script] + args
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilDone()
        guard p.terminationStatus == 0 else { throw FixtureServer.FixtureFailed() }
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
}
