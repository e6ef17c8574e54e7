import Foundation
import TackCore
import Testing

/// A checksum file aqua's registry says is signed with minisign is used only when the
/// signature holds for the key the (pinned) registry names.
@Suite(.ownThreads, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/minisign"), "needs minisign: ./bootstrap.sh --dev"))
struct AquaSignatureTests {
    struct Fake {
        var s: Sandbox
        var env: [String: String]
        var dir: String { s.root + "/www/gh/acme/signed/releases/download/v1.0.0" }

        func run(_ args: [String]) throws {
            let r = try s.run("/usr/bin/env", args)
            guard r.status == 0 else { throw FixtureServer.FixtureFailed() }
        }

        func key(_ name: String) throws -> String {
            try run(["minisign", "-G", "-W", "-f", "-p", s.root + "/\(name).pub", "-s", s.root + "/\(name).key"])
            return String(try String(contentsOfFile: s.root + "/\(name).pub", encoding: .utf8).split(separator: "\n")[1])
        }

        func sign(with name: String) throws {
            try? FileManager.default.removeItem(atPath: dir + "/sha256.txt.minisig")
            try run(["minisign", "-S", "-s", s.root + "/\(name).key", "-m", dir + "/sha256.txt", "-x", dir + "/sha256.txt.minisig"])
        }
    }

    func fake() throws -> Fake {
        let s = try Sandbox()
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let dir = "www/gh/acme/signed/releases/download/v1.0.0"
        try s.mkdir(dir)
        let asset = "signed-\(Platform.current.os)-\(goarch)"
        try s.write("\(dir)/\(asset)", "#!/bin/sh\necho signed 1.0.0\n")
        try s.write("\(dir)/sha256.txt", "\(try sha256(s.root + "/\(dir)/\(asset)"))  \(asset)\n")
        try s.write("www/repos/acme/signed/releases/index.html", #"[{"tag_name": "v1.0.0"}]"#)
        let server = try FixtureServer(serving: s.root + "/www")
        var f = Fake(s: s, env: ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": s.root + "/registry.yaml"])
        let key = try f.key("publisher")
        try s.write("registry.yaml", """
            packages:
              - type: github_release
                repo_owner: acme
                repo_name: signed
                asset: signed-{{.OS}}-{{.Arch}}
                format: raw
                checksum:
                  type: github_release
                  asset: sha256.txt
                  algorithm: sha256
                  minisign:
                    type: github_release
                    asset: sha256.txt.minisig
                    public_key: \(key)

            """)
        try s.write("app/tack.yml", "tools:\n  signed: { aqua: acme/signed, version: 1.0.0 }\n")
        f.env["UNUSED"] = ""
        return f
    }

    /// A download the registry says is signed with minisign (its top-level `minisign`): checked
    /// before it is installed.
    @Test func aSignedDownload() throws {
        let f = try fake()
        let key = try f.key("publisher")
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let asset = f.dir + "/signed-\(Platform.current.os)-\(goarch)"
        func sign(with name: String) throws {
            try? FileManager.default.removeItem(atPath: asset + ".minisig")
            try f.run(["minisign", "-S", "-s", f.s.root + "/\(name).key", "-m", asset, "-x", asset + ".minisig"])
        }
        try f.s.write("registry.yaml", """
            packages:
              - type: github_release
                repo_owner: acme
                repo_name: signed
                asset: signed-{{.OS}}-{{.Arch}}
                format: raw
                minisign:
                  type: github_release
                  asset: "{{.Asset}}.minisig"
                  public_key: \(key)

            """)
        try sign(with: "publisher")
        let good = try f.s.tack(["install"], in: "app", env: f.env)
        #expect(good.status == 0 && !good.stderr.contains("not verified"), "\(good.stderr)")
        _ = try f.key("someone-else")
        try sign(with: "someone-else")
        try FileManager.default.removeItem(atPath: f.s.root + "/app/tack.lock")
        let other = try f.s.tack(["install"], in: "app", env: f.env.merging(["TACK_HOME": f.s.root + "/home2"]) { $1 })
        #expect(other.status != 0, "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.s.root + "/home2/installs/signed/1.0.0"))
    }

    /// A keyed cosign signature of the checksum file, the key where the registry says.
    @Test func aCosignSignedChecksumFile() throws {
        let f = try fake()
        let dir = f.dir
        try f.s.mkdir("www/keys")
        try f.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", f.s.root + "/cosign.pem"])
        try f.run(["openssl", "ec", "-in", f.s.root + "/cosign.pem", "-pubout", "-out", f.s.root + "/www/keys/cosign.pub"])
        try f.run(["openssl", "dgst", "-sha256", "-sign", f.s.root + "/cosign.pem", "-out", f.s.root + "/sig.der", dir + "/sha256.txt"])
        try f.run(["openssl", "base64", "-A", "-in", f.s.root + "/sig.der", "-out", dir + "/sha256.txt.sig"])
        let keyURL = (f.env["TACK_GITHUB_API"] ?? "") + "/keys/cosign.pub"
        let base = (f.s.read("registry.yaml") ?? "").components(separatedBy: "      minisign:")[0]
        let cosign = [
            "      cosign:", "        opts:", "          - --key", "          - \(keyURL)", "          - --signature",
            "          - https://github.com/acme/signed/releases/download/{{.Version}}/sha256.txt.sig", "",
        ].joined(separator: "\n")
        try f.s.write("registry.yaml", base + cosign)
        let good = try f.s.tack(["install"], in: "app", env: f.env)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(!good.stderr.contains("not verified"), "\(good.stderr)")
        // The checksum file changed after it was signed: refused.
        try f.s.write("www/gh/acme/signed/releases/download/v1.0.0/sha256.txt", (f.s.read("www/gh/acme/signed/releases/download/v1.0.0/sha256.txt") ?? "") + "\n")
        try FileManager.default.removeItem(atPath: f.s.root + "/app/tack.lock")
        let changed = try f.s.tack(["install"], in: "app", env: f.env.merging(["TACK_HOME": f.s.root + "/home2"]) { $1 })
        #expect(changed.status != 0 && changed.stderr.contains("cosign"), "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.s.root + "/home2/installs/signed/1.0.0"))
    }

    @Test func aSignedChecksumFileIsUsedOnlyWhenTheSignatureHolds() throws {
        let f = try fake()
        try f.sign(with: "publisher")
        let good = try f.s.tack(["install"], in: "app", env: f.env)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try runProgram(f.s.root + "/tack-home/installs/signed/1.0.0/bin/signed") == "signed 1.0.0\n")

        // Signed by another key: refused, nothing locked or installed.
        _ = try f.key("someone-else")
        try f.sign(with: "someone-else")
        try FileManager.default.removeItem(atPath: f.s.root + "/app/tack.lock")
        let other = try f.s.tack(["install"], in: "app", env: f.env.merging(["TACK_HOME": f.s.root + "/home2"]) { $1 })
        #expect(other.status != 0 && other.stderr.contains("checksums"), "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.s.root + "/home2/installs/signed/1.0.0"))

        // The checksum file changed after it was signed: refused.
        try f.sign(with: "publisher")
        try f.s.write("www/gh/acme/signed/releases/download/v1.0.0/sha256.txt", (f.s.read("www/gh/acme/signed/releases/download/v1.0.0/sha256.txt") ?? "") + "\n")
        let changed = try f.s.tack(["install"], in: "app", env: f.env.merging(["TACK_HOME": f.s.root + "/home3"]) { $1 })
        #expect(changed.status != 0, "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.s.root + "/home3/installs/signed/1.0.0"))
    }
}
