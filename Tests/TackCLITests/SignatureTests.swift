import Foundation
import Testing
import TackCore

/// Publisher signatures on url downloads (issue 35, item 2): archives signed in the test with
/// Debian's `minisign` and with `openssl` (a keyed cosign signature is a base64 DER ECDSA
/// P-256 signature over the file's SHA-256), served on loopback.
@Suite(.ownThreads, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/minisign"), "needs minisign: ./bootstrap.sh --dev"))
struct SignatureTests {
    static let archive = "shellcheck-v0.10.0.tar.gz"

    struct Fixture {
        let s: Sandbox
        let server: FixtureServer
        var file: String { s.root + "/www/" + SignatureTests.archive }
        var url: String { server.url("files/" + SignatureTests.archive) }

        @discardableResult
        func run(_ args: [String]) throws -> Sandbox.Result {
            let r = try s.run("/usr/bin/env", args)
            guard r.status == 0 else { throw FixtureServer.FixtureFailed() }
            return r
        }

        /// A minisign key pair named `name` (no password): its public key line and its id as
        /// minisign prints it.
        func minisignKey(_ name: String) throws -> (key: String, id: String) {
            try run(["minisign", "-G", "-W", "-f", "-p", s.root + "/\(name).pub", "-s", s.root + "/\(name).key"])
            let lines = try String(contentsOfFile: s.root + "/\(name).pub", encoding: .utf8).split(separator: "\n")
            let id = lines[0].split(separator: " ").last.map(String.init) ?? ""
            return (String(lines[1]), id)
        }

        /// Signs the archive with minisign key `name` (prehashed unless `legacy`).
        func minisign(_ name: String, legacy: Bool = false) throws {
            try? FileManager.default.removeItem(atPath: file + ".minisig")
            // minisign's own trusted comment, which names the file it signs (tack requires it).
            try run(["minisign", "-S", "-s", s.root + "/\(name).key", "-m", file, "-x", file + ".minisig"] + (legacy ? ["-l"] : []))
        }

        /// An ECDSA P-256 key pair named `name`: its PEM public key.
        func cosignKey(_ name: String) throws -> String {
            try run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", s.root + "/\(name).pem"])
            try run(["openssl", "ec", "-in", s.root + "/\(name).pem", "-pubout", "-out", s.root + "/\(name).pub"])
            return try String(contentsOfFile: s.root + "/\(name).pub", encoding: .utf8)
        }

        /// Signs the archive as `cosign sign-blob --key` does: ECDSA over SHA-256, base64.
        func cosign(_ name: String) throws {
            try run(["openssl", "dgst", "-sha256", "-sign", s.root + "/\(name).pem", "-out", s.root + "/sig.der", file])
            try run(["openssl", "base64", "-A", "-in", s.root + "/sig.der", "-out", file + ".sig"])
        }

        func manifest(_ signing: String) throws {
            try s.write("app/tack.yml", "tools:\n  shellcheck:\n    url: \"\(url)\"\n    version: 0.10.0\n    bin: shellcheck-v{version}/shellcheck\n" + signing)
        }

        var installed: Bool { FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/shellcheck/0.10.0/bin/shellcheck") }
        var lock: String { s.read("app/tack.lock") ?? "" }
    }

    func setUp() throws -> Fixture {
        let s = try Sandbox()
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/" + Self.archive, version: "0.10.0")
        return Fixture(s: s, server: try FixtureServer(serving: s.root + "/www"))
    }

    func minisignEntry(_ key: String) -> String { "    minisign: \"\(key)\"\n" }

    func cosignEntry(_ pem: String) -> String {
        "    cosign:\n      key: |\n" + pem.split(separator: "\n").map { "        \($0)\n" }.joined()
    }

    @Test(arguments: [false, true])
    func aMinisignedDownloadIsCheckedAndItsSignerLocked(legacy: Bool) throws {
        let f = try setUp()
        let (key, id) = try f.minisignKey("publisher")
        try f.minisign("publisher", legacy: legacy)
        try f.manifest(minisignEntry(key))
        let r = try f.s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(f.installed)
        #expect(f.lock.contains("signed-by:\n      \(Platform.current.description): \"minisign:\(id)\""), "\(f.lock)")
        // The signature is kept with the download: offline, a reinstall checks it again.
        try FileManager.default.removeItem(atPath: f.file + ".minisig")
        #expect(try f.s.tack(["uninstall", "shellcheck@0.10.0"], in: "app").status == 0)
        let offline = try f.s.tack(["install"], in: "app", env: ["TACK_OFFLINE": "1"])
        #expect(offline.status == 0 && f.installed, "\(offline.stderr)")
        withExtendedLifetime(f.server) {}
    }

    @Test func aCosignedDownloadIsCheckedAndItsSignerLocked() throws {
        let f = try setUp()
        let pem = try f.cosignKey("publisher")
        try f.cosign("publisher")
        try f.manifest(cosignEntry(pem))
        let r = try f.s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(f.installed)
        #expect(f.lock.contains("\"cosign:sha256:"), "\(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    @Test(arguments: ["tampered artifact", "wrong signer", "missing signature", "changed trusted comment", "cosign: wrong key", "cosign: tampered artifact"])
    func aDownloadWhoseSignatureFailsInstallsNothing(_ attack: String) throws {
        let f = try setUp()
        var expected: String
        if attack.hasPrefix("cosign") {
            let pem = try f.cosignKey("publisher")
            _ = try f.cosignKey("other")
            try f.cosign(attack == "cosign: wrong key" ? "other" : "publisher")
            try f.manifest(cosignEntry(pem))
            expected = "the signature does not match the download"
        } else {
            let (key, _) = try f.minisignKey("publisher")
            let (_, otherID) = try f.minisignKey("other")
            try f.minisign(attack == "wrong signer" ? "other" : "publisher")
            try f.manifest(minisignEntry(key))
            switch attack {
            case "wrong signer": expected = "it was made with the key minisign:\(otherID), not the one tack.yml names"
            case "missing signature":
                try FileManager.default.removeItem(atPath: f.file + ".minisig")
                expected = "cannot download the minisign signature of shellcheck 0.10.0"
            case "changed trusted comment":
                var lines = try String(contentsOfFile: f.file + ".minisig", encoding: .utf8).components(separatedBy: "\n")
                lines[2] = "trusted comment: shellcheck 9.9.9"
                try lines.joined(separator: "\n").write(toFile: f.file + ".minisig", atomically: true, encoding: .utf8)
                expected = "its trusted comment was changed after it was signed"
            default: expected = "the signature does not match the download"
            }
        }
        if attack.hasSuffix("tampered artifact") {
            // Signed, then replaced on the server by another build.
            try FixtureServer.archive("tar.gz", f.file, version: "0.10.1")
        }
        let r = try f.s.tack(["install"], in: "app")
        #expect(r.status != 0, "\(attack)")
        #expect(r.stderr.contains(expected), "\(attack): \(r.stderr)")
        #expect(r.stderr.contains("nothing was installed"), "\(attack): \(r.stderr)")
        #expect(!f.installed, "\(attack)")
        #expect(!f.lock.contains("sha256"), "\(attack): \(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    @Test func aKeyThatChangesIsRefusedUntilAnUpdateAcceptsIt() throws {
        let f = try setUp()
        // Installed first with no key: naming one checks the install's download again.
        try f.manifest("")
        #expect(try f.s.tack(["install"], in: "app").status == 0)
        let (key, id) = try f.minisignKey("publisher")
        try f.minisign("publisher")
        try f.manifest(minisignEntry(key))
        let checked = try f.s.tack(["install"], in: "app")
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(f.lock.contains("\"minisign:\(id)\""), "\(f.lock)")
        // The publisher's key changes: tack.yml names the new one, the lock the old one.
        let (newKey, newID) = try f.minisignKey("rotated")
        try f.minisign("rotated")
        try f.manifest(minisignEntry(newKey))
        let refused = try f.s.tack(["install"], in: "app")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("tack.yml names the minisign key minisign:\(newID) for shellcheck 0.10.0, but tack.lock says minisign:\(id) signed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("run `tack update shellcheck`"), "\(refused.stderr)")
        #expect(f.lock.contains("\"minisign:\(id)\""), "the lock is as it was: \(f.lock)")
        let frozen = try f.s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status != 0, "\(frozen.stderr)")
        let update = try f.s.tack(["update", "shellcheck"], in: "app")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(f.lock.contains("\"minisign:\(newID)\""), "\(f.lock)")
        withExtendedLifetime(f.server) {}
    }

    @Test func lockVerifyChecksTheSignatureAgain() throws {
        let f = try setUp()
        let (key, _) = try f.minisignKey("publisher")
        _ = try f.minisignKey("other")
        try f.minisign("publisher")
        try f.manifest(minisignEntry(key))
        #expect(try f.s.tack(["install"], in: "app").status == 0)
        let good = try f.s.tack(["lock", "--verify"], in: "app")
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        // Same file, but the signature on the server is now another key's.
        try f.minisign("other")
        let bad = try f.s.tack(["lock", "--verify"], in: "app")
        #expect(bad.status != 0)
        #expect((bad.stdout + bad.stderr).contains("failed its minisign signature check"), "\(bad.stdout)\(bad.stderr)")
        withExtendedLifetime(f.server) {}
    }

    @Test func aSigningKeyThatIsNotOneIsAManifestError() throws {
        let f = try setUp()
        try f.manifest("    minisign: \"RWnotakey\"\n")
        let r = try f.s.tack(["install"], in: "app")
        #expect(r.status != 0)
        #expect(r.stderr.contains("a minisign public key is one base64 line starting with `RW`"), "\(r.stderr)")
        try f.manifest("    minisign: \"RWT+ocXWlNqWvrou0nldDB1llJd8bfHcY8r3dd66iHgj9X+mWtI1pUL4\"\n    cosign: \"x\"\n")
        let both = try f.s.tack(["install"], in: "app")
        #expect(both.stderr.contains("give one signer, `minisign`, `cosign`, `signer`, `attested` or `provenance`, not two"), "\(both.stderr)")
        withExtendedLifetime(f.server) {}
    }
}
