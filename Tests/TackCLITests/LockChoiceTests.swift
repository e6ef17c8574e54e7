import Foundation
import TackCore
import Testing

/// The second hardening pass (issue 29): nothing in a lock, a manifest or a server chooses what
/// runs unless tack checks it against the pin. Each test is one way tack was broken, by the
/// issue's item number, run end to end against the built binaries.
@Suite(.ownThreads) struct LockChoiceTests {
    /// A tool repository with release 1.0.0, a later commit on main, and a pull request's head
    /// (`refs/pull/1/head`) on no branch; its commits by name.
    func repository(_ s: Sandbox, log: String? = nil) throws -> (GitFixture, main: String, pull: String) {
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        try repo.commitAndTag("1.1.0-dev")
        try repo.git("tag", "-d", "1.1.0-dev")
        let main = try repo.commit(of: "main")
        try repo.git("checkout", "-q", "-b", "side")
        try s.write("hello-repo/build.sh", "touch \(s.root)/pwned\nmkdir -p out\nprintf '#!/bin/sh\\necho pull request\\n' > out/hello\nchmod +x out/hello\n")
        try repo.git("commit", "-qam", "a pull request")
        let pull = try repo.commit(of: "side")
        try repo.git("update-ref", "refs/pull/1/head", pull)
        try repo.git("checkout", "-q", "main")
        try repo.git("branch", "-D", "side")
        return (repo, main, pull)
    }

    func forge(_ s: Sandbox, _ path: String, _ edits: [(String, String)]) throws -> String {
        var text = try #require(s.read(path))
        for (a, b) in edits {
            #expect(text.contains(a), "\(a) in \(text)")
            text = text.replacingOccurrences(of: a, with: b)
        }
        try s.write(path, text)
        return text
    }

    // MARK: 1. an injected ref: installs any commit

    @Test func aRefInjectedUnderAVersionPinIsADisagreement() throws {
        let s = try Sandbox()
        let (repo, main, pull) = try repository(s)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let released = try repo.commit(of: "1.0.0")

        // `ref: main` and main's commit: the pin asked for no ref.
        let forged = try forge(s, "app/tack.lock", [(released, main), ("tag: \"1.0.0\"", "ref: \"main\"\n    tag: \"1.0.0\"")])
        let frozen = try s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("hello: tack.lock follows ref main, which the pin (1.0.0) does not ask for"), "\(frozen.stderr)")
        #expect(s.read("app/tack.lock") == forged)
        #expect(!s.exists("tack-home/installs/hello"))

        // The pull request's head by commit alone: the tag names another commit.
        try s.write("app/tack.lock", forged.replacingOccurrences(of: "ref: \"main\"\n    ", with: "").replacingOccurrences(of: main, with: pull))
        let pr = try s.tack(["install", "--frozen"], in: "app")
        #expect(pr.status == 1)
        #expect(pr.failures.map(\.cause) == [.install(.tagMoved(tool: "hello 1.0.0", tag: "1.0.0", repository: repo.path, now: released, locked: pull))], "\(pr.stderr)")
        // A tag that names another version (or a ref name) is refused before anything is fetched.
        try s.write("app/tack.lock", forged.replacingOccurrences(of: "ref: \"main\"\n    ", with: "").replacingOccurrences(of: main, with: pull)
            .replacingOccurrences(of: "tag: \"1.0.0\"", with: "tag: \"refs/pull/1/head\""))
        let tag = try s.tack(["install", "--frozen"], in: "app")
        #expect(tag.status == 1)
        #expect(tag.stderr.contains("tack.lock's tag \"refs/pull/1/head\" for hello 1.0.0 does not name version 1.0.0"), "\(tag.stderr)")
        #expect(!s.exists("pwned"), "the pull request's build never ran")
        #expect(!s.exists("tack-home/installs/hello"))
    }

    /// A `ref:` pin installs only a commit its branch reaches (or the commit it names).
    @Test func aRefPinInstallsOnlyACommitItsBranchReaches() throws {
        let s = try Sandbox()
        let (repo, main, pull) = try repository(s)
        let entry = "{ git: \"\(repo.path)\", ref: main, build: sh build.sh, bin: [out/hello] }"
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(entry)\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        #expect(lock.contains(main))
        try s.write("app/tack.lock", lock.replacingOccurrences(of: main, with: pull))
        let r = try s.tack(["install", "--frozen"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("commit \(pull) is not on `main` of \(repo.path)"), "\(r.stderr)")
        #expect(!s.exists("pwned"))
        // An older commit of main is still one main reaches (a lock written last week).
        let older = try repo.commit(of: "1.0.0")
        try s.write("app/tack.lock", lock.replacingOccurrences(of: main, with: older))
        let ok = try s.tack(["install", "--frozen"], in: "app")
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try s.tack(["exec", "--", "hello"], in: "app").stdout == "hello 1.0.0\n")
    }

    // MARK: 2. plugin-commit is checked

    @Test func aLockedPluginCommitMustBeOneThePluginReleased() throws {
        let s = try Sandbox()
        let repo = try AsdfBackendTests().plugin(s)
        // A registry tool: the user's choice, so no trust is needed.
        try s.write("tack-home/registries/local/registry.yml", "hello: { asdf: \"\(repo.path)\" }\n")
        try s.write("app/tack.yml", "tools:\n  hello: \"1.0.0\"\n")
        let first = try s.tack(["install"], in: "app")
        #expect(first.status == 0, "\(first.stderr)")
        let good = try repo.commit(of: "main")
        // A pull request whose bin/install runs something else, and an unreleased branch.
        try repo.git("checkout", "-q", "-b", "pr")
        try s.write("asdf-hello/bin/install", "#!/usr/bin/env bash\ntouch \(s.root)/pwned\nexit 1\n")
        try repo.git("commit", "-qam", "pull request")
        let pull = try repo.commit(of: "pr")
        try repo.git("update-ref", "refs/pull/7/head", pull)
        try repo.git("checkout", "-q", "main")
        try repo.git("branch", "-m", "pr", "next")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/hello")
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/asdf-plugins")

        let lock = try #require(s.read("app/tack.lock"))
        try s.write("app/tack.lock", lock.replacingOccurrences(of: good, with: "refs/pull/7/head"))
        let byName = try s.tack(["install", "--frozen"], in: "app")
        #expect(byName.status == 1)
        #expect(byName.stderr.contains("tack.lock's plugin commit for hello is \"refs/pull/7/head\", not a commit id"), "\(byName.stderr)")
        try s.write("app/tack.lock", lock.replacingOccurrences(of: good, with: pull))
        let byCommit = try s.tack(["install", "--frozen"], in: "app")
        #expect(byCommit.status == 1)
        #expect(byCommit.stderr.contains("commit \(pull) is not on its default branch (main) or a tag of \(repo.path)"), "\(byCommit.stderr)")
        #expect(!s.exists("pwned"), "the pull request's bin/install never ran")
        #expect(!s.exists("tack-home/installs/hello"))
        // The released commit installs as before.
        try s.write("app/tack.lock", lock)
        let ok = try s.tack(["install", "--frozen"], in: "app")
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    // MARK: 4. another signed Swift toolchain

    @Test func anotherSignedToolchainIsNotInstalledUnderThisVersion() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try m.releases(["5.10.1", "6.0.3"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
        try m.toolchain(tag: "swift-5.10.1-RELEASE", branchDirectory: "swift-5.10.1-release")
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: \"6.0.3\"\n")
        let install = try s.tack(["install"], in: "app", env: m.environment)
        #expect(install.status == 0, "\(install.stderr)")
        let lock = try #require(s.read("app/tack.lock"))
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/swift")
        let old = "swift-5.10.1-RELEASE-\(m.platform.archiveSuffix).tar.gz"
        let oldSum = try sha256(m.www + "/swift-5.10.1-release/\(m.platform.directory)/swift-5.10.1-RELEASE/\(old)")
        let newSum = try sha256(m.www + "/swift-6.0.3-release/\(m.platform.directory)/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE-\(m.platform.archiveSuffix).tar.gz")
        let forged = lock.replacingOccurrences(of: "swift-6.0.3-release", with: "swift-5.10.1-release")
            .replacingOccurrences(of: "swift-6.0.3-RELEASE", with: "swift-5.10.1-RELEASE").replacingOccurrences(of: newSum, with: oldSum)
        #expect(forged != lock)
        try s.write("app/tack.lock", forged)
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: m.environment)
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("tack.lock's tag for swift 6.0.3 is \"swift-5.10.1-RELEASE\", which names another toolchain"), "\(frozen.stderr)")
        #expect(!s.exists("tack-home/installs/swift/6.0.3"))
        let verify = try s.tack(["lock", "--verify"], in: "app", env: m.environment)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.contains("which names another toolchain"), "\(verify.stderr)")

        // A mirror whose list maps 6.0.3 to 5.10.1's tag: a fresh lock and install refuse it.
        try FileManager.default.removeItem(atPath: s.root + "/app/tack.lock")
        let list = m.www + "/api/v1/install/releases.json"
        let text = try String(contentsOfFile: list, encoding: .utf8).replacingOccurrences(of: "\"swift-6.0.3-RELEASE\"", with: "\"swift-5.10.1-RELEASE\"")
        try text.write(toFile: list, atomically: true, encoding: .utf8)
        let mirror = try s.tack(["install"], in: "app", env: m.environment)
        #expect(mirror.status == 1)
        #expect(mirror.stderr.contains("lists swift 6.0.3 with the tag \"swift-5.10.1-RELEASE\", which names another toolchain"), "\(mirror.stderr)")
        #expect(!s.exists("tack-home/installs/swift/6.0.3"))
    }

    /// A signed archive whose toolchain says it is another release is refused (its directory
    /// and `swift --version` must name the version's tag).
    @Test func aToolchainWhoseSwiftNamesAnotherReleaseIsRefused() throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s)
        try m.releases(["6.0.3"])
        try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release", banner: "Swift version 5.10.1 (swift-5.10.1-RELEASE)")
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: \"6.0.3\"\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains("its `swift --version` says \"swift: Swift version 5.10.1 (swift-5.10.1-RELEASE)\", not swift-6.0.3-RELEASE"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/swift/6.0.3"))
    }

    // MARK: 5. the pip lock's package set

    @Test(arguments: [true, false])
    func aPipLockWithAnExtraOrHostileDistributionInstallsNothing(uv: Bool) throws {
        let (s, server) = try PipBackendTests().setUp(uv: uv)
        defer { withExtendedLifetime(server) {} }
        let first = try s.tack(["install"], in: "app")
        #expect(first.status == 0, "\(first.stderr)")
        let lock = try #require(s.read("app/tack.lock"))
        try PipBackendTests().python(["wheel", "evil", "1.0.0", s.root + "/dists"])
        try PipBackendTests().python(["simple", s.root + "/dists"])
        let evil = try sha256(s.root + "/dists/evil-1.0.0-py3-none-any.whl")
        func clean() throws {
            try? FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/greet")
            try? FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/pip-envs")
        }
        try clean()
        // An extra distribution with its real hash.
        try s.write("app/tack.lock", lock
            .replacingOccurrences(of: "    packages:\n", with: "    packages:\n      evil: \"1.0.0\"\n")
            .replacingOccurrences(of: "    hashes:\n", with: "    hashes:\n      evil: \"sha256:\(evil)\"\n"))
        let extra = try s.tack(["install", "--frozen"], in: "app")
        #expect(extra.status == 1)
        #expect(extra.stderr.contains("tack.lock's distributions for greet 1.1.0 are not what its pin resolves to: evil 1.0.0 is not something greet 1.1.0 needs"), "\(extra.stderr)")
        #expect(!s.exists("tack-home/installs/greet"))
        // A missing one.
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "      helper: \"1.2.0\"\n", with: "").replacing(#/      helper: "sha256:[0-9a-f]+"\n/#, with: ""))
        let missing = try s.tack(["install", "--frozen"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("helper 1.2.0, which greet 1.1.0 needs, is missing"), "\(missing.stderr)")
        // A version that would become pip's options.
        try s.write("app/tack.lock", lock.replacingOccurrences(of: "helper: \"1.2.0\"", with: "helper: \"1.2.0\\n--extra-index-url http://127.0.0.1:9/\\n#\""))
        let option = try s.tack(["install", "--frozen"], in: "app")
        #expect(option.status == 1)
        #expect(option.stderr.contains("gives helper the version \"1.2.0\\n--extra-index-url http://127.0.0.1:9/\\n#\", which is not a version"), "\(option.stderr)")
        #expect(!s.exists("tack-home/installs/greet"))
        // The lock as written installs.
        try s.write("app/tack.lock", lock)
        let ok = try s.tack(["install", "--frozen"], in: "app")
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    // MARK: 6. project files that choose a program

    @Test func aPythonInterpreterNamedByAProjectNeedsTrust() throws {
        let (s, server) = try PipBackendTests().setUp(uv: false)
        try s.write("app/tools/python3", "#!/bin/sh\ntouch \(s.root)/pwned\nexec /usr/bin/python3 \"$@\"\n")
        chmod(s.root + "/app/tools/python3", 0o755)
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: \"~> 1.0\", index_url: \"\(server.url("static/simple"))\", python: ./tools/python3 }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("greet names the interpreter \"./tools/python3\" (`python:`), which would run on this machine, and \(s.root)/app/tack.yml is not trusted"), "\(r.stderr)")
        #expect(!s.exists("pwned"))
        #expect(try s.tack(["trust"], in: "app").status == 0)
        let trusted = try s.tack(["install"], in: "app")
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(s.exists("pwned"), "trusted, the named interpreter runs")
    }

    @Test func aToolsBinaryNeverShadowsTheProgramsTackRunsForBuilds() throws {
        let (s, server) = try PipBackendTests().setUp(uv: false)
        for name in ["python3", "git", "swift"] {
            try s.write("www/\(name)-1.0.0.sh", "#!/bin/sh\ntouch \(s.root)/pwned-\(name)\nexit 1\n")
        }
        let shadows = ["python3", "git", "swift"].map { "  fake\($0.prefix(3)): { url: \"file://\(s.root)/www/\($0)-{version}.sh\", version: \"1.0.0\", bin: [\($0)] }\n" }.joined()
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: \"~> 1.0\", index_url: \"\(server.url("static/simple"))\" }\n" + shadows)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["python3", "git", "swift"] { #expect(!s.exists("pwned-\(name)"), "\(name) from a tool ran during the build") }
        #expect(try s.tack(["exec", "--", "greet"], in: "app").stdout == "greet 1.1.0\n")
    }

    // MARK: 7. a newline in a directory name

    @Test func aNewlineInADirectoryNameCannotForgeTrust() throws {
        let s = try Sandbox()
        try s.write("Z/tack.yml", "tools:\n  jq: 1.7.1\nenv:\n  EVIL: \"1\"\n")
        let hash = try sha256(s.root + "/Z/tack.yml")
        let dir = "x\n\(hash)  \(s.root)/Z"
        try s.write(dir + "/tack.yml", "tools:\n  jq: 1.7.1\n")
        let r = try s.tack(["trust"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("tack: cannot trust \"\(s.root)/x\\n\(hash)  \(s.root)/Z/tack.yml\": its path holds a control character"), "\(r.stderr)")
        #expect(!r.stderr.dropLast().contains("\n"), "one line: \(r.stderr)")
        #expect(!(s.read("tack-home/state/trust") ?? "").contains("/Z/tack.yml"))
        let z = try s.tack(["env"], in: "Z")
        #expect(!z.stdout.contains("EVIL"), "\(z.stdout)")
        #expect(z.stderr.contains("is not trusted"), "\(z.stderr)")
    }

    // MARK: 10. parallel runs keep every state line

    @Test func parallelTrustAndInstallsLoseNoStateLine() throws {
        let s = try Sandbox()
        let n = 12
        try s.write("www/jq-1.7.1.sh", "#!/bin/sh\necho jq\n")
        for i in 0..<n {
            try s.write("p\(i)/tack.yml", "tools:\n  jq: { url: \"file://\(s.root)/www/jq-{version}.sh\", version: \"1.7.1\", bin: [jq] }\nenv:\n  N: \"\(i)\"\n")
        }
        func together(_ args: [String]) throws {
            let processes = try (0..<n).map { i in try s.spawn(args, in: "p\(i)", log: s.root + "/log-\(args[0])-\(i)") }
            for p in processes { p.waitUntilDone() }
            for (i, p) in processes.enumerated() { #expect(p.terminationStatus == 0, "\(s.read("log-\(args[0])-\(i)") ?? "")") }
        }
        for _ in 0..<2 {
            try? FileManager.default.removeItem(atPath: s.root + "/tack-home")
            try together(["trust"])
            let trust = (s.read("tack-home/state/trust") ?? "").split(separator: "\n")
            #expect(trust.count == n, "\(trust)")
            try together(["install"])
            let projects = (s.read("tack-home/state/projects") ?? "").split(separator: "\n")
            #expect(projects.count == n, "\(projects)")
        }
        // A project whose tools other projects installed is found up to date (tack installs
        // nothing for it), and is still a known project.
        try s.write("late/tack.yml", try #require(s.read("p0/tack.yml")))
        try s.write("late/tack.lock", try #require(s.read("p0/tack.lock")))
        #expect(try s.tack(["trust"], in: "late").status == 0)
        let late = try s.tack(["install"], in: "late")
        #expect(late.status == 0 && late.stderr.isEmpty, "\(late.stderr)")
        #expect((s.read("tack-home/state/projects") ?? "").split(separator: "\n").contains { $0.hasSuffix("/late") })
        // prune keeps what every known project pins.
        let prune = try s.tack(["prune"], in: "p0")
        #expect(prune.stdout == "nothing to prune\n", "\(prune.stdout)\(prune.stderr)")
    }

    // MARK: 11. a subkey of a revoked or expired primary key

    @Test(arguments: ["revoked", "expired"])
    func aSubkeyOfAnInvalidPrimaryKeySignsNothing(_ fault: String) throws {
        let s = try Sandbox()
        let m = try SwiftMirror(s, subkey: true)
        try m.releases(["6.0.3"])
        let fingerprint = try m.primaryFingerprint()
        if fault == "revoked" {
            try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
            try m.revokePrimary()
        } else {
            // Signed (by the subkey) a day from now; the primary key expires in an hour.
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyyMMdd'T'HHmmss"
            m.signOptions = ["--faked-system-time", f.string(from: Date().addingTimeInterval(86_400)) + "!"]
            try m.toolchain(tag: "swift-6.0.3-RELEASE", branchDirectory: "swift-6.0.3-release")
            try m.gpg(["--quick-set-expire", fingerprint, "seconds=3600"])
        }
        try m.exportKeyring()
        try m.start()
        try s.write("app/tack.yml", "tools:\n  swift: \"6.0.3\"\n")
        let r = try s.tack(["install"], in: "app", env: m.environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains(fault == "revoked" ? "its primary key" : "after its primary key expired"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/swift/6.0.3"))
    }

    // MARK: 12. a server that crawls

    @Test func aDownloadThatCrawlsEndsWithTheHostNamed() throws {
        let s = try Sandbox()
        try s.write("www/slow-1.0.0.sh", "#!/bin/sh\necho slow\n" + String(repeating: "#", count: 200) + "\n")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  slow: { url: \"\(server.url("crawl/60/slow-{version}.sh"))\", version: \"1.0.0\", bin: [slow] }\n")
        let r = try s.tack(["install"], in: "app", env: ["TACK_HTTP_TIMEOUT": "2"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("127.0.0.1 sent fewer than 10 bytes a second for 2 s (TACK_HTTP_MIN_RATE, TACK_HTTP_TIMEOUT)"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/slow"))
        // A stall is not retried as a failed transfer is (issue 44, item 7).
        #expect(try server.requests("crawl/60/slow-1.0.0.sh") == 1, "a stall is not retried")
    }

    @Test func aRegistryThatCrawlsIsGivenUpOnAndTheToolBuilt() throws {
        let s = try Sandbox()
        let server = try FixtureServer(serving: s.root)
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let r = try s.tack(["install"], in: "app", env: ["TACK_CACHE": "oci://127.0.0.1:\(server.port)/crawl", "TACK_CACHE_TIMEOUT": "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("127.0.0.1 sent fewer than 10 bytes a second for 2 s (TACK_HTTP_MIN_RATE, TACK_CACHE_TIMEOUT)"), "\(r.stderr)")
        #expect(try s.tack(["exec", "--", "hello"], in: "app").stdout == "hello 1.0.0\n")
    }

    // MARK: 14. messages

    @Test func aFIFOTemplateManifestIsNamedForWhatItIs() throws {
        let s = try Sandbox()
        try s.mkdir("tpl")
        try s.mkdir("work")
        #expect(mkfifo(s.root + "/tpl/template.yml", 0o644) == 0)
        let r = try s.tack(["new", "Widget", "--template", "../tpl"], in: "work")
        #expect(r.status != 0)
        #expect(r.stderr == "tack: \(s.root)/tpl/template.yml is not a regular file, so tack cannot read the template\n", "\(r.stderr)")
    }

    @Test func aWorkingDirectoryLongerThanPathMaxIsSaidSo() throws {
        let s = try Sandbox()
        // Deeper than PATH_MAX, made one level at a time (no single path that long is ever named).
        let p = Process()
        p.executableURL = URL(fileURLWithPath: FixtureServer.python)
        let script = "import os, sys\nos.chdir(sys.argv[1])\nfor i in range(25):\n    os.mkdir('d' * 200)\n    os.chdir('d' * 200)\nos.execv(sys.argv[2], [sys.argv[2], 'current'])\n"
        p.arguments = ["-c", script, s.root, try Sandbox.binary()]
        p.environment = s.environment.merging(["PWD": "/nonexistent"]) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilDone()
        #expect(p.terminationStatus == 1)
        #expect(text.contains("more than this system's PATH_MAX"), "\(text)")
        #expect(!text.contains("may have been removed"), "\(text)")
        // The sandbox's own clean-up cannot name the deepest directories either.
        _ = try? FixturePython.run(["-c", "import shutil, os, sys\nos.chdir(sys.argv[1])\nshutil.rmtree('d' * 200)", s.root])
    }

    // MARK: 8. credentials go only to the registry's own host

    @Test func anUploadLocationElsewhereGetsNoCredentials() throws {
        let s = try Sandbox()
        let sink = try FixtureServer(["sink", "127.0.0.2", s.root + "/requests.log"])
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let credentials = ["TACK_CACHE_PUSH": "1", "TACK_CACHE_USERNAME": "ci", "TACK_CACHE_PASSWORD": "s3cret"]

        // Another host on this machine: the upload goes there, without the credentials.
        let elsewhere = try FixtureServer(["registry", "http://127.0.0.2:\(sink.port)/upload/1", s.root + "/requests.log"])
        let r = try s.tack(["install"], in: "app", env: credentials.merging(["TACK_CACHE": "oci://127.0.0.1:\(elsewhere.port)/team"]) { $1 })
        #expect(r.status == 0, "\(r.stderr)")
        let log = s.read("requests.log") ?? ""
        #expect(log.contains("registry POST /v2/team/hello/blobs/uploads/ auth=yes"), "\(log)")
        let sent = log.split(separator: "\n").filter { $0.hasPrefix("sink ") }
        #expect(!sent.isEmpty, "\(log)")
        #expect(sent.allSatisfy { $0.hasSuffix("auth=no") }, "\(log)")

        // Plain HTTP to another machine: nothing is sent at all, and the install stands.
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/hello")
        let far = try FixtureServer(["registry", "http://tack-test.invalid:8080/upload/1", s.root + "/far.log"])
        let f = try s.tack(["install"], in: "app", env: credentials.merging(["TACK_CACHE": "oci://127.0.0.1:\(far.port)/team"]) { $1 })
        #expect(f.status == 0, "\(f.stderr)")
        #expect(f.stderr.contains("could not push to the team cache: the registry 127.0.0.1:\(far.port) sent the request on to http://tack-test.invalid:8080/upload/1, plain HTTP to another machine; tack sends nothing there"), "\(f.stderr)")
        #expect(!f.stderr.contains("s3cret"))
    }

    // MARK: 9. a template's links

    @Test func aTemplateLinkOutsideTheTemplateIsRefusedAndOneInsideStaysALink() throws {
        let s = try Sandbox()
        try s.write("home/.ssh/id_rsa", "PRIVATE KEY\n")
        try s.write("tpl/template.yml", "description: links\nvariables:\n  name: { description: the name }\n")
        try s.write("tpl/README.md", "# {{name}}\n")
        try s.mkdir("tpl/Sources/{{name}}")
        try s.mkdir("work")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tpl/Sources/{{name}}/Key.swift", withDestinationPath: s.root + "/home/.ssh/id_rsa")
        let r = try s.tack(["new", "Widget", "--template", "../tpl"], in: "work")
        #expect(r.status == 1)
        #expect(r.stderr.contains("the template's file Sources/{{name}}/Key.swift is a link to \"\(s.root)/home/.ssh/id_rsa\", outside the template"), "\(r.stderr)")
        #expect(!s.exists("work/Widget"))
        // Relative, but climbing out.
        try FileManager.default.removeItem(atPath: s.root + "/tpl/Sources/{{name}}/Key.swift")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tpl/Sources/{{name}}/Key.swift", withDestinationPath: "../../../home/.ssh/id_rsa")
        let climbing = try s.tack(["new", "Widget", "--template", "../tpl"], in: "work")
        #expect(climbing.status == 1, "\(climbing.stderr)")
        #expect(!s.exists("work/Widget"))
        // Inside the template: written as the same link, and committed as a link.
        try FileManager.default.removeItem(atPath: s.root + "/tpl/Sources/{{name}}/Key.swift")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tpl/Sources/{{name}}/Key.swift", withDestinationPath: "../../README.md")
        let people = ["GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org"]
        let ok = try s.tack(["new", "Widget", "--template", "../tpl"], in: "work", env: people)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: s.root + "/work/Widget/Sources/Widget/Key.swift") == "../../README.md")
        #expect(!(s.read("work/Widget/Sources/Widget/Key.swift") ?? "").contains("PRIVATE"))
        let tree = try s.run("/usr/bin/env", ["git", "-C", s.root + "/work/Widget", "ls-tree", "-r", "HEAD", "Sources/Widget/Key.swift"])
        #expect(tree.stdout.hasPrefix("120000 "), "committed as a link: \(tree.stdout)\(tree.stderr)")
    }
}

/// Item 3 of the second hardening pass: the team cache is asked only after the lock agrees
/// with the pin (CNCF Distribution on loopback).
@Suite(.ownThreads, .serialized, .enabled(if: RegistryServer.isAvailable, "needs docker-registry: ./bootstrap.sh --dev"))
struct TeamCachePinTests {
    @Test func aCacheHitDoesNotSkipTheTagCheck() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        try repo.commitAndTag("dev")
        try repo.git("tag", "-d", "dev")
        let dev = try repo.commit(of: "main")
        let cache = ["TACK_CACHE": registry.cacheURL(), "TACK_CACHE_PUSH": "1"]
        // CI pushes a build of a development commit (a `ref:` pin).
        let refEntry = "{ git: \"\(repo.path)\", ref: main, build: sh build.sh, bin: [out/hello] }"
        try s.writeTrusted("ci/tack.yml", "tools:\n  hello: \(refEntry)\n")
        let ci = try s.tack(["install"], in: "ci", env: cache)
        #expect(ci.status == 0 && ci.stderr.contains("pushed to the team cache"), "\(ci.stderr)")

        // A victim's lock, edited to that commit under `version: 1.0.0`.
        try s.mkdir("victim/home")
        let victim = ["HOME": s.root + "/victim/home", "TACK_HOME": s.root + "/victim/tack-home", "TACK_CACHE": registry.cacheURL()]
        try s.write("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["trust"], in: "app", env: victim).status == 0)
        #expect(try s.tack(["lock"], in: "app", env: victim).status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        try s.write("app/tack.lock", lock.replacingOccurrences(of: try repo.commit(of: "1.0.0"), with: dev))
        let r = try s.tack(["install", "--frozen"], in: "app", env: victim)
        #expect(r.status == 1)
        #expect(r.failures.map(\.cause) == [.install(.tagMoved(tool: "hello 1.0.0", tag: "1.0.0", repository: repo.path, now: try repo.commit(of: "1.0.0"), locked: dev))], "\(r.stderr)")
        #expect(!r.stderr.contains("from the team cache"), "\(r.stderr)")
        #expect(!s.exists("victim/tack-home/installs/hello"))
    }
}
