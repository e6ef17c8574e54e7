import Foundation
import TackCore
import Testing

/// `aqua: owner/repo` tools: aqua's registry (`TACK_AQUA_REGISTRY`, the trimmed copy of the
/// standard one) says how a release's assets are named; a fake GitHub on loopback serves gh's
/// and jq's releases, assets and checksum files as the real ones are named.
@Suite(.ownThreads) struct AquaBackendTests {
    static let registry = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/aqua/registry.yaml").path
    /// The workflow that signs gh's attestations (aqua's registry names it).
    static let deployment = "https://github.com/cli/cli/.github/workflows/deployment.yml@refs/tags/v2.62.0"
    /// gh's asset word and archive format per platform, as its releases name them.
    static let gh = ["linux-x86_64": ("linux_amd64", "tar.gz"), "linux-arm64": ("linux_arm64", "tar.gz"),
                     "darwin-arm64": ("macOS_arm64", "zip"), "darwin-x86_64": ("macOS_amd64", "zip")]

    struct Fake {
        var sandbox: Sandbox
        var server: FixtureServer
        var env: [String: String]
        var sums: [String: String]
        func requests(_ path: String) throws -> Int { try server.requests("static/gh/" + path) }
    }

    /// Writes `files` (path → text, executable) into an archive at `out` (`tar.gz` or `zip`).
    static func archive(_ out: String, _ files: [String: String]) throws {
        let script = """
            import sys, json, tarfile, zipfile, io, stat
            out, files = sys.argv[1], json.loads(sys.argv[2])
            if out.endswith(".zip"):
                with zipfile.ZipFile(out, "w") as z:
                    for path, text in sorted(files.items()):
                        info = zipfile.ZipInfo(path, date_time=(2024, 1, 1, 0, 0, 0)); info.external_attr = (stat.S_IFREG | 0o755) << 16
                        z.writestr(info, text)
            else:
                with tarfile.open(out, "w:gz") as t:
                    for path, text in sorted(files.items()):
                        data = text.encode(); info = tarfile.TarInfo(path); info.size = len(data); info.mode = 0o755; info.mtime = 1704067200
                        t.addfile(info, io.BytesIO(data))
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: files), as: UTF8.self)
        try FixturePython.check(["-c", script, out, json])
    }

    func fake() throws -> Fake {
        let s = try Sandbox()
        var sums: [String: String] = [:]
        // gh v2.62.0 (and v2.61.0 in the list): an archive per platform, and its checksums file.
        let dir = "www/gh/cli/cli/releases/download/v2.62.0"
        try s.mkdir(dir)
        var lines: [String] = []
        var assets: [String] = []
        for (platform, (word, format)) in Self.gh.sorted(by: { $0.key < $1.key }) {
            let name = "gh_2.62.0_\(word).\(format)"
            try Self.archive(s.root + "/\(dir)/\(name)", ["gh_2.62.0_\(word)/bin/gh": "#!/bin/sh\necho \"gh version 2.62.0 (\(platform))\"\n"])
            sums[name] = try sha256(s.root + "/\(dir)/\(name)")
            lines.append("\(sums[name] ?? "")  \(name)")
            assets.append(#"{"name": "\#(name)", "browser_download_url": "https://github.com/cli/cli/releases/download/v2.62.0/\#(name)"}"#)
        }
        try s.write("\(dir)/gh_2.62.0_checksums.txt", lines.joined(separator: "\n") + "\n")
        // GitHub's attestation of each, by gh's deployment workflow (as the registry requires),
        // made with the test's own Sigstore instance.
        try KeylessSignatureTests.python(["init", s.root + "/sigstore"])
        for (name, sum) in sums {
            let bundle = s.root + "/attestation-\(name).json"
            try KeylessSignatureTests.python(["sign", s.root + "/sigstore", s.root + "/\(dir)/\(name)", bundle, "--dsse", "https://slsa.dev/provenance/v1",
                                              "--identity", Self.deployment, "--repository", "https://github.com/cli/cli"])
            try s.write("www/repos/cli/cli/attestations/sha256:\(sum)", "{\"attestations\": [{\"bundle\": \(try String(contentsOfFile: bundle, encoding: .utf8))}]}")
        }
        let release = #"{"tag_name": "v2.62.0", "prerelease": false, "assets": [\#(assets.joined(separator: ","))]}"#
        try s.write("www/repos/cli/cli/releases/tags/v2.62.0", release)
        try s.write("www/repos/cli/cli/releases/index.html", #"[\#(release), {"tag_name": "v2.61.0", "assets": []}]"#)
        // jq jq-1.7.1: a bare program per platform (`format: raw`) and sha256sum.txt.
        let jq = "www/gh/jqlang/jq/releases/download/jq-1.7.1"
        try s.mkdir(jq)
        var jqLines: [String] = []
        for word in ["linux-amd64", "linux-arm64", "macos-arm64", "macos-amd64"] {
            try s.write("\(jq)/jq-\(word)", "#!/bin/sh\necho \"jq-1.7.1 (\(word))\"\n")
            sums["jq-\(word)"] = try sha256(s.root + "/\(jq)/jq-\(word)")
            jqLines.append("\(sums["jq-\(word)"] ?? "")  jq-\(word)")
        }
        try s.write("\(jq)/sha256sum.txt", jqLines.joined(separator: "\n") + "\n")
        try s.write("www/repos/jqlang/jq/releases/index.html", #"[{"tag_name": "jq-1.7.1", "assets": []}, {"tag_name": "jq-1.7", "assets": []}]"#)
        // actionlint v1.7.4 for this platform: a short name tack's own registry does not know.
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let al = "www/gh/rhysd/actionlint/releases/download/v1.7.4"
        try s.mkdir(al)
        let alAsset = "actionlint_1.7.4_\(Platform.current.os)_\(goarch).tar.gz"
        try Self.archive(s.root + "/\(al)/\(alAsset)", ["actionlint": "#!/bin/sh\necho actionlint 1.7.4\n"])
        sums[alAsset] = try sha256(s.root + "/\(al)/\(alAsset)")
        try s.write("\(al)/actionlint_1.7.4_checksums.txt", "\(sums[alAsset] ?? "")  \(alAsset)\n")
        try s.write("www/repos/rhysd/actionlint/releases/index.html", #"[{"tag_name": "v1.7.4", "assets": []}, {"tag_name": "v1.7.3", "assets": []}]"#)
        try s.write("www/repos/hashicorp/terraform/releases/index.html", #"[{"tag_name": "v1.9.5"}, {"tag_name": "v1.9.4"}, {"tag_name": "v1.10.0-rc1", "prerelease": true}]"#)
        let server = try FixtureServer(serving: s.root + "/www")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": Self.registry,
                   "TACK_SIGSTORE_TRUSTED_ROOT": s.root + "/sigstore/trusted_root.json"]
        return Fake(sandbox: s, server: server, env: env, sums: sums)
    }

    var here: String { Platform.current.description }

    /// `tack lock --verify` downloads each platform's asset again, checks the attestations
    /// aqua's registry names, and names a replaced asset.
    @Test func verifyDownloadsAndChecksEveryPlatformAgain() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  gh: { aqua: cli/cli, version: 2.62.0 }\nplatforms: [linux-x86_64, darwin-arm64]\n")
        #expect(try s.tack(["lock"], in: "app", env: f.env).status == 0)
        let verified = try s.tack(["lock", "--verify"], in: "app", env: f.env)
        #expect(verified.status == 0 && verified.stderr.contains("verified 2 downloads: each matches tack.lock"), "\(verified.stderr)")
        let mac = "gh_2.62.0_macOS_arm64.zip"
        try Self.archive(s.root + "/www/gh/cli/cli/releases/download/v2.62.0/" + mac, ["gh_2.62.0_macOS_arm64/bin/gh": "#!/bin/sh\necho evil\n"])
        let replaced = try s.tack(["lock", "--verify"], in: "app", env: f.env)
        #expect(replaced.status == 1 && replaced.stderr.contains("gh 2.62.0 (darwin-arm64): tack.lock says \(f.sums[mac] ?? "?"), but https://github.com/cli/cli/releases/download/v2.62.0/\(mac) now serves"), "\(replaced.stderr)")
    }

    @Test func aPackageIsLockedInstalledAndRunsAndFrozenInstallsTheSameBytes() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  gh: { aqua: cli/cli, version: \"~> 2.60\" }\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        // The attestation the registry names is checked, and who made it locked.
        #expect(!r.stderr.contains("not verified"), "\(r.stderr)")
        #expect(s.read("app/tack.lock")?.contains("\(here): \"sigstore:https://token.actions.githubusercontent.com \(Self.deployment)\"") == true, "\(s.read("app/tack.lock") ?? "")")
        #expect(try runProgram(s.root + "/tack-home/installs/gh/2.62.0/bin/gh") == "gh version 2.62.0 (\(here))\n")
        let lock = s.read("app/tack.lock") ?? ""
        let (word, format) = Self.gh[here] ?? ("linux_amd64", "tar.gz")
        let asset = "gh_2.62.0_\(word).\(format)"
        #expect(lock.contains("backend: \"aqua\"") && lock.contains("tag: \"v2.62.0\"") && lock.contains("registry: \"local\"") && lock.contains("registry-sha256: "), "\(lock)")
        #expect(lock.contains("\(here): \"https://github.com/cli/cli/releases/download/v2.62.0/\(asset)\"") && lock.contains("\(here): \"\(f.sums[asset] ?? "?")\""), "\(lock)")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: f.env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try runProgram(s.root + "/home2/installs/gh/2.62.0/bin/gh") == "gh version 2.62.0 (\(here))\n")
        // What tack sbom says of it: the GitHub package at its tag, this platform's download and hash.
        let bom = try s.tack(["sbom"], in: "app", env: f.env)
        #expect(bom.status == 0 && bom.stdout.contains("pkg:github/cli/cli@v2.62.0") && bom.stdout.contains(f.sums[asset] ?? "?"), "\(bom.stdout.prefix(2000))")
        // Verified by GitHub's attestation, which the registry names: who made it is said.
        #expect(bom.stdout.contains("\"signature\"") && bom.stdout.contains("keyless signatures aqua's registry"), "\(bom.stdout.prefix(3000))")
    }

    @Test func aLockForEveryPlatformFetchesOnlyTheChecksums() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  gh: { aqua: cli/cli, version: 2.62.0 }\nplatforms: [linux-x86_64, linux-arm64, darwin-arm64, darwin-x86_64]\n")
        let r = try s.tack(["lock"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        let lock = s.read("app/tack.lock") ?? ""
        for (platform, (word, format)) in Self.gh {
            let asset = "gh_2.62.0_\(word).\(format)"
            #expect(lock.contains("\(platform): \"\(f.sums[asset] ?? "?")\""), "\(platform): \(lock)")
            #expect(try f.requests("cli/cli/releases/download/v2.62.0/\(asset)") == 0, "\(asset) was downloaded")
        }
        #expect(try f.requests("cli/cli/releases/download/v2.62.0/gh_2.62.0_checksums.txt") >= 1)
    }

    @Test func aPrefixedTagAndABareProgram() throws {
        let f = try fake()
        let s = f.sandbox
        try s.mkdir("app")
        let r = try s.tack(["use", "jq@1.7.1", "--aqua", "jqlang/jq"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        let word = ["linux-x86_64": "linux-amd64", "linux-arm64": "linux-arm64", "darwin-arm64": "macos-arm64", "darwin-x86_64": "macos-amd64"][here] ?? ""
        #expect(try runProgram(s.root + "/tack-home/installs/jq/1.7.1/bin/jq") == "jq-1.7.1 (\(word))\n")
        #expect(s.read("app/tack.lock")?.contains("tag: \"jq-1.7.1\"") == true)
    }

    @Test func aLockCannotSendAnInstallElsewhereOrReadAnotherRegistry() throws {
        let f = try fake()
        let s = f.sandbox
        try FileManager.default.copyItem(atPath: Self.registry, toPath: s.root + "/registry.yaml")
        let env = f.env.merging(["TACK_AQUA_REGISTRY": s.root + "/registry.yaml"]) { $1 }
        try s.write("app/tack.yml", "tools:\n  gh: { aqua: cli/cli, version: 2.62.0 }\n")
        #expect(try s.tack(["lock"], in: "app", env: env).status == 0)
        let good = s.read("app/tack.lock") ?? ""
        try s.write("app/tack.lock", good.replacingOccurrences(of: "/releases/download/v2.62.0/gh_2.62.0_", with: "/releases/download/v2.62.0/evil_"))
        let moved = try s.tack(["install", "--frozen"], in: "app", env: env)
        #expect(moved.status != 0 && moved.stderr.contains("but aqua's registry local says"), "\(moved.stderr)")
        try s.write("app/tack.lock", good.replacingOccurrences(of: "tag: \"v2.62.0\"", with: "tag: \"v2.61.0\""))
        let tag = try s.tack(["install", "--frozen"], in: "app", env: env)
        #expect(tag.status != 0 && tag.stderr.contains("which does not name that version"), "\(tag.stderr)")
        // Another registry than the lock's: refused, not read differently.
        try s.write("app/tack.lock", good)
        try s.write("registry.yaml", (s.read("registry.yaml") ?? "") + "# changed\n")
        let other = try s.tack(["install", "--frozen"], in: "app", env: env)
        #expect(other.status != 0 && other.failures.contains { if case .install(.registryChanged(tag: "local", source: s.root + "/registry.yaml", _, _))? = $0.cause { true } else { false } }, "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/gh/2.62.0"))
    }

    /// A name no registry of tack's knows is looked up in aqua's: `tack use`, `ls-remote`, `search`.
    @Test func shortNamesComeFromAquasRegistry() throws {
        let f = try fake()
        let s = f.sandbox
        try s.mkdir("app")
        let r = try s.tack(["use", "actionlint@1.7.4"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("actionlint is rhysd/actionlint in aqua's registry local"), "\(r.stderr)")
        #expect(s.read("app/tack.yml")?.contains("actionlint: { aqua: \"rhysd/actionlint\", version: 1.7.4 }") == true, "\(s.read("app/tack.yml") ?? "")")
        #expect(try runProgram(s.root + "/tack-home/installs/actionlint/1.7.4/bin/actionlint") == "actionlint 1.7.4\n")
        let versions = try s.tack(["ls-remote", "terraform"], in: "app", env: f.env)
        #expect(versions.status == 0 && versions.stdout == "1.9.4\n1.9.5\n", "\(versions.stdout) \(versions.stderr)")
        let found = try s.tack(["search", "terraform"], in: "app", env: f.env)
        #expect(found.status == 0 && found.stdout.contains("terraform  aqua: hashicorp/terraform  Terraform enables you"), "\(found.stdout) \(found.stderr)")
        // tack's own registry too: jq is one of its short names.
        let jq = try s.tack(["search", "jq"], in: "app", env: f.env)
        #expect(jq.status == 0 && jq.stdout.contains("tack's registry") && jq.stdout.contains("aqua: jqlang/jq"), "\(jq.stdout) \(jq.stderr)")
        let none = try s.tack(["search", "no-such-tool-anywhere"], in: "app", env: f.env)
        #expect(none.status == 1 && none.stderr.contains("nothing in the catalogs matches"), "\(none.stderr)")
        // Offline, or with the registry out of reach, a name nobody knows says so as before.
        let offline = try s.tack(["use", "nosuch@1.0"], in: "app", env: f.env.merging(["TACK_AQUA_REGISTRY": s.root + "/missing.yaml"]) { $1 })
        #expect(offline.status != 0 && offline.stderr.contains("tack could not look nosuch up in aqua's catalog") && offline.stderr.contains("no registry knows nosuch"), "\(offline.stderr)")
    }

    /// `tack use aqua:owner/repo@version`: the source in the tool argument.
    @Test func aSourcePrefixInTheToolArgument() throws {
        let f = try fake()
        let s = f.sandbox
        try s.mkdir("app")
        let r = try s.tack(["use", "aqua:cli/cli@2.62.0"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.yml")?.contains("cli: { aqua: \"cli/cli\", version: 2.62.0 }") == true, "\(s.read("app/tack.yml") ?? "")")
        #expect(try runProgram(s.root + "/tack-home/installs/cli/2.62.0/bin/gh") == "gh version 2.62.0 (\(here))\n")
        let other = try s.tack(["uninstall", "aqua:cli/cli"], in: "app", env: f.env)
        #expect(other.status == 2 && other.stderr.contains("names a source (`aqua:`), which only `tack use` takes — write the tool's name, cli"), "\(other.stderr)")
        let both = try s.tack(["use", "aqua:cli/cli@2.62.0", "--release", "cli/cli"], in: "app", env: f.env)
        #expect(both.status == 2 && both.stderr.contains("give one source"), "\(both.stderr)")
        let empty = try s.tack(["use", "aqua:@1.0"], in: "app", env: f.env)
        #expect(empty.status == 2 && empty.stderr.contains("names no package after `aqua:`"), "\(empty.stderr)")
    }

    /// A project with only aqua.yaml installs from it, and runs its tools.
    @Test func anAquaYAMLProjectInstallsAndRuns() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/aqua.yaml", "registries:\n  - type: standard\n    ref: v4.99.1\npackages:\n  - name: cli/cli@v2.62.0\n  - name: rhysd/actionlint@v1.7.4\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/cli/2.62.0/bin/gh") == "gh version 2.62.0 (\(here))\n")
        let run = try s.tack(["exec", "--", "actionlint"], in: "app", env: f.env)
        #expect(run.status == 0 && run.stdout == "actionlint 1.7.4\n", "\(run.stdout) \(run.stderr)")
        let current = try s.tack(["current", "cli"], in: "app", env: f.env)
        #expect(current.stdout.contains("2.62.0") && current.stdout.contains("aqua.yaml:5"), "\(current.stdout)")
    }

    /// A project with only mise.toml: its [tools] install, its [env] is said to be ignored.
    @Test func aMiseProjectInstallsAndRuns() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/mise.toml", "[env]\nFOO = \"bar\"\n\n[tools]\n\"aqua:cli/cli\" = \"2.62.0\"\n\"aqua:rhysd/actionlint\" = [\"1.7\"]\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("mise's [env] is not tack's and is ignored"), "\(r.stderr)")
        let run = try s.tack(["exec", "--", "gh"], in: "app", env: f.env)
        #expect(run.status == 0 && run.stdout == "gh version 2.62.0 (\(here))\n", "\(run.stdout) \(run.stderr)")
        let current = try s.tack(["current", "actionlint"], in: "app", env: f.env)
        #expect(current.stdout.contains("1.7.4") && current.stdout.contains("mise.toml:6"), "\(current.stdout)")
    }

    /// A single compressed program (`format: gz`), decompressed into bin/; one that is not a
    /// program, or not compressed, is refused.
    @Test func aCompressedProgram() throws {
        let s = try Sandbox()
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let dir = "www/gh/acme/zipped/releases/download/v2.0.0"
        try s.mkdir(dir)
        let asset = s.root + "/\(dir)/zipped-\(Platform.current.os)-\(goarch).gz"
        try FixturePython.check(["-c", "import gzip,sys; open(sys.argv[1],'wb').write(gzip.compress(sys.argv[2].encode()))", asset, "#!/bin/sh\necho zipped 2.0.0\n"])
        try s.write("www/repos/acme/zipped/releases/index.html", #"[{"tag_name": "v2.0.0"}]"#)
        try s.write("registry.yaml", "packages:\n  - type: github_release\n    repo_owner: acme\n    repo_name: zipped\n    asset: zipped-{{.OS}}-{{.Arch}}.gz\n    format: gz\n")
        let server = try FixtureServer(serving: s.root + "/www")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": s.root + "/registry.yaml"]
        try s.write("app/tack.yml", "tools:\n  zipped: { aqua: acme/zipped, version: 2.0.0 }\n")
        let r = try s.tack(["install"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/zipped/2.0.0/bin/zipped") == "zipped 2.0.0\n")
        // A text file, compressed: not a program.
        try FixturePython.check(["-c", "import gzip,sys; open(sys.argv[1],'wb').write(gzip.compress(b'<html>not found</html>'))", asset])
        try FileManager.default.removeItem(atPath: s.root + "/app/tack.lock")
        let page = try s.tack(["install"], in: "app", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(page.status != 0 && page.stderr.contains("decompresses to a file that is not a program"), "\(page.stderr)")
        // Not compressed at all.
        try s.write("\(dir)/zipped-\(Platform.current.os)-\(goarch).gz", "#!/bin/sh\necho plain\n")
        let plain = try s.tack(["install"], in: "app", env: env.merging(["TACK_HOME": s.root + "/home3"]) { $1 })
        #expect(plain.status != 0 && plain.stderr.contains("cannot be decompressed"), "\(plain.stderr)")
    }

    /// A registry file of the project's own (`registry:` in tack.yml, a local registry in
    /// aqua.yaml) chooses what is downloaded and run: nothing from it before `tack trust`.
    @Test func aProjectsOwnRegistryNeedsTrust() throws {
        let s = try Sandbox()
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let dir = "www/gh/acme/own/releases/download/v3.0.0"
        try s.mkdir(dir)
        try s.write("\(dir)/own-\(Platform.current.os)-\(goarch)", "#!/bin/sh\necho own 3.0.0\n")
        try s.write("www/repos/acme/own/releases/index.html", #"[{"tag_name": "v3.0.0"}]"#)
        let registry = "packages:\n  - type: github_release\n    repo_owner: acme\n    repo_name: own\n    asset: own-{{.OS}}-{{.Arch}}\n    format: raw\n"
        try s.write("app/registry.yaml", registry)
        try s.write("lone/registry.yaml", registry)
        let server = try FixtureServer(serving: s.root + "/www")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": s.root + "/missing.yaml"]
        try s.write("app/tack.yml", "tools:\n  own: { aqua: acme/own, version: 3.0.0, registry: registry.yaml }\n")
        let refused = try s.tack(["install"], in: "app", env: env)
        #expect(refused.status != 0 && refused.stderr.contains("the aqua registry file registry.yaml, which chooses what is downloaded and run") && refused.stderr.contains("not trusted"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/own"))
        #expect(try s.tack(["trust"], in: "app", env: env).status == 0)
        let trusted = try s.tack(["install"], in: "app", env: env)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/own/3.0.0/bin/own") == "own 3.0.0\n")
        // aqua.yaml's local registry alike.
        try s.write("lone/aqua.yaml", "registries:\n  - name: mine\n    type: local\n    path: registry.yaml\npackages:\n  - name: acme/own@v3.0.0\n    registry: mine\n")
        let lone = try s.tack(["install"], in: "lone", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(lone.status != 0 && lone.stderr.contains("not trusted"), "\(lone.stderr)")
        #expect(try s.tack(["trust"], in: "lone", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 }).status == 0)
        let loneTrusted = try s.tack(["install"], in: "lone", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(loneTrusted.status == 0, "\(loneTrusted.stderr)")
    }

    /// `tack use terraform@1.9.5`: a short name of aqua's registry whose downloads are on
    /// HashiCorp's own site (an `http` package), served here through `TACK_MIRRORS`.
    @Test func terraformFromItsOwnSiteThroughAMirror() throws {
        let f = try fake()
        let s = f.sandbox
        let goarch = Platform.current.arch == "x86_64" ? "amd64" : Platform.current.arch
        let dir = "www/hashicorp/terraform/1.9.5"
        try s.mkdir(dir)
        let asset = "terraform_1.9.5_\(Platform.current.os)_\(goarch).zip"
        try Self.archive(s.root + "/\(dir)/\(asset)", ["terraform": "#!/bin/sh\necho Terraform v1.9.5\n"])
        try s.write("\(dir)/terraform_1.9.5_SHA256SUMS", "\(try sha256(s.root + "/\(dir)/\(asset)"))  \(asset)\n")
        let env = f.env.merging(["TACK_MIRRORS": "https://releases.hashicorp.com=\(f.server.url("static/hashicorp"))"]) { $1 }
        try s.mkdir("app")
        let r = try s.tack(["use", "terraform@1.9.5"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("terraform is hashicorp/terraform in aqua's registry local"), "\(r.stderr)")
        #expect(try runProgram(s.root + "/tack-home/installs/terraform/1.9.5/bin/terraform") == "Terraform v1.9.5\n")
        #expect(s.read("app/tack.lock")?.contains("https://releases.hashicorp.com/terraform/1.9.5/\(asset)") == true, "the lock names the publisher's URL, not the mirror's")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(frozen.status == 0, "\(frozen.stderr)")
    }

    /// With no TACK_AQUA_REGISTRY: aqua-registry's newest release, its registry.yaml downloaded
    /// once per tag and pinned in tack.lock; a newer release is taken only by `tack update`.
    @Test func theStandardRegistryIsPinnedAndMovesOnlyWhenAsked() throws {
        let f = try fake()
        let s = f.sandbox
        var env = f.env
        env["TACK_AQUA_REGISTRY"] = nil
        func publish(_ tag: String, extra: String = "") throws {
            try s.mkdir("www/gh/aquaproj/aqua-registry/raw/\(tag)")
            try s.write("www/gh/aquaproj/aqua-registry/raw/\(tag)/registry.yaml", (try String(contentsOfFile: Self.registry, encoding: .utf8)) + extra)
            try s.write("www/repos/aquaproj/aqua-registry/releases/latest", #"{"tag_name": "\#(tag)"}"#)
        }
        try publish("v4.99.1")
        try s.write("app/tack.yml", "tools:\n  gh: { aqua: cli/cli, version: 2.62.0 }\n")
        let first = try s.tack(["install"], in: "app", env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(s.read("app/tack.lock")?.contains("registry: \"v4.99.1\"") == true, "\(s.read("app/tack.lock") ?? "")")
        #expect(FileManager.default.fileExists(atPath: s.root + "/tack-home/cache/aqua/registry-v4.99.1.yaml"))
        // A newer registry release: installs keep the locked one; `tack update` moves to it.
        try publish("v5.0.0", extra: "# a newer release\n")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/gh")
        let again = try s.tack(["install"], in: "app", env: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(s.read("app/tack.lock")?.contains("registry: \"v4.99.1\"") == true)
        #expect(try f.server.requests("static/gh/aquaproj/aqua-registry/raw/v4.99.1/registry.yaml") == 1, "downloaded once per tag")
        let update = try s.tack(["update", "gh"], in: "app", env: env)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(s.read("app/tack.lock")?.contains("registry: \"v5.0.0\"") == true, "\(s.read("app/tack.lock") ?? "")")
        // A lock naming a registry release whose file is not what it was: refused.
        try s.write("www/gh/aquaproj/aqua-registry/raw/v5.0.0/registry.yaml", (try String(contentsOfFile: Self.registry, encoding: .utf8)) + "# changed\n")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: env.merging(["TACK_HOME": s.root + "/home2"]) { $1 })
        #expect(frozen.status != 0 && frozen.failures.contains { if case .install(.registryChanged(tag: "v5.0.0", _, _, _))? = $0.cause { true } else { false } }, "\(frozen.stderr)")
    }

    @Test func aPackageTheRegistryLacksIsSaid() throws {
        let f = try fake()
        let s = f.sandbox
        try s.write("app/tack.yml", "tools:\n  nope: { aqua: nobody/nothing, version: 1.0.0 }\n")
        let r = try s.tack(["install"], in: "app", env: f.env)
        #expect(r.status != 0 && r.stderr.contains("aqua's registry local has no package \"nobody/nothing\""), "\(r.stderr)")
    }
}
