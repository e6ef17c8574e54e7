import Foundation
import TackCore

/// A stand-in for swift.org, served on loopback: the release list, a snapshot list, and small
/// toolchains in swift.org's layout (`swift-6.0.3-RELEASE-<platform>/usr/bin/swift`, a
/// script), each signed with a key made in the test in its own GNUPGHOME.
final class SwiftMirror {
    let sandbox: Sandbox
    let www: String
    let gnupg: String
    /// The platform this machine maps to, as the backend computes it.
    let platform: SwiftPlatform
    var server: FixtureServer?

    /// Extra gpg options for signing archives (`--faked-system-time …`).
    var signOptions: [String] = []

    /// `subkey`: a primary key that only certifies, with a signing subkey that signs.
    init(_ sandbox: Sandbox, keyType: String = "ed25519", subkey: Bool = false) throws {
        self.sandbox = sandbox
        www = sandbox.root + "/www"
        gnupg = sandbox.root + "/gnupg"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: gnupg, withIntermediateDirectories: true)
        chmod(gnupg, 0o700)
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let id = SwiftPlatform.candidates(osRelease: osRelease).first ?? "ubuntu2204"
        platform = SwiftPlatform(identifier: id, arch: SwiftPlatform.arch(of: .current))
        if subkey {
            try gpg(["--quick-gen-key", "Test Mirror <mirror@example.com>", keyType, "cert", "never"])
            try gpg(["--quick-add-key", try primaryFingerprint(), keyType, "sign", "never"])
        } else {
            try gpg(["--quick-gen-key", "Test Mirror <mirror@example.com>", keyType, "sign", "never"])
        }
    }

    /// The primary key's fingerprint.
    func primaryFingerprint() throws -> String {
        let lines = try gpg(["--with-colons", "--fingerprint"]).stdout.split(separator: "\n")
        guard let fpr = lines.first(where: { $0.hasPrefix("fpr:") }) else { throw Failed(message: "no key") }
        return String(fpr.split(separator: ":", omittingEmptySubsequences: false)[9])
    }

    /// Revokes the primary key with the revocation certificate gpg made with it.
    func revokePrimary() throws {
        let path = gnupg + "/openpgp-revocs.d/\(try primaryFingerprint()).rev"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ":-----BEGIN", with: "-----BEGIN")
        try text.write(toFile: path + ".asc", atomically: true, encoding: .utf8)
        try gpg(["--import", path + ".asc"])
    }

    var url: String { server.map { $0.url("static") } ?? "" }

    func start() throws { server = try FixtureServer(serving: www) }

    var environment: [String: String] { ["TACK_SWIFT_MIRROR": url, "TACK_SWIFT_KEYRING": sandbox.root + "/keyring.asc"] }

    @discardableResult
    func gpg(_ args: [String], gnupgHome: String? = nil) throws -> Sandbox.Result {
        let r = try sandbox.run("/usr/bin/env", ["gpg", "--batch", "--quiet", "--pinentry-mode", "loopback", "--passphrase", ""] + args, env: ["GNUPGHOME": gnupgHome ?? gnupg])
        guard r.status == 0 else { throw Failed(message: "gpg \(args): \(r.stderr)") }
        return r
    }

    /// The public key, armoured (`keyring.asc`) and binary (`keyring.gpg`).
    func exportKeyring() throws {
        try gpg(["--armor", "--output", sandbox.root + "/keyring.asc", "--export"])
        try gpg(["--output", sandbox.root + "/keyring.gpg", "--export"])
    }

    /// releases.json listing `versions`, each built for `platforms` (default: this machine's),
    /// and publishing the SDKs `sdks` gives it (version → swift.org's platform name of the SDK,
    /// `static-sdk`, → its checksum), as swift.org lists them.
    func releases(_ versions: [String], platforms: [(name: String, dir: String?)]? = nil, sdks: [String: [String: String]] = [:]) throws {
        let ps = platforms ?? [(name: prettyName(platform.identifier), dir: nil)]
        let list: [[String: Any]] = versions.map { v in
            var all = ps.map { p -> [String: Any] in
                var d: [String: Any] = ["name": p.name, "platform": "Linux", "archs": ["x86_64", "aarch64"]]
                if let dir = p.dir { d["dir"] = dir }
                return d
            }
            for (listing, sum) in (sdks[v] ?? [:]).sorted(by: { $0.key < $1.key }) {
                all.append(["name": listing == "static-sdk" ? "Static SDK" : "Wasm SDK", "platform": listing, "checksum": sum])
            }
            return ["name": v, "date": "2024-12-11", "tag": "swift-\(v)-RELEASE", "xcode": "Xcode 16.2", "platforms": all]
        }
        try write("api/v1/install/releases.json", JSONSerialization.data(withJSONObject: list))
    }

    func prettyName(_ id: String) -> String {
        if id.hasPrefix("ubuntu"), id.count == 10 { return "Ubuntu \(id.dropFirst(6).prefix(2)).\(id.suffix(2))" }
        if id.hasPrefix("debian") { return "Debian \(id.dropFirst(6))" }
        if id.hasPrefix("fedora") { return "Fedora \(id.dropFirst(6))" }
        return id
    }

    /// A toolchain archive (and its signature) at swift.org's path for `tag` under `branchDirectory`.
    /// `swiftPM`: the real SwiftPM to run as the toolchain's (`usr/bin/swift-package`, a small
    /// program that runs it under the name it is called by, as swift.org's links to it do),
    /// with `swift sdk …`, `swift build …` sent to it as the driver sends them.
    @discardableResult
    func toolchain(tag: String, branchDirectory: String, top: String? = nil, sign: Bool = true, banner: String? = nil, for other: SwiftPlatform? = nil, swiftPM: String? = nil,
                   setuid: Bool = false) throws -> String {
        let platform = other ?? self.platform
        let name = "\(tag)-\(platform.archiveSuffix)"
        let build = sandbox.root + "/build-\(tag)-\(platform)"
        let bin = build + "/" + (top ?? name) + "/usr/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let text = banner ?? "Swift version \(tag) (\(tag))"
        for tool in ["swift", "swiftc", "sourcekit-lsp"] {
            // The driver runs `swift-<command>` from the directory it really lives in.
            // SwiftPM asks the compiler beside it what it targets: the real one answers.
            var dispatch = ""
            if let swiftPM, tool == "swift" {
                dispatch = "case \"$1\" in sdk|build|package|test|run) c=$1; shift; self=$(readlink -f \"$0\"); exec \"${self%/*}/swift-$c\" \"$@\" ;; esac\n"
            } else if let swiftPM, tool == "swiftc" {
                dispatch = "case \"$1\" in -print-target-info) exec \"\((swiftPM as NSString).deletingLastPathComponent)/swiftc\" \"$@\" ;; esac\n"
            }
            try "#!/bin/sh\n\(dispatch)echo \"\(tool): \(text)\"\necho \"args: $*\"\n".write(toFile: bin + "/" + tool, atomically: true, encoding: .utf8)
            chmod(bin + "/" + tool, 0o755)
        }
        if let swiftPM {
            let source = build + "/swift-package.c"
            try "#include <unistd.h>\nint main(int argc, char **argv) { (void)argc; execv(\"\(swiftPM)\", argv); return 127; }\n".write(toFile: source, atomically: true, encoding: .utf8)
            let cc = try sandbox.run("/usr/bin/env", ["cc", "-o", bin + "/swift-package", source])
            guard cc.status == 0 else { throw Failed(message: "cc: \(cc.stderr)") }
            try FileManager.default.removeItem(atPath: source)
            for link in ["swift-build", "swift-sdk", "swift-test", "swift-run"] {
                try FileManager.default.createSymbolicLink(atPath: bin + "/" + link, withDestinationPath: "swift-package")
            }
        }
        try "not a program\n".write(toFile: bin + "/notes.txt", atomically: true, encoding: .utf8)
        // `setuid`: sourcekit-lsp carries the setuid bit, which tack must remove and say.
        if setuid { chmod(bin + "/sourcekit-lsp", 0o4755) }
        let dir = "\(branchDirectory)/\(platform.directory)/\(tag)"
        try FileManager.default.createDirectory(atPath: www + "/" + dir, withIntermediateDirectories: true)
        let archive = www + "/" + dir + "/" + name + ".tar.gz"
        let r = try sandbox.run("/usr/bin/env", ["tar", "-czf", archive, "-C", build, top ?? name])
        guard r.status == 0 else { throw Failed(message: r.stderr) }
        try? FileManager.default.removeItem(atPath: archive + ".sig")
        if sign { try gpg(signOptions + ["--detach-sign", "--output", archive + ".sig", archive]) }
        return archive
    }

    /// A macOS package at swift.org's path for `tag`: a xar archive whose table of contents
    /// carries a signature with a certificate made here (`openssl`), first the signer's, then
    /// an issuer's. Returns the package's path and the signing certificate's DER file.
    @discardableResult
    func package(tag: String, branchDirectory: String) throws -> (path: String, certificate: String) {
        let dir = "\(branchDirectory)/xcode/\(tag)"
        try FileManager.default.createDirectory(atPath: www + "/" + dir, withIntermediateDirectories: true)
        var certificates: [String] = []
        for name in ["leaf", "issuer"] {
            let key = sandbox.root + "/\(name).key", der = sandbox.root + "/\(name).der"
            let r = try sandbox.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-subj", "/CN=Developer ID Installer: Test \(name)", "-days", "2", "-outform", "DER", "-out", der])
            guard r.status == 0 else { throw Failed(message: "openssl: \(r.stderr)") }
            certificates.append(der)
        }
        let path = www + "/" + dir + "/\(tag)-osx.pkg"
        let r = try FixturePython.run([FixtureServer.script, "xar", path] + certificates)
        guard r.status == 0 else { throw Failed(message: "xar: \(r.stderr)") }
        return (path, certificates[0])
    }

    /// The real SwiftPM of the toolchain running the tests (`swift-package` on PATH, links
    /// followed), or nil.
    static var realSwiftPM: String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(dir) + "/swift-package"
            if FileManager.default.isExecutableFile(atPath: path) { return (path as NSString).resolvingSymlinksInPath }
        }
        return FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swift-package") ? "/opt/swift/usr/bin/swift-package" : nil
    }

    /// A Swift SDK bundle of release `version` at swift.org's path (`static-sdk` or
    /// `wasm-sdk`), signed: `<tag>_<suffix>.artifactbundle/` with an `info.json` naming
    /// `artifacts` (default: the one SDK swift.org's bundle has) and a `swift-sdk.json`.
    /// Returns the archive's path and its SHA-256.
    @discardableResult
    func sdkBundle(version: String, listing: String = "static-sdk", artifacts: [String]? = nil, target: String = "x86_64-swift-linux-musl", sign: Bool = true) throws -> (path: String, sha256: String) {
        let tag = "swift-\(version)-RELEASE"
        let suffix = listing == "static-sdk" ? "_static-linux-0.0.1" : "_wasm"
        let bundle = tag + suffix + ".artifactbundle"
        let build = sandbox.root + "/sdk-\(version)-\(listing)"
        try? FileManager.default.removeItem(atPath: build)
        let sdk = build + "/" + bundle + "/sdk"
        try FileManager.default.createDirectory(atPath: sdk + "/root/usr/lib", withIntermediateDirectories: true)
        let ids = artifacts ?? [tag + suffix]
        let info: [String: Any] = ["schemaVersion": "1.0", "artifacts": Dictionary(uniqueKeysWithValues: ids.map { ($0, ["type": "swiftSDK", "version": "0.0.1", "variants": [["path": "sdk"]]] as [String: Any]) })]
        try JSONSerialization.data(withJSONObject: info).write(to: URL(fileURLWithPath: build + "/" + bundle + "/info.json"))
        let triples: [String: Any] = ["schemaVersion": "4.0", "targetTriples": [target: ["sdkRootPath": "root", "swiftResourcesPath": "root/usr/lib/swift", "swiftStaticResourcesPath": "root/usr/lib/swift_static"]]]
        try JSONSerialization.data(withJSONObject: triples).write(to: URL(fileURLWithPath: sdk + "/swift-sdk.json"))
        let dir = "swift-\(version)-release/\(listing)/\(tag)"
        try FileManager.default.createDirectory(atPath: www + "/" + dir, withIntermediateDirectories: true)
        let archive = www + "/" + dir + "/" + bundle + ".tar.gz"
        let r = try sandbox.run("/usr/bin/env", ["tar", "-czf", archive, "-C", build, bundle])
        guard r.status == 0 else { throw Failed(message: r.stderr) }
        try? FileManager.default.removeItem(atPath: archive + ".sig")
        if sign { try gpg(signOptions + ["--detach-sign", "--output", archive + ".sig", archive]) }
        return (archive, try sha256(archive))
    }

    /// A snapshot list for `branch` naming `dirs`.
    func snapshots(branch: String, _ dirs: [String]) throws {
        let entries = dirs.map { ["dir": $0, "date": "2024-08-30 10:10:00 -0600", "download": "\($0)-\(platform.archiveSuffix).tar.gz", "name": "Swift Development Snapshot"] }
        try write("api/v1/install/dev/\(branch)/\(platform.identifier).json", JSONSerialization.data(withJSONObject: [platform.arch: entries]))
    }

    func write(_ path: String, _ data: Data) throws {
        let full = www + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    struct Failed: Error { var message: String }
}
