import Foundation
import Testing

/// A cloned repository is untrusted input and a machine fails: each test here is one way tack
/// was broken from outside (the hardening issue's items, by number), run end to end against
/// the built binaries.
@Suite(.ownThreads) struct HardeningTests {
    /// A bare-binary url tool served from a file: a script printing `NAME VERSION`.
    func scriptTool(_ s: Sandbox, _ name: String, version: String = "1.0.0", body: String? = nil) throws -> String {
        try s.write("www/\(name)-\(version).sh", body ?? "#!/bin/sh\necho \(name) \(version)\n")
        return "{ url: \"file://\(s.root)/www/\(name)-{version}.sh\", version: \"\(version)\", bin: [\(name)] }"
    }

    /// A `file://` download (a url tool's, or a gem file from a directory source) that is a
    /// FIFO or a device is refused: the open of a FIFO with no writer blocked for ever, and
    /// `/dev/zero` never ends.
    @Test(.timeLimit(.minutes(5))) func aFileDownloadThatIsNotARegularFileIsRefused() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        #expect(mkfifo(s.root + "/www/fifo-1.0.0.sh", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: s.root + "/www/zero-1.0.0.sh", withDestinationPath: "/dev/zero")
        for name in ["fifo", "zero"] {
            try s.write("app/tack.yml", "tools:\n  \(name): { url: \"file://\(s.root)/www/\(name)-{version}.sh\", version: 1.0.0, bin: [\(name)] }\n")
            let r = try s.tack(["install"], in: "app")
            #expect(r.status == 1 && r.stderr.contains("is not a regular file (a pipe, socket or device)"), "\(name): \(r.stderr)")
            #expect(!s.exists("tack-home/installs/\(name)"))
        }
    }

    // MARK: 1. path: pins need trust

    @Test func untrustedPathPinNeverReachesPATH() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  x: { path: evilbin }\n")
        try s.write("app/evilbin/ls", "#!/bin/sh\necho evil ls\n")
        chmod(s.root + "/app/evilbin/ls", 0o755)
        let warning = "tack: \(s.root)/app/tack.yml is not trusted, so its env and path: pins were not applied — read it, then run `tack trust \(s.root)/app`\n"

        let exec = try s.tack(["exec", "--", "ls", "/"], in: "app")
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(!exec.stdout.contains("evil"))
        #expect(exec.stderr == warning)
        let hook = try s.tack(["hook-env", "bash"], in: "app")
        #expect(!hook.stdout.contains("evilbin"), "\(hook.stdout)")
        #expect(hook.stderr == warning)
        let which = try s.tack(["which", "ls"], in: "app")
        #expect(!which.stdout.contains("evilbin"))
        // tack.local.yml is a project file too.
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.write("app/tack.local.yml", "tools:\n  x: { path: evilbin }\n")
        #expect(!(try s.tack(["exec", "--", "ls", "/"], in: "app")).stdout.contains("evil"))

        // Trusted, the pin is honoured.
        #expect(try s.tack(["trust"], in: "app").status == 0)
        let trusted = try s.tack(["exec", "--", "ls"], in: "app")
        #expect(trusted.stdout == "evil ls\n", "\(trusted.stderr)")
        #expect(try s.tack(["which", "ls"], in: "app").stdout == s.root + "/app/evilbin/ls\n")
    }

    // MARK: 2. build: commands need trust

    @Test func untrustedBuildCommandRunsNothing() throws {
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n  hello: \(repo.entry("1.0.0"))\n")
        let refusal = "tack: hello has a `build:` command, which would run on this machine, and \(s.root)/app/tack.yml is not trusted (set by \(s.root)/app/tack.yml:3) — read it, then run `tack trust \(s.root)/app`; nothing was fetched or installed\n"
        for args in [["install"], ["exec", "--", "hello"], ["lock"], ["install", "hello"]] {
            let r = try s.tack(args, in: "app")
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr == refusal, "\(args)")
        }
        #expect(!FileManager.default.fileExists(atPath: log), "the build never ran")
        #expect(!s.exists("app/tack.lock"))
        #expect(!s.exists("tack-home/installs"))

        #expect(try s.tack(["trust"], in: "app").status == 0)
        let exec = try s.tack(["exec", "--", "hello"], in: "app")
        #expect(exec.stdout == "hello 1.0.0\n", "\(exec.stderr)")
        // An edit needs trust again.
        try s.write("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0").replacingOccurrences(of: "sh build.sh", with: "sh build.sh; touch pwned"))\n")
        let edited = try s.tack(["install"], in: "app")
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("is not trusted"))
    }

    // MARK: 4. the lock's entry must satisfy the manifest

    @Test func aLockThatDisagreesWithTheManifestIsNotUsed() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "2.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        // A hand-edited lock: 2.0.0 (its real tag and commit), still "requested: 1.0.0".
        let forged = lock.replacingOccurrences(of: "version: \"1.0.0\"", with: "version: \"2.0.0\"")
            .replacingOccurrences(of: "tag: \"1.0.0\"", with: "tag: \"2.0.0\"")
            .replacingOccurrences(of: try repo.commit(of: "1.0.0"), with: try repo.commit(of: "2.0.0"))
        #expect(forged.contains("version: \"2.0.0\""))
        try s.write("app/tack.lock", forged)
        let frozen = try s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("hello: tack.lock has 2.0.0, which does not satisfy 1.0.0 (set by \(s.root)/app/tack.yml:2)"), "\(frozen.stderr)")
        #expect(s.read("app/tack.lock") == forged, "--frozen never writes the lock")
        #expect(!s.exists("tack-home/installs/hello"))
        #expect(try s.tack(["current", "hello"], in: "app").stdout.hasPrefix("1.0.0 "))
        // Without --frozen the entry is resolved again.
        let r = try s.tack(["exec", "--", "hello"], in: "app")
        #expect(r.stdout == "hello 1.0.0\n", "\(r.stderr)")
        #expect(s.read("app/tack.lock") == lock)

        // Options are part of the pin: another `bin:` is another install.
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0").replacingOccurrences(of: "bin: [out/hello]", with: "bin: [\"out/hello=hi\"]"))\n")
        let changed = try s.tack(["install", "--frozen"], in: "app")
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("hello: the options differ from tack.lock's (bin)"), "\(changed.stderr)")
        let hi = try s.tack(["exec", "--", "hi"], in: "app")
        #expect(hi.stdout == "hello 1.0.0\n", "\(hi.stderr)")
    }

    // MARK: 5. an install is the one the lock describes

    @Test func aForkOfTheSameVersionGetsItsOwnInstall() throws {
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let original = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        let fork = try GitFixture.tool(in: s, name: "fork-repo", tags: [])
        try s.write("fork-repo/build.sh", "echo built >> '\(log)'\nmkdir -p out\nprintf '#!/bin/sh\\necho fork\\n' > out/hello\nchmod +x out/hello\n")
        try fork.git("add", "build.sh")
        try fork.commitAndTag("1.0.0")
        try s.writeTrusted("a/tack.yml", "tools:\n  hello: \(original.entry("1.0.0"))\n")
        try s.writeTrusted("b/tack.yml", "tools:\n  hello: \(fork.entry("1.0.0"))\n")
        #expect(try s.tack(["exec", "--", "hello"], in: "a").stdout == "hello 1.0.0\n")
        let b = try s.tack(["exec", "--", "hello"], in: "b")
        #expect(b.stdout == "fork\n", "the fork's 1.0.0, not the original's: \(b.stderr)")
        // Side by side (issue 30, item 6): the original's project keeps its install, and
        // going back and forth builds nothing again.
        #expect(try s.tack(["current", "--json"], in: "a").stdout.contains("\"installed\":true"))
        let doctor = try s.tack(["doctor"], in: "a")
        #expect(!doctor.stdout.contains("hello 1.0.0 is installed from"), "\(doctor.stdout)")
        for _ in 0..<2 {
            #expect(try s.tack(["exec", "--", "hello"], in: "a").stdout == "hello 1.0.0\n")
            #expect(try s.tack(["exec", "--", "hello"], in: "b").stdout == "fork\n")
        }
        let builds = (s.read("builds.log") ?? "").split(separator: "\n").count
        #expect(builds == 2, "one build of each, never again: \(builds)")
        // Through the shims too, and `tack where` names each project's own build.
        let whereA = try s.tack(["where", "hello"], in: "a").stdout, whereB = try s.tack(["where", "hello"], in: "b").stdout
        #expect(whereA != whereB, "\(whereA) \(whereB)")
        #expect(try s.run(s.root + "/tack-home/shims/hello", [], in: "b").stdout == "fork\n")
        #expect(try s.run(s.root + "/tack-home/shims/hello", [], in: "a").stdout == "hello 1.0.0\n")
        // Uninstalling the version removes every build of it.
        #expect(try s.tack(["uninstall", "hello@1.0.0"], in: "a").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs").filter { $0 == "hello" }.isEmpty
                || (try FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")).isEmpty)
    }

    // MARK: 6. products: are part of the pin (see SwiftBuildTests for the build)

    // MARK: 7. checksums never go missing

    @Test func checksumsNeverGoMissing() throws {
        let s = try Sandbox()
        let entry = try scriptTool(s, "tool")
        try s.write("a/tack.yml", "tools:\n  tool: \(entry)\n")
        #expect(try s.tack(["install"], in: "a").status == 0)
        let sum = try sha256(s.root + "/www/tool-1.0.0.sh")
        // A second project reusing the install still records the checksum.
        try s.write("b/tack.yml", "tools:\n  tool: \(entry)\n")
        let b = try s.tack(["install"], in: "b")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(s.read("b/tack.lock")?.contains(sum) == true, "\(s.read("b/tack.lock") ?? "")")
        // A lock without this platform's checksum does not install under --frozen.
        let lock = try #require(s.read("b/tack.lock"))
        let platform = try #require(lock.split(separator: "\n").first { $0.contains(sum) }).split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
        try s.write("c/tack.yml", "tools:\n  tool: \(entry)\n")
        try s.write("c/tack.lock", lock.replacingOccurrences(of: "    sha256:\n      \(platform): \"\(sum)\"\n", with: ""))
        #expect(!(s.read("c/tack.lock") ?? "").contains(sum))
        let frozen = try s.tack(["install", "--frozen"], in: "c")
        #expect(frozen.status == 1)
        #expect(frozen.stderr.contains("tool: tack.lock has no checksum for \(platform) — run `tack lock` to add it"), "\(frozen.stderr)")
        // `tack lock` adds it; checksums compare without regard to case.
        #expect(try s.tack(["lock"], in: "c").status == 0)
        #expect(s.read("c/tack.lock")?.contains(sum) == true)
        try s.write("c/tack.lock", (s.read("c/tack.lock") ?? "").replacingOccurrences(of: sum, with: sum.uppercased()))
        #expect(try s.tack(["uninstall", "tool@1.0.0"], in: "c").status == 0)
        let upper = try s.tack(["install", "--frozen"], in: "c")
        #expect(upper.status == 0, "\(upper.stderr)")
    }

    // MARK: 8. parallel edits lose no pin

    @Test func parallelUseKeepsEveryPin() throws {
        let s = try Sandbox()
        var registry = ""
        for i in 0..<8 {
            try s.write("www/t\(i)-1.0.0.sh", "#!/bin/sh\necho t\(i)\n")
            registry += "t\(i): { url: \"file://\(s.root)/www/t\(i)-{version}.sh\", bin: [t\(i)] }\n"
        }
        try s.write("tack-home/registries/local/registry.yml", registry)
        try s.write("app/tack.yml", "tools: {}\n")
        let processes = try (0..<8).map { i in try s.spawn(["use", "t\(i)@1.0.0"], in: "app", log: s.root + "/use-\(i).log") }
        for p in processes { p.waitUntilDone() }
        for (i, p) in processes.enumerated() { #expect(p.terminationStatus == 0, "\(s.read("use-\(i).log") ?? "")") }
        let manifest = s.read("app/tack.yml") ?? ""
        let lock = s.read("app/tack.lock") ?? ""
        for i in 0..<8 {
            #expect(manifest.contains("t\(i): 1.0.0"), "t\(i) in tack.yml:\n\(manifest)")
            #expect(lock.contains("  t\(i):\n"), "t\(i) in tack.lock")
        }
        #expect(try s.tack(["install", "--frozen"], in: "app").status == 0)
    }

    // MARK: 9. a full disk

    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs"))
    func aDownloadOntoAFullDisk() throws {
        let s = try Sandbox()
        try s.mkdir("tack-home")
        guard try s.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", s.root + "/tack-home"]).status == 0 else { return }
        defer { _ = try? s.run("/bin/umount", ["-l", s.root + "/tack-home"]) }
        try s.write("www/big.bin", Data([0x7F, 0x45, 0x4C, 0x46]) + Data(count: 3 << 20))
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  big: { url: \"\(server.url("files/big.bin"))\", version: 1.0.0 }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("No space left on device"), "\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"))
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("tack: ") }
        #expect(errors.count == 1, "one error: \(r.stderr)")
        let downloads = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/downloads")) ?? []
        #expect(downloads.isEmpty, "no partial download left: \(downloads)")
        #expect(!s.exists("tack-home/installs/big/1.0.0"))
    }

    // MARK: 10. stdout that cannot be written

    @Test func outputThatCannotBeWrittenIsAnError() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let commands: [[String]] = [
            ["current"], ["current"], ["current", "--json"], ["ls", "--json"], ["ls"], ["hook-env", "bash"], ["activate", "bash"],
            ["--version"], ["outdated"], ["doctor"], ["ls-remote", "hello"], ["which", "hello"], ["--help"], ["install", "--help"],
        ]
        for args in commands {
            let r = try s.tack(args, in: "app", stdout: full)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasSuffix("tack: cannot write output: No space left on device\n"), "\(args): \(r.stderr)")
        }
    }

    // MARK: 11. signals

    @Test func execAfterAnInstallStartsTheCommandWithTacksSignalState() throws {
        let s = try Sandbox()
        // Built from git: the install runs a build process, and tack goes on from the thread
        // that saw it finish, as a real install does.
        _ = try scriptTool(s, "sigs", body: "#!/bin/sh\ngrep -E '^Sig(Blk|Ign)' /proc/self/status\n")
        let repo = try GitFixture.tool(in: s, name: "sigs-repo", tags: [])
        try s.write("sigs-repo/build.sh", "mkdir -p out\ncp '\(s.root)/www/sigs-1.0.0.sh' out/sigs\nchmod +x out/sigs\n")
        try repo.git("add", "build.sh")
        try repo.commitAndTag("1.0.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  sigs: { git: \"\(repo.path)\", version: 1.0.0, build: sh build.sh, bin: [out/sigs] }\n")
        let direct = try s.run("/bin/sh", [s.root + "/www/sigs-1.0.0.sh"], in: "app")
        let viaTack = try s.tack(["exec", "--", "sigs"], in: "app")
        #expect(viaTack.status == 0, "\(viaTack.stderr)")
        #expect(viaTack.stderr.contains("sigs 1.0.0: installed"), "it was installed first")
        // Nothing blocked, and the standard signals (1 to 31) ignored exactly where they are for
        // a program started directly (32 and up belong to the C library's threads).
        func fields(_ out: String) -> [String: UInt64] {
            var m: [String: UInt64] = [:]
            for line in out.split(separator: "\n") {
                let parts = line.split(separator: "\t")
                if parts.count == 2 { m[String(parts[0])] = UInt64(parts[1], radix: 16) }
            }
            return m
        }
        let d = fields(direct.stdout), t = fields(viaTack.stdout)
        #expect(t["SigBlk:"] == 0, "\(viaTack.stdout)")
        #expect(d["SigBlk:"] == 0)
        #expect(t["SigIgn:"].map { $0 & 0x7FFF_FFFF } == d["SigIgn:"].map { $0 & 0x7FFF_FFFF }, "\(viaTack.stdout) vs \(direct.stdout)")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalDuringAnInstallStopsItCleanly(_ signal: Int32, _ status: Int32) throws {
        let s = try Sandbox()
        try s.write("www/slowtool.sh", "#!/bin/sh\necho slow\n" + String(repeating: "#", count: 20000) + "\n")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  slowtool: { url: \"\(server.url("slow/slowtool.sh"))\", version: 1.0.0 }\n")
        let p = try s.spawn(["exec", "--", "slowtool"], in: "app", log: s.root + "/signal.log")
        // Wait until the download has started, then signal tack alone (not its group).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && !(s.read("signal.log") ?? "").contains("downloading") && !(s.exists("tack-home/cache/downloads") && ((try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/downloads")) ?? []).contains { $0.hasPrefix(".partial-") }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(p.processIdentifier, signal)
        p.waitUntilDone()
        #expect(p.terminationReason == .exit)
        #expect(p.terminationStatus == status, "\(s.read("signal.log") ?? "")")
        let downloads = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/downloads")) ?? []
        #expect(!downloads.contains { $0.hasPrefix(".partial-") }, "\(downloads)")
        // The leftover install directory is renamed at once and removed by a process of its own
        // (the prompt comes back without waiting for it): gone within moments.
        var leftovers: [String] = []
        for _ in 0..<100 {
            leftovers = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/slowtool")) ?? []
            if leftovers.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    // MARK: 12. exec installs only what the command needs

    @Test func execInstallsOnlyTheToolThatProvidesTheCommand() throws {
        let s = try Sandbox()
        let a = try scriptTool(s, "alpha")
        let b = try scriptTool(s, "beta")
        try s.write("app/tack.yml", "tools:\n  alpha: \(a)\n  beta: \(b)\n")
        let r = try s.tack(["exec", "--", "alpha"], in: "app")
        #expect(r.stdout == "alpha 1.0.0\n", "\(r.stderr)")
        #expect(s.exists("tack-home/installs/alpha/1.0.0"))
        #expect(!s.exists("tack-home/installs/beta"), "beta was not needed")
        // A command no pinned tool is known to provide installs nothing either.
        let other = try s.tack(["exec", "--", "true"], in: "app")
        #expect(other.status == 0)
        #expect(!s.exists("tack-home/installs/beta"))
    }

    // MARK: 13. a store reached through a symbolic link

    @Test func aSymlinkedTackHomeAndHomeInstallArchives() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/shellcheck-v0.10.0.tar.gz", version: "0.10.0")
        try s.mkdir("real-home")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/linked-home", withDestinationPath: s.root + "/real-home")
        try s.write("app/tack.yml", "tools:\n  shellcheck: { url: \"file://\(s.root)/www/shellcheck-v{version}.tar.gz\", version: 0.10.0, bin: [\"shellcheck-v{version}/shellcheck\"] }\n")
        for env in [["TACK_HOME": s.root + "/linked-home/tack"], ["HOME": s.root + "/linked-home", "TACK_HOME": ""]] {
            let r = try s.tack(["exec", "--", "shellcheck"], in: "app", env: env)
            #expect(r.status == 0, "\(env): \(r.stderr)")
            #expect(r.stdout == "shellcheck 0.10.0\n")
        }
    }

    // MARK: 14. relative and missing homes

    @Test func relativeAndMissingHomes() throws {
        let s = try Sandbox()
        let entry = try scriptTool(s, "tool")
        try s.write("app/tack.yml", "tools:\n  tool: \(entry)\n")
        // A relative XDG_DATA_HOME is ignored: the store is the default one, never in the project.
        let xdg = try s.tack(["install"], in: "app", env: ["TACK_HOME": "", "XDG_DATA_HOME": "data"])
        #expect(xdg.status == 0, "\(xdg.stderr)")
        #expect(!s.exists("app/data"))
        #expect(s.exists("home/.local/share/tack/installs/tool/1.0.0"))
        // And a relative XDG_CONFIG_HOME is not read.
        try s.write("app/conf/tack/tack.yml", "tools:\n  jq: 1.7.1\n")
        let conf = try s.tack(["current", "jq"], in: "app", env: ["XDG_CONFIG_HOME": "conf"])
        #expect(conf.status != 0 || !conf.stdout.contains("1.7.1"))
        // A relative TACK_HOME is an error, and nothing is created.
        let before = s.snapshot()
        let rel = try s.tack(["install"], in: "app", env: ["TACK_HOME": "store"])
        #expect(rel.status == 1)
        #expect(rel.stderr == "tack: TACK_HOME must be an absolute path, not \"store\" — tack keeps its store in one place, never inside the directory it runs in\n")
        #expect(s.snapshot() == before)
        // A HOME that does not exist grows no tree, and every command says so (issue 43,
        // item 11: `current` said "not installed"), in every binary; so does a relative TACK_HOME.
        let dir = (try Sandbox.binary() as NSString).deletingLastPathComponent
        for program in [nil, dir + "/tack-front", dir + "/tack-cli"] {
            for args in [["install"], ["current"], ["current", "tool"], ["which", "tool"], ["exec", "--", "tool"]] {
                let missing = try s.tack(args, in: "app", env: ["TACK_HOME": "", "HOME": s.root + "/nonexistent/x"], program: program)
                #expect(missing.status == 1, "\(program ?? "tack") \(args): \(missing.stderr)")
                #expect(missing.stderr.contains("HOME is \"\(s.root)/nonexistent/x\", which is not a directory"), "\(program ?? "tack") \(args): \(missing.stderr)")
                #expect(!missing.stdout.contains("not installed") && !missing.stderr.contains("not installed"), "\(program ?? "tack") \(args)")
                #expect(!s.exists("nonexistent"), "\(args)")
                let relative = try s.tack(args, in: "app", env: ["TACK_HOME": "store"], program: program)
                #expect(relative.status == 1, "\(program ?? "tack") \(args): \(relative.stderr)")
                #expect(relative.stderr.contains("TACK_HOME must be an absolute path"), "\(program ?? "tack") \(args): \(relative.stderr)")
            }
        }
    }

    // MARK: 15. shim loops

    @Test func aCopyOfTackOnPATHDoesNotLoop() throws {
        let s = try Sandbox()
        let bin = try Sandbox.binary()
        let buildDir = (bin as NSString).deletingLastPathComponent
        for dir in ["loop1", "loop2"] {
            try s.mkdir(dir)
            try copyExecutable(bin, to: s.root + "/\(dir)/tackloopcmd")
            for sibling in ["tack-front", "tack-cli"] {
                try FileManager.default.createSymbolicLink(atPath: s.root + "/\(dir)/\(sibling)", withDestinationPath: buildDir + "/" + sibling)
            }
        }
        try s.mkdir("app")
        func run(_ path: String, program: String? = nil) throws -> Sandbox.Result {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: program ?? s.root + "/loop1/tackloopcmd")
            p.currentDirectoryURL = URL(fileURLWithPath: s.root + "/app")
            var env = s.environment
            env["PATH"] = path
            p.environment = env
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            let watchdog = DispatchWorkItem { kill(p.processIdentifier, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilDone()
            watchdog.cancel()
            return Sandbox.Result(status: p.terminationReason == .exit ? p.terminationStatus : -1, stdout: "", stderr: String(decoding: e, as: UTF8.self))
        }
        // tack itself under the command's name (a hard link) on PATH: recognised by file
        // identity and skipped, so the command is simply not found.
        try s.mkdir("linked")
        try FileManager.default.linkItem(atPath: bin, toPath: s.root + "/linked/tackloopcmd")
        for sibling in ["tack-front", "tack-cli"] {
            try FileManager.default.createSymbolicLink(atPath: s.root + "/linked/\(sibling)", withDestinationPath: buildDir + "/" + sibling)
        }
        let one = try run(s.root + "/linked:/usr/bin:/bin", program: s.root + "/linked/tackloopcmd")
        #expect(one.status == 127, "\(one.stderr)")
        #expect(one.stderr == "tack: tackloopcmd: command not found\n")
        // Two copies that find each other: stopped after a few hops.
        let two = try run(s.root + "/loop1:" + s.root + "/loop2:/usr/bin:/bin")
        #expect(two.status == 126, "\(two.stderr)")
        #expect(two.stderr.contains("leads back to tack"), "\(two.stderr)")
    }

    // MARK: 16. downloads that are web pages

    @Test func aBareBinaryThatIsAWebPageIsRefused() throws {
        let s = try Sandbox()
        try s.write("www/tool", "#!/bin/sh\necho tool\n")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  tool: { url: \"\(server.url("html/tool"))\", version: 1.0.0 }\n")
        for args in [["install"], ["lock"]] {
            let r = try s.tack(args, in: "app")
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.contains("\(server.url("html/tool")) sent a web page, not an executable (ELF, Mach-O or a `#!` script) — nothing was installed"), "\(args): \(r.stderr)")
            #expect(!(s.read("app/tack.lock") ?? "").contains("sha256"), "no hash of a web page is locked")
            #expect(!s.exists("tack-home/installs/tool/1.0.0"))
        }
    }

    // MARK: 17. archive hygiene

    func archiveProject(_ s: Sandbox, hostile: String) throws {
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/shellcheck-v0.10.0.tar.gz", version: "0.10.0", hostile: hostile)
        try s.write("app/tack.yml", "tools:\n  shellcheck: { url: \"file://\(s.root)/www/shellcheck-v{version}.tar.gz\", version: 0.10.0, bin: [\"shellcheck-v{version}/shellcheck\"] }\n")
    }

    @Test func archiveModesLoseGroupAndOtherWriteAndSpecialBits() throws {
        let s = try Sandbox()
        try archiveProject(s, hostile: "modes")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let files = s.root + "/tack-home/installs/shellcheck/0.10.0/files/shellcheck-v0.10.0"
        func mode(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(files + "/open") == 0o755)
        #expect(try mode(files + "/shared") == 0o755)
        #expect(try mode(files + "/shared/note") == 0o644)
    }

    @Test func duplicateArchiveEntriesAreRefused() throws {
        let s = try Sandbox()
        try archiveProject(s, hostile: "duplicate")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("`shellcheck-v0.10.0/shellcheck` appears twice in the archive — nothing was installed"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck/0.10.0"))
    }

    @Test func archivesAreCappedInSizeAndEntries() throws {
        let s = try Sandbox()
        try archiveProject(s, hostile: "bomb")
        let big = try s.tack(["install"], in: "app", env: ["TACK_UNPACK_MAX_BYTES": "1M"])
        #expect(big.status == 1)
        #expect(big.stderr.contains("the archive unpacks to more than 1 MiB, tack's limit (raise it with TACK_UNPACK_MAX_BYTES) — nothing was installed"), "\(big.stderr)")
        let many = try s.tack(["install"], in: "app", env: ["TACK_UNPACK_MAX_ENTRIES": "2"])
        #expect(many.status == 1)
        #expect(many.stderr.contains("the archive holds more than 2 entries, tack's limit (raise it with TACK_UNPACK_MAX_ENTRIES)"), "\(many.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck/0.10.0"))
        // The defaults fit.
        #expect(try s.tack(["install"], in: "app").status == 0)
    }

    // MARK: 18. terminal escapes

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let s = try Sandbox()
        let esc = "\u{1B}]0;pwned\u{07}\u{1B}[31m"
        try s.write("a/tack.yml", "tools:\n  jq: 1.7.1\n\"\(esc.replacingOccurrences(of: "\u{1B}", with: "\\e").replacingOccurrences(of: "\u{07}", with: "\\a"))\": 1\n")
        let key = try s.tack(["current"], in: "a")
        #expect(key.status == 1)
        #expect(!key.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(key.stderr)")
        #expect(key.stderr.contains("\\u{1B}]0;pwned\\u{07}"), "\(key.stderr)")
        // A directory name with escapes, in hook-env's warning at the prompt.
        try s.write("b\(esc)/tack.yml", "tools:\n  jq: 1.7.1\nenv:\n  A: b\n")
        let hook = try s.tack(["hook-env", "bash"], in: "b\(esc)")
        #expect(hook.stderr.contains("is not trusted"))
        #expect(!hook.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(hook.stderr)")
        // And through the shim's hot path.
        let exec = try s.tack(["exec", "--", "true"], in: "b\(esc)")
        #expect(!exec.stderr.unicodeScalars.contains { $0.value == 0x1B }, "\(exec.stderr)")
    }

    // MARK: 19. tack.yml that is not a file

    @Test(arguments: ["directory", "fifo", "loop", "dangling"])
    func aManifestThatIsNotAFileIsAnError(_ kind: String) throws {
        let s = try Sandbox()
        try s.mkdir("app/sub")
        let path = s.root + "/app/tack.yml"
        switch kind {
        case "directory": try s.mkdir("app/tack.yml")
        case "fifo": #expect(mkfifo(path, 0o644) == 0)
        case "loop": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
        default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: s.root + "/nowhere.yml")
        }
        for args in [["current"], ["install"], ["lock"]] {
            let r = try s.tack(args, in: "app/sub")
            #expect(r.status == 1, "\(kind) \(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("tack: \(path) is "), "\(kind) \(args): \(r.stderr)")
            #expect(!r.stderr.contains("no tools are pinned"))
        }
    }

    /// An install's record is a file: a build time in it that is no time (infinite, not a
    /// number, negative, beyond any clock) is shown as 0, never a crash.
    @Test(arguments: ["inf", "nan", "1e400", "-5", "99999999999999999999"])
    func aBuildTimeInAnInstallRecordThatIsNoTimeIsShownAsZero(_ seconds: String) throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.mkdir("tack-home/installs/jq/1.7.1/bin")
        try s.write("tack-home/installs/jq/1.7.1/.tack-install.lock", """
            version: 1
            tools:
              jq: { backend: "url", requested: "1.7.1", source: "x", version: "1.7.1", built: { from: "built", seconds: "\(seconds)" } }

            """)
        let r = try s.tack(["ls", "--json"], in: "app")
        #expect(r.status == 0, "\(seconds): \(r.stderr)")
        #expect(r.stdout.contains(#""build_seconds":0}"#), "\(seconds): \(r.stdout)")
    }
}
