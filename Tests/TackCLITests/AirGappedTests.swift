import Foundation
import TackCore
import Testing

/// `tack mirror` and `tack install --from`: a lock with an aqua tool (keyless attestations), a
/// url tool behind the global manifest's mirror rule, a Swift package tool whose build is in the team cache and a pip tool,
/// for two platforms, carried to a directory and to an OCI registry, then installed on a
/// machine with no network at all (`unshare --net`), where every tool runs.
@Suite(.ownThreads, .enabled(if: RegistryServer.isAvailable, "needs docker-registry: ./bootstrap.sh --dev"))
struct AirGappedTests {
    static let here = Platform.current.description
    static let other = here == "darwin-arm64" ? "linux-x86_64" : "darwin-arm64"

    /// The lock's world, online: aqua's fake GitHub (gh, with attestations), a url tool's
    /// archives, a PEP 503 index of wheels, a git tool, and a team cache that has its build.
    struct World {
        var sandbox: Sandbox
        var aqua: AquaBackendTests.Fake
        var registry: RegistryServer
        var online: [String: String]
    }

    func world() throws -> World {
        let f = try AquaBackendTests().fake()
        let s = f.sandbox
        for p in [Self.here, Self.other] {
            try s.mkdir("www/dl")
            try FixtureServer.archive("tar.gz", s.root + "/www/dl/shellcheck-v0.10.0-\(p).tar.gz", version: "0.10.0")
        }
        try s.mkdir("www/pypi")
        for args in [["wheel", "greet", "1.1.0", s.root + "/www/pypi", "helper>=1"], ["wheel", "helper", "1.2.0", s.root + "/www/pypi"], ["simple", s.root + "/www/pypi"]] {
            try FixturePython.check([FixtureServer.script] + args)
        }
        // A Swift package tool; the team cache gets its build from the first install.
        let repo = try GitFixture.tool(in: s, name: "hello-swift", tags: [])
        try s.write("hello-swift/Package.swift", """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(name: "hello", products: [.executable(name: "hello", targets: ["hello"])], targets: [.executableTarget(name: "hello")])
            """)
        try s.write("hello-swift/Sources/hello/main.swift", "print(\"hello 1.0.0, built elsewhere\")\n")
        try repo.git("add", ".")
        try repo.commitAndTag("1.0.0")
        let registry = try RegistryServer()
        try s.writeTrusted("app/tack.yml", """
            platforms: [\(Self.here), \(Self.other)]
            tools:
              gh: { aqua: cli/cli, version: 2.62.0 }
              shellcheck: { url: "https://dl.example/shellcheck-v{version}-{os}-{arch}.tar.gz", version: 0.10.0, bin: "shellcheck-v{version}/shellcheck" }
              hello: { git: "\(repo.path)", version: 1.0.0 }
              greet: { pip: greet, version: 1.1.0, index_url: "\(f.server.url("static/pypi/simple"))" }

            """)
        // The url tool's publisher, reached through a mirror rule of the user's global manifest.
        try s.write("home/.config/tack/tack.yml", "mirrors:\n  https://dl.example: \(f.server.url("static/dl"))\n")
        let online = f.env.merging(["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1", "PATH": try Self.path()]) { $1 }
        return World(sandbox: s, aqua: f, registry: registry, online: online)
    }

    /// Another machine, with no network: its own HOME and TACK_HOME, the files it was given
    /// (aqua's registry, the Sigstore trusted root) and uv; no mirror, no team cache.
    func offline(_ w: World, _ name: String) throws -> [String: String] {
        try w.sandbox.mkdir(name + "/home")
        return ["HOME": w.sandbox.root + "/" + name + "/home", "TACK_HOME": w.sandbox.root + "/" + name + "/tack-home",
                "TACK_AQUA_REGISTRY": w.aqua.env["TACK_AQUA_REGISTRY"] ?? "", "TACK_SIGSTORE_TRUSTED_ROOT": w.aqua.env["TACK_SIGSTORE_TRUSTED_ROOT"] ?? "",
                "PATH": try Self.path()]
    }

    /// uv, Swift (the toolchain is part of a build's key) and the system's programs.
    static func path() throws -> String {
        let swift = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").first { FileManager.default.isExecutableFile(atPath: $0 + "/swift") }
        return try uvDirectory() + (swift.map { ":" + $0 } ?? "") + ":/usr/bin:/bin"
    }

    /// `args` run with no network: in a network namespace of its own, whose only interface
    /// (loopback) is down.
    func noNetwork(_ s: Sandbox, _ program: String, _ args: [String], env: [String: String]) throws -> Sandbox.Result {
        try s.tack(["--net", "--", program] + args, in: "app", env: env, program: "/usr/bin/unshare")
    }

    func tools(_ s: Sandbox, _ env: [String: String]) throws -> [String] {
        let shims = (env["TACK_HOME"] ?? "") + "/shims/"
        return try ["gh", "shellcheck", "hello", "greet"].map { try noNetwork(s, shims + $0, [], env: env).stdout }
    }

    @Test func aWholeLockCarriedToAMachineWithNoNetworkInstallsAndRuns() throws {
        let w = try world()
        let s = w.sandbox
        let installed = try s.tack(["install"], in: "app", env: w.online)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stderr.contains("hello 1.0.0: pushed to the team cache"), "\(installed.stderr)")
        let lock = s.read("app/tack.lock") ?? ""

        let dir = try s.tack(["mirror", s.root + "/copy"], in: "app", env: w.online)
        #expect(dir.status == 0, "\(dir.stderr)")
        #expect(dir.stderr.contains("copied 4 tools (") && dir.stderr.contains(", 1 build) for \([Self.here, Self.other].sorted().joined(separator: ", ")) to \(s.root)/copy"), "\(dir.stderr)")
        // The copy answers the publishers' URLs (the mirror rule is this machine's), for
        // every platform the lock covers, with the attestations GitHub's API gave.
        let index = s.read("copy/tack-copy.json") ?? ""
        for url in ["https://dl.example/shellcheck-v0.10.0-\(Self.other).tar.gz", "https://github.com/cli/cli/releases/download/v2.62.0/gh_2.62.0_macOS_arm64.zip",
                    "https://api.github.com/repos/cli/cli/attestations/sha256:"] {
            #expect(index.contains(url), "\(url) in \(index)")
        }
        #expect(!index.contains(w.aqua.server.url("static/dl")) && !index.contains(w.aqua.server.url("static/gh")), "no mirror's URL: \(index)")
        let oci = "oci://127.0.0.1:\(w.registry.port)/copies/app:v1"
        let pushed = try s.tack(["mirror", oci], in: "app", env: w.online)
        #expect(pushed.status == 0 && pushed.stderr.contains("to \(oci) (sha256:"), "\(pushed.stderr)")
        w.registry.stop()

        // A machine with no network, from the directory.
        let laptop = try offline(w, "laptop")
        #expect(try s.tack(["trust"], in: "app", env: laptop).status == 0)
        let fromDir = try noNetwork(s, try Sandbox.binary(), ["install", "--frozen", "--from", s.root + "/copy"], env: laptop)
        #expect(fromDir.status == 0, "\(fromDir.stderr)")
        #expect(fromDir.stderr.contains("4 installed") && fromDir.stderr.contains("1 from the team cache"), "\(fromDir.stderr)")
        #expect(try tools(s, laptop) == ["gh version 2.62.0 (\(Self.here))\n", "shellcheck 0.10.0\n", "hello 1.0.0, built elsewhere\n", "greet 1.1.0\n"])
        #expect(s.read("app/tack.lock") == lock, "installed exactly tack.lock, unchanged")

        // Another, from the registry: one that runs inside the air gap (the same storage,
        // served in the machine's own network namespace).
        let desk = try offline(w, "desk")
        #expect(try s.tack(["trust"], in: "app", env: desk).status == 0)
        let script = """
            ip link set lo up
            /usr/bin/docker-registry serve \(w.registry.root)/config.yml >/dev/null 2>&1 &
            registry=$!
            for i in $(seq 1 300); do curl -s -o /dev/null http://127.0.0.1:\(w.registry.port)/v2/ && break; sleep 0.05; done
            "$0" install --frozen --from "\(oci)"
            status=$?
            kill -9 $registry
            exit $status
            """
        let fromRegistry = try noNetwork(s, "/bin/sh", ["-c", script, try Sandbox.binary()], env: desk)
        #expect(fromRegistry.status == 0, "\(fromRegistry.stderr)")
        #expect(try tools(s, desk) == ["gh version 2.62.0 (\(Self.here))\n", "shellcheck 0.10.0\n", "hello 1.0.0, built elsewhere\n", "greet 1.1.0\n"])

        // A copy that lacks a file says which, and installs nothing.
        let wheel = try #require(try FileManager.default.contentsOfDirectory(atPath: s.root + "/copy/wheels").first { $0.hasPrefix("helper-") })
        try FileManager.default.removeItem(atPath: s.root + "/copy/wheels/" + wheel)
        let cut = try offline(w, "cut")
        #expect(try s.tack(["trust"], in: "app", env: cut).status == 0)
        let lacking = try noNetwork(s, try Sandbox.binary(), ["install", "--from", s.root + "/copy"], env: cut)
        #expect(lacking.status == 1, "\(lacking.stderr)")
        #expect(lacking.stderr.contains("greet 1.1.0: the copy lacks \(wheel)") && lacking.stderr.contains("so nothing was installed"), "\(lacking.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/cut/tack-home/installs"), "nothing installed")
    }

    /// A Swift toolchain (its archive and signature, from a swift.org mirror) carried to a
    /// machine with no network and no mirror: installed, its signature checked against the
    /// keyring, and run.
    @Test func aSwiftToolchainIsCarriedWithItsSignature() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try m.releases(["6.0.3"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let installed = try s.tack(["install"], in: "app", env: m.environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let copied = try s.tack(["mirror", s.root + "/copy"], in: "app", env: m.environment)
        #expect(copied.status == 0 && copied.stderr.contains("copied 1 tool (1 artifact)"), "\(copied.stderr)")
        let index = s.read("copy/tack-copy.json") ?? ""
        #expect(index.contains("\"https://download.swift.org/swift-6.0.3-release/") && index.contains(".tar.gz.sig\""), "the publisher's URLs, the signature too: \(index)")
        m.server = nil
        try s.mkdir("laptop/home")
        // The copy named by TACK_MIRROR_FROM, as CI would.
        let laptop = ["HOME": s.root + "/laptop/home", "TACK_HOME": s.root + "/laptop/tack-home", "TACK_SWIFT_KEYRING": s.root + "/keyring.asc",
                      "TACK_MIRROR_FROM": s.root + "/copy"]
        let r = try s.tack(["--net", "--", try Sandbox.binary(), "install"], in: "app", env: laptop, program: "/usr/bin/unshare")
        #expect(r.status == 0, "\(r.stderr)")
        let run = try s.tack(["--net", "--", s.root + "/laptop/tack-home/shims/swift", "--version"], in: "app", env: laptop, program: "/usr/bin/unshare")
        #expect(run.stdout.contains("Swift version swift-6.0.3-RELEASE"), "\(run.stdout)\(run.stderr)")
    }

    /// Gems (each gem file, by name) and an asdf plugin (its repository, bare) carried: the gem
    /// installs from the copy's files with no source, the plugin is fetched from its copy at
    /// the locked commit.
    @Test func gemsAndAnAsdfPluginAreCarried() throws {
        let s = try Sandbox()
        try GemBackendTests.buildGem(s, "helper", "1.2.0")
        try GemBackendTests.buildGem(s, "greet", "1.1.0", dependsOn: "helper")
        try GemBackendTests.index(s)
        let server = try FixtureServer(serving: s.root + "/repo")
        let plugin = try GitFixture.asdfPlugin(in: s, name: "asdf-hi", scripts: [
            "list-all": "echo 1.0.0\n",
            "install": "set -e\nmkdir -p \"$ASDF_INSTALL_PATH/bin\"\nprintf '#!/bin/sh\\necho hi %s\\n' \"$ASDF_INSTALL_VERSION\" > \"$ASDF_INSTALL_PATH/bin/hi\"\nchmod +x \"$ASDF_INSTALL_PATH/bin/hi\"\n",
            "list-bin-paths": "echo bin\n",
        ])
        try s.writeTrusted("app/tack.yml", "tools:\n  greet: { gem: greet, version: 1.1.0, source: \"\(server.url("static/"))\" }\n  hi: { asdf: \"\(plugin.path)\", version: 1.0.0 }\n")
        let path = ["PATH": "/usr/bin:/bin"]
        let installed = try s.tack(["install"], in: "app", env: path)
        #expect(installed.status == 0, "\(installed.stderr)")
        let copied = try s.tack(["mirror", s.root + "/copy"], in: "app", env: path)
        #expect(copied.status == 0 && copied.stderr.contains("copied 2 tools"), "\(copied.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.root + "/copy/gems/greet-1.1.0.gem") && FileManager.default.fileExists(atPath: s.root + "/copy/gems/helper-1.2.0.gem"))
        // Gems are kept by name only: not a second time under the source's URL, which may
        // carry its credentials.
        let index = s.read("copy/tack-copy.json") ?? ""
        #expect(!index.contains("gems\\/greet") && !index.contains("gems/greet") && !index.contains("127.0.0.1"), "\(index)")
        #expect(copied.stderr.contains("no team cache is set, so no build is carried"), "said of the asdf tool: \(copied.stderr)")
        try s.mkdir("laptop/home")
        let laptop = ["HOME": s.root + "/laptop/home", "TACK_HOME": s.root + "/laptop/tack-home", "PATH": "/usr/bin:/bin"]
        #expect(try s.tack(["trust"], in: "app", env: laptop).status == 0)
        let r = try s.tack(["--net", "--", try Sandbox.binary(), "install", "--from", s.root + "/copy"], in: "app", env: laptop, program: "/usr/bin/unshare")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("note: hi 1.0.0: no team cache is set, so no build is carried"), "said again: \(r.stderr)")
        let shims = s.root + "/laptop/tack-home/shims/"
        #expect(try s.tack(["--net", "--", shims + "greet", "x"], in: "app", env: laptop, program: "/usr/bin/unshare").stdout.hasPrefix("greet 1.1.0 helper 1.2.0"))
        #expect(try s.tack(["--net", "--", shims + "hi"], in: "app", env: laptop, program: "/usr/bin/unshare").stdout == "hi 1.0.0\n")
        withExtendedLifetime(server) {}
    }
}
