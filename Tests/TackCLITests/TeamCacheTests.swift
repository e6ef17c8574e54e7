import Foundation
import Testing

/// The team cache against a real registry (CNCF Distribution on loopback): builds pushed from
/// one TACK_HOME and pulled into another, auth, integrity, trust and faults.
@Suite(.ownThreads, .serialized, .enabled(if: RegistryServer.isAvailable, "needs docker-registry: ./bootstrap.sh --dev"))
struct TeamCacheTests {
    /// A project pinning the `hello` build (`sh build.sh`, which logs each build to `log`),
    /// trusted, in `dir`.
    func project(_ s: Sandbox, _ repo: GitFixture, dir: String = "app", extra: String = "") throws {
        try s.writeTrusted(dir + "/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n" + extra)
    }

    func builds(_ s: Sandbox) -> Int { (s.read("builds.log") ?? "").split(separator: "\n").count }

    /// The environment of another machine: its own HOME and TACK_HOME.
    func machine(_ s: Sandbox, _ name: String, _ extra: [String: String] = [:]) throws -> [String: String] {
        try s.mkdir(name + "/home")
        return ["HOME": s.root + "/" + name + "/home", "TACK_HOME": s.root + "/" + name + "/tack-home"].merging(extra) { $1 }
    }

    @Test func buildPushedByOneMachineIsPulledByAnother() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        let cache = ["TACK_CACHE": registry.cacheURL()]

        // CI: builds and pushes; the digest is pinned on that machine, never written into
        // tack.lock (issue 30, item 20: the documented flow leaves no lock change anywhere).
        let ci = try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_PUSH": "1"]) { $1 })
        #expect(ci.status == 0, "\(ci.stderr)")
        #expect(ci.stderr.contains("hello 1.0.0: pushed to the team cache \(registry.cacheURL())"), "\(ci.stderr)")
        #expect(builds(s) == 1)
        let tags = try registry.tags("team/hello")
        #expect(tags.count == 1 && tags[0].count == 64, "one tag, the key's digest: \(tags)")
        let lock = s.read("app/tack.lock") ?? ""
        #expect(!lock.contains("cache:"), "\(lock)")
        #expect((s.read("tack-home/state/cache-digests") ?? "").hasPrefix("\(tags.first ?? "?") sha256:"))

        // A laptop: a fresh TACK_HOME pulls instead of building.
        let laptop = try machine(s, "laptop", cache)
        _ = try s.tack(["trust"], in: "app", env: laptop)
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(builds(s) == 1, "pulled, not built")
        #expect(pull.stderr.contains("1 installed (1 from the team cache)"), "\(pull.stderr)")
        let run = try s.tack(["exec", "--", "hello"], in: "app", env: laptop)
        #expect(run.stdout == "hello 1.0.0\n", "\(run.stderr)")
        #expect(s.read("app/tack.lock") == lock, "a pull leaves tack.lock as it was")
        #expect(try s.tack(["install", "--frozen"], in: "app", env: laptop).status == 0)
        #expect(s.read("app/tack.lock") == lock)
        let record = s.read("laptop/tack-home/installs/hello/1.0.0/.tack-install.lock") ?? ""
        #expect(record.contains("binaries: [\"bin/hello\"]"), "\(record)")
        // It says where it came from: the team cache, not a build here (issue 33 item 5).
        #expect(try s.tack(["ls", "--json"], in: "app", env: laptop).stdout.contains(#""from":"team-cache"}"#))

        // `--no-cache` builds here all the same.
        let third = try machine(s, "third", cache)
        _ = try s.tack(["trust"], in: "app", env: third)
        let local = try s.tack(["install", "--no-cache"], in: "app", env: third)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(builds(s) == 2)

        // `tack cache status`: hit, with the key.
        let status = try s.tack(["cache", "status", "--json"], in: "app", env: laptop)
        #expect(status.status == 0, "\(status.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.first?["status"] as? String == "hit", "\(status.stdout)")
        #expect(rows.first?["tag"] as? String == tags.first)
        let key = rows.first?["key"] as? [String: String] ?? [:]
        #expect(key["commit"] == (try repo.commit(of: "1.0.0")) && key["build"] == "sh build.sh" && key["platform.os"] == "linux" && key["format"] == "1", "\(key)")
    }

    /// The central case: a Swift package tool built and pushed from one TACK_HOME, then
    /// installed in a fresh one whose `swift` cannot build anything (it answers `--version` as
    /// the real toolchain does, since the toolchain is part of the key, and fails every other
    /// command), so only a pull can succeed.
    @Test func swiftPackageBuiltOnceIsPulledWhereSwiftCannotBuild() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, name: "greet", tags: [])
        try s.write("greet/Package.swift", """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(name: "greet", products: [.executable(name: "greet", targets: ["greet"])], targets: [.executableTarget(name: "greet")])
            """)
        try s.write("greet/Sources/greet/main.swift", "print(\"greetings from a build made elsewhere\")\n")
        try repo.git("add", ".")
        try repo.commitAndTag("1.0.0")
        // CI trusts its own repository's tack.yml: only builds from trusted pins are pushed.
        try s.writeTrusted("app/tack.yml", "tools:\n  greet: { git: \"\(repo.path)\", version: 1.0.0 }\n")
        let cache = ["TACK_CACHE": registry.cacheURL()]
        let ci = try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_PUSH": "1"]) { $1 })
        #expect(ci.status == 0, "\(ci.stderr)")
        #expect(ci.stderr.contains("greet 1.0.0: pushed to the team cache"), "\(ci.stderr)")

        let real = try RegistryServer.capture("/usr/bin/env", ["swift", "--version"])
        try s.write("broken/version.txt", real + "\n")
        try s.write("broken/bin/swift", """
            #!/bin/sh
            echo "$*" >> \(s.root)/broken/calls.log
            if [ "$1" = "--version" ]; then cat \(s.root)/broken/version.txt; exit 0; fi
            echo "this swift cannot build anything" >&2
            exit 1
            """)
        chmod(s.root + "/broken/bin/swift", 0o755)
        let path = s.root + "/broken/bin:" + (s.environment["PATH"] ?? "")
        let laptop = try machine(s, "laptop", cache.merging(["PATH": path]) { $1 })
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("1 installed (1 from the team cache)"), "\(pull.stderr)")
        let calls = s.read("broken/calls.log") ?? ""
        #expect(!calls.contains("build") && !calls.contains("package"), "nothing was built: \(calls)")
        let out = try runProgram(s.root + "/laptop/tack-home/installs/greet/1.0.0/bin/greet")
        #expect(out == "greetings from a build made elsewhere\n")
        let record = s.read("laptop/tack-home/installs/greet/1.0.0/.tack-install.lock") ?? ""
        #expect(record.contains("swift: \"Swift version"), "the builder's toolchain is recorded: \(record)")

        // Another toolchain is another key: a miss, so this machine has to build, and cannot.
        try s.write("broken/version.txt", "Swift version 5.10.1 (swift-5.10.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n")
        let other = try machine(s, "other", cache.merging(["PATH": path]) { $1 })
        let miss = try s.tack(["install"], in: "app", env: other)
        #expect(miss.status == 1, "\(miss.stderr)")
        #expect(miss.stderr.contains("this swift cannot build anything"), "\(miss.stderr)")
    }

    @Test func pushedManifestIsStandardOCIThatSkopeoReads() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, repo)
        let r = try s.tack(["install"], in: "app", env: ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let tag = try #require(try registry.tags("team/hello").first)
        let raw = try RegistryServer.capture("/usr/bin/skopeo", ["inspect", "--raw", "--tls-verify=false", "docker://127.0.0.1:\(registry.port)/team/hello:\(tag)"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any], "skopeo printed: \(raw)")
        #expect(manifest["mediaType"] as? String == "application/vnd.oci.image.manifest.v1+json")
        #expect(manifest["artifactType"] as? String == "application/vnd.tack.install.v1")
        let layers = manifest["layers"] as? [[String: Any]] ?? []
        #expect(layers.count == 1 && layers.first?["mediaType"] as? String == "application/vnd.oci.image.layer.v1.tar+zstd")
        let annotations = manifest["annotations"] as? [String: String] ?? [:]
        #expect(annotations["dev.tack.key.commit"] == (try repo.commit(of: "1.0.0")))
        #expect(annotations["dev.tack.key.source"] == repo.path)
        // The layer is an ordinary tar+zstd: another tool can unpack it.
        let digest = try #require(layers.first?["digest"] as? String)
        let blob = s.root + "/layer.tar.zst"
        try RegistryServer.capture("/usr/bin/curl", ["-s", "-o", blob, "http://127.0.0.1:\(registry.port)/v2/team/hello/blobs/\(digest)"])
        let listing = try RegistryServer.capture("/usr/bin/tar", ["--zstd", "-tvf", blob])
        #expect(listing.contains("bin/hello") && !listing.contains(".tack-install.lock"), "\(listing)")
    }

    @Test func basicAuthWithCredentialsFromTheEnvironmentAndDockerConfig() throws {
        let registry = try RegistryServer(auth: .basic)
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        let cache = ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1", "TACK_VERBOSE": "1"]

        // No credentials: the push fails, the install does not, and says why in one line.
        let anonymous = try s.tack(["install"], in: "app", env: cache)
        #expect(anonymous.status == 0, "\(anonymous.stderr)")
        #expect(anonymous.stderr.contains("hello 1.0.0: the team cache \(registry.cacheURL()) could not be read") || anonymous.stderr.contains("could not push to the team cache"), "\(anonymous.stderr)")
        #expect(anonymous.stderr.contains("TACK_CACHE_USERNAME"), "\(anonymous.stderr)")

        // A wrong password: refused, and never shown.
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs")
        let wrong = try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_USERNAME": RegistryServer.user, "TACK_CACHE_PASSWORD": "not-the-Pa55word"]) { $1 })
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("refused"), "\(wrong.stderr)")
        #expect(!(wrong.stderr + wrong.stdout).contains("not-the-Pa55word"))

        // CI's credentials from the environment: pushed.
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs")
        let ci = try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_USERNAME": RegistryServer.user, "TACK_CACHE_PASSWORD": RegistryServer.password]) { $1 })
        #expect(ci.status == 0, "\(ci.stderr)")
        #expect(ci.stderr.contains("pushed to the team cache"), "\(ci.stderr)")
        #expect(!(ci.stderr + ci.stdout).contains(RegistryServer.password), "credentials never appear in output")
        #expect(!(ci.stderr + ci.stdout).contains(Data("\(RegistryServer.user):\(RegistryServer.password)".utf8).base64EncodedString()))

        // A laptop logged in with `docker login`: config.json's `auths`.
        let laptop = try machine(s, "laptop", ["TACK_CACHE": registry.cacheURL()])
        let auth = Data("\(RegistryServer.user):\(RegistryServer.password)".utf8).base64EncodedString()
        try s.write("laptop/home/.docker/config.json", "{\"auths\": {\"127.0.0.1:\(registry.port)\": {\"auth\": \"\(auth)\"}}}")
        _ = try s.tack(["trust"], in: "app", env: laptop)
        let before = builds(s)
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(builds(s) == before, "pulled with the docker login's credentials: \(pull.stderr)")
    }

    @Test func bearerTokenFlowWithACredentialHelper() throws {
        let registry = try RegistryServer(auth: .token)
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        // A credential helper, as `credHelpers` names them: docker-credential-NAME get.
        try s.write("bin/docker-credential-testhelper", """
            #!/bin/sh
            read server
            [ "$server" = "127.0.0.1:\(registry.port)" ] || exit 1
            printf '{"ServerURL":"%s","Username":"\(RegistryServer.user)","Secret":"\(RegistryServer.password)"}' "$server"
            """)
        chmod(s.root + "/bin/docker-credential-testhelper", 0o755)
        let path = s.root + "/bin:" + (s.environment["PATH"] ?? "")
        try s.write("home/.docker/config.json", "{\"credHelpers\": {\"127.0.0.1:\(registry.port)\": \"testhelper\"}}")
        let push = try s.tack(["install"], in: "app", env: ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1", "PATH": path])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stderr.contains("pushed to the team cache"), "\(push.stderr)")
        #expect(try registry.tokenRequests() > 0, "the registry's challenge sent tack to the token service")

        let laptop = try machine(s, "laptop", ["TACK_CACHE": registry.cacheURL(), "PATH": path])
        try s.write("laptop/home/.docker/config.json", "{\"credHelpers\": {\"127.0.0.1:\(registry.port)\": \"testhelper\"}}")
        _ = try s.tack(["trust"], in: "app", env: laptop)
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(builds(s) == 1, "pulled through the token flow: \(pull.stderr)")
        #expect(!(pull.stderr + push.stderr).contains(RegistryServer.password))
    }

    @Test func aDigestOtherThanTheOneSeenBeforeIsRefusedAndBuiltLocally() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        let cache = ["TACK_CACHE": registry.cacheURL()]
        #expect(try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_PUSH": "1"]) { $1 }).status == 0)
        let tag = try #require(try registry.tags("team/hello").first)
        // A laptop pulls it once: the digest is pinned on the laptop.
        let laptop = try machine(s, "laptop", cache)
        _ = try s.tack(["trust"], in: "app", env: laptop)
        #expect(try s.tack(["install"], in: "app", env: laptop).status == 0)
        #expect(builds(s) == 1)
        let seen = s.read("laptop/tack-home/state/cache-digests") ?? ""
        let recorded = try #require(seen.range(of: "sha256:[0-9a-f]{64}", options: .regularExpression).map { String(seen[$0]) })
        // Had the laptop seen another build under that key, the one there now is refused.
        let zeros = "sha256:" + String(repeating: "0", count: 64)
        try s.write("laptop/tack-home/state/cache-digests", "\(tag) \(zeros)\n")
        try FileManager.default.removeItem(atPath: s.root + "/laptop/tack-home/installs/hello")
        let r = try s.tack(["install"], in: "app", env: laptop)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(builds(s) == 2, "built here instead")
        #expect(r.stderr.contains("hello 1.0.0: the team cache's build for this key is now \(recorded), but \(zeros) was recorded for it before"), "\(r.stderr)")
        #expect(r.stderr.contains("building it here"), "\(r.stderr)")
        // A digest tack.lock records (by hand, or from an older tack) is honoured on a machine
        // that never pulled.
        let lock = s.read("app/tack.lock") ?? ""
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "    backend: \"git\"\n", with: "    backend: \"git\"\n    cache:\n      \(tag): \"\(zeros)\"\n"))
        let third = try machine(s, "third", cache)
        _ = try s.tack(["trust"], in: "app", env: third)
        let t = try s.tack(["install"], in: "app", env: third)
        #expect(t.status == 0, "\(t.stderr)")
        #expect(builds(s) == 3)
        #expect(t.stderr.contains("but \(zeros) was recorded for it before"), "\(t.stderr)")
    }

    @Test func aManifestWhoseAnnotationsDoNotMatchTheKeyIsRefused() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        #expect(try s.tack(["install"], in: "app", env: ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1"]).status == 0)
        let tag = try #require(try registry.tags("team/hello").first)
        // Replace the manifest under the key's tag with one that claims another commit.
        let url = "http://127.0.0.1:\(registry.port)/v2/team/hello/manifests/\(tag)"
        let raw = try RegistryServer.capture("/usr/bin/curl", ["-s", "-H", "Accept: application/vnd.oci.image.manifest.v1+json", url])
        let forged = raw.replacingOccurrences(of: try repo.commit(of: "1.0.0"), with: String(repeating: "a", count: 40))
        #expect(forged != raw)
        try RegistryServer.capture("/usr/bin/curl", ["-s", "-X", "PUT", "-H", "Content-Type: application/vnd.oci.image.manifest.v1+json", "--data-binary", "@-", url], input: Data(forged.utf8))
        // A project whose lock has not seen this key yet.
        try s.write("app/tack.lock", (s.read("app/tack.lock") ?? "").replacingOccurrences(of: #"    cache:\n      [0-9a-f]{64}: "sha256:[0-9a-f]{64}"\n"#, with: "", options: .regularExpression))
        let laptop = try machine(s, "laptop", ["TACK_CACHE": registry.cacheURL()])
        _ = try s.tack(["trust"], in: "app", env: laptop)
        let r = try s.tack(["install"], in: "app", env: laptop)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(builds(s) == 2)
        #expect(r.stderr.contains("is for another build (commit: expected"), "\(r.stderr)")
    }

    @Test func aRegistryThatIsDownOrFailingMeansBuildingHereWithOneLine() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        try project(s, repo)
        // Nothing listens on this port.
        let down = try s.tack(["install"], in: "app", env: ["TACK_CACHE": "oci://127.0.0.1:\(try RegistryServer.freePort())/team", "TACK_CACHE_PUSH": "1"])
        #expect(down.status == 0, "\(down.stderr)")
        #expect(builds(s) == 1)
        #expect(down.stderr.contains("hello 1.0.0: the team cache oci://127.0.0.1:") && down.stderr.contains("is unavailable (cannot reach the registry"), "\(down.stderr)")
        #expect(down.stderr.contains("could not push to the team cache"), "\(down.stderr)")

        // A registry answering 503: retried a bounded number of times, then built here; the
        // second tool does not wait for it again.
        try s.mkdir("www")
        let server = try FixtureServer(serving: s.root + "/www")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n  hello-too: \(repo.entry("1.0.0"))\n")
        let failing = try s.tack(["install", "--jobs", "1"], in: "app", env: ["TACK_CACHE": "oci://127.0.0.1:\(server.port)/team"])
        #expect(failing.status == 0, "\(failing.stderr)")
        #expect(builds(s) == 3)
        #expect(failing.stderr.contains("is unavailable (the registry 127.0.0.1:\(server.port) answered 503"), "\(failing.stderr)")
        #expect(try server.requests("v2-all") == 3, "three attempts in all, for both tools")
    }

    @Test func aProjectsOwnCacheNeedsTrust() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: s.root + "/builds.log")
        // The user's registry supplies the build, so the project file itself runs nothing.
        try s.write("tack-home/registries/local/registry.yml", "hello: { git: \"\(repo.path)\", build: sh build.sh, bin: [out/hello] }\n")
        try s.write("app/tack.yml", "cache: { url: \(registry.cacheURL("project")), push: true }\ntools:\n  hello: 1.0.0\n")
        let untrusted = try s.tack(["install"], in: "app")
        #expect(untrusted.status == 0, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("names the team cache \(registry.cacheURL("project")), which is not used until you trust the file"), "\(untrusted.stderr)")
        #expect(try registry.tags("project/hello").isEmpty, "nothing pushed to a cache an untrusted file named")

        _ = try s.tack(["trust"], in: "app")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs")
        let trusted = try s.tack(["install"], in: "app")
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(try registry.tags("project/hello").count == 1, "\(trusted.stderr)")
    }

    @Test func buildsFromUntrustedPinsOrChangedCheckoutsAreNeverPushed() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        let cache = ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1"]
        // A pin in an untrusted tack.yml (the build itself comes from the user's registry).
        try s.write("tack-home/registries/local/registry.yml", "hello: { git: \"\(repo.path)\", build: sh build.sh, bin: [out/hello] }\n")
        try s.write("app/tack.yml", "tools:\n  hello: 1.0.0\n")
        let r = try s.tack(["install"], in: "app", env: cache)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("hello 1.0.0: not pushed to the team cache: its pin comes from a file that is not trusted"), "\(r.stderr)")
        #expect(try registry.tags("team/hello").isEmpty)
        let push = try s.tack(["cache", "push", "hello"], in: "app", env: cache)
        #expect(push.status == 1)
        #expect(push.stderr.contains("is pinned by a file that is not trusted"), "\(push.stderr)")

        // A build that edits a tracked file of its checkout.
        let dirty = try GitFixture.tool(in: s, name: "dirty-repo", tags: [])
        try s.write("dirty-repo/build.sh", "echo changed >> VERSION\nmkdir -p out\nprintf '#!/bin/sh\\necho dirty\\n' > out/hello\nchmod +x out/hello\n")
        try dirty.git("add", "build.sh")
        try dirty.commitAndTag("1.0.0")
        try s.writeTrusted("dirty/tack.yml", "tools:\n  dirty: \(dirty.entry("1.0.0"))\n")
        let d = try s.tack(["install"], in: "dirty", env: cache)
        #expect(d.status == 0, "\(d.stderr)")
        #expect(d.stderr.contains("dirty 1.0.0: not pushed to the team cache: the build changed files of its checkout (VERSION)"), "\(d.stderr)")
        #expect(try registry.tags("team/dirty").isEmpty)
        let later = try s.tack(["cache", "push", "dirty"], in: "dirty", env: cache)
        #expect(later.status == 1 && later.stderr.contains("the build changed files of its checkout"), "\(later.stderr)")
    }

    @Test func twoMachinesPushingOneKeyAtOnceBothSucceed() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, repo, dir: "a")
        try project(s, repo, dir: "b")
        // Chunked uploads (small chunks) on the way.
        let env = ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1", "TACK_CACHE_CHUNK_SIZE": "64"]
        let other = try machine(s, "other", env)
        _ = try s.tack(["trust"], in: "b", env: other)
        // Two processes at once, each its own machine.
        let first = Process(), second = Process()
        for (p, dir, extra) in [(first, "a", env), (second, "b", other)] {
            p.executableURL = URL(fileURLWithPath: try Sandbox.binary())
            p.arguments = ["install"]
            p.currentDirectoryURL = URL(fileURLWithPath: s.root + "/" + dir)
            p.environment = s.environment.merging(extra) { $1 }.merging(["PWD": s.root + "/" + dir]) { $1 }
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
        }
        first.waitUntilDone()
        second.waitUntilDone()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        // Each machine pinned the digest it pushed (or found): the same content, the same digest.
        let digest = { (home: String) -> String? in
            let seen = s.read(home + "/state/cache-digests") ?? ""
            return seen.range(of: "sha256:[0-9a-f]{64}", options: .regularExpression).map { String(seen[$0]) }
        }
        #expect(digest("tack-home") != nil && digest("tack-home") == digest("other/tack-home"), "the same content, the same digest")
        #expect(try registry.tags("team/hello").count == 1)
    }

    /// Ruby built once per team (issue 33 item 4): a `relocatable` asdf build is pushed from one
    /// TACK_HOME and pulled into another at a different path, where it runs with no build: the
    /// key leaves the path out, and the pull rewrites the old path in tack's wrappers and the
    /// `#!` lines of the build's scripts. A small plugin stands in for asdf-ruby: its `hello`
    /// runs through an interpreter named by its install path, as ruby's scripts do.
    @Test func aRelocatableBuildIsPulledIntoAnotherTackHome() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.asdfPlugin(in: s, name: "asdf-reloc", scripts: [
            "list-all": "echo 1.0.0\n",
            "install": """
                set -e
                echo built >> '\(s.root)/builds.log'
                mkdir -p "$ASDF_INSTALL_PATH/bin"
                printf '#!/bin/sh\\necho "run by $0 ($HELLO_HOME) built with %s"\\n' "$RUBY_CONFIGURE_OPTS" > "$ASDF_INSTALL_PATH/bin/interp"
                printf '#!%s/bin/interp\\n' "$ASDF_INSTALL_PATH" > "$ASDF_INSTALL_PATH/bin/hello"
                chmod +x "$ASDF_INSTALL_PATH/bin/interp" "$ASDF_INSTALL_PATH/bin/hello"

                """,
            "exec-env": "export HELLO_HOME=\"$ASDF_INSTALL_PATH\"\n",
        ])
        let entry = "{ asdf: \"\(repo.path)\", version: 1.0.0, relocatable: true, build_env: { RUBY_CONFIGURE_OPTS: \"--enable-load-relative\" } }"
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(entry)\n")
        let cache = ["TACK_CACHE": registry.cacheURL()]

        let ci = try machine(s, "ci", cache.merging(["TACK_CACHE_PUSH": "1"]) { $1 })
        _ = try s.tack(["trust"], in: "app", env: ci)
        let push = try s.tack(["install"], in: "app", env: ci)
        #expect(push.status == 0 && push.stderr.contains("pushed to the team cache"), "\(push.stderr)")
        #expect(builds(s) == 1)

        // Another machine, another path: pulled, not built, and it runs from its own path.
        let laptop = try machine(s, "laptop/somewhere/deeper", cache)
        _ = try s.tack(["trust"], in: "app", env: laptop)
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(builds(s) == 1, "pulled, not built")
        #expect(pull.stderr.contains("1 installed (1 from the team cache)"), "\(pull.stderr)")
        let prefix = s.root + "/laptop/somewhere/deeper/tack-home/installs/hello/1.0.0/install"
        let run = try s.tack(["exec", "--", "hello"], in: "app", env: laptop)
        #expect(run.stdout == "run by \(prefix)/bin/interp (\(prefix)) built with --enable-load-relative\n", "\(run.stdout)\(run.stderr)")
        #expect(!(try String(contentsOfFile: prefix + "/bin/hello", encoding: .utf8)).contains("/ci/"))
    }
}

/// Ruby built once per team, for real (issue 33 item 4): the registry's ruby, built by
/// asdf-ruby and ruby-build with --enable-load-relative, pushed from one TACK_HOME and pulled
/// into another at another path, where `ruby -e` and `gem --version` run with no compiler on
/// PATH. Minutes, and the network (the plugin and Ruby's sources): set TACK_TEST_REAL_RUBY to
/// the version to build (`3.3.6`).
@Suite(.ownThreads, .serialized, .enabled(if: RegistryServer.isAvailable && ProcessInfo.processInfo.environment["TACK_TEST_REAL_RUBY"] != nil))
struct RealRubyTests {
    @Test func aRelocatableRubyBuiltOnceRunsFromAnotherTackHome() throws {
        let version = ProcessInfo.processInfo.environment["TACK_TEST_REAL_RUBY"] ?? "3.3.6"
        let registry = try RegistryServer()
        let s = try Sandbox()
        try s.write("app/.ruby-version", version + "\n")
        let cache = ["TACK_CACHE": registry.cacheURL()]
        let ci = s.environment.merging(cache.merging(["TACK_CACHE_PUSH": "1", "TACK_HOME": s.root + "/ci/tack-home"]) { $1 }) { $1 }
        let push = try s.tack(["install"], in: "app", env: ci)
        #expect(push.status == 0 && push.stderr.contains("pushed to the team cache"), "\(push.stderr)")
        try s.mkdir("nothing-on-path")
        let laptop = cache.merging(["TACK_HOME": s.root + "/laptop/elsewhere/tack-home", "PATH": s.root + "/nothing-on-path"]) { $1 }
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0 && pull.stderr.contains("1 installed (1 from the team cache)"), "\(pull.stderr)")
        let bin = s.root + "/laptop/elsewhere/tack-home/installs/ruby/\(version)/bin/"
        #expect(try runProgram(bin + "ruby", ["-e", "puts RUBY_VERSION"], environment: ["PATH": "/nonexistent"]) == version + "\n")
        #expect(try !runProgram(bin + "gem", ["--version"], environment: ["PATH": bin]).isEmpty)
    }
}
