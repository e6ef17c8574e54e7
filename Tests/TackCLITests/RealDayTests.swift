import Foundation
import TackCore
import TackKit
import Testing

/// Right answers on a real day, second pass (issue 43): nothing runs that the pin did not
/// name, and every command agrees. Each test is one item, end to end.
@Suite(.ownThreads) struct RealDayTests {
    // MARK: 1. a wrong checksum never installs another version's archive

    @Test func aChecksumCopiedFromAnotherVersionIsCheckedAgainstThisVersionsOwnDownload() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        for v in ["1.0.0", "2.0.0"] { try FixtureServer.archive("tar.gz", s.root + "/www/flat-\(v).tar.gz", version: v) }
        let server = try FixtureServer(serving: s.root + "/www")
        let one = try sha256(s.root + "/www/flat-1.0.0.tar.gz"), two = try sha256(s.root + "/www/flat-2.0.0.tar.gz")
        func pin(_ dir: String, _ version: String, _ sum: String) throws {
            try s.write(dir + "/tack.yml", """
                tools:
                  flat: { url: "\(server.url("files/flat-{version}.tar.gz"))", version: \(version), checksum: "\(sum)", bin: "shellcheck-v{version}/shellcheck" }

                """)
        }
        try pin("one", "1.0.0", one)
        #expect(try s.tack(["install"], in: "one").status == 0)
        // A copy-paste slip when bumping: 2.0.0 pinned with 1.0.0's checksum.
        try pin("two", "2.0.0", one)
        let r = try s.tack(["install"], in: "two")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.failures.map(\.cause) == [.install(.checksumMismatch(tool: "flat 2.0.0", platform: platformKey, expected: one, actual: two, origin: .manifest))], "\(r.stderr)")
        #expect(!r.stderr.contains("flat 2.0.0: installed"), "\(r.stderr)")
        #expect(try server.requests("files/flat-2.0.0.tar.gz") == 1, "2.0.0's own URL was asked")
        #expect(!s.exists("tack-home/installs/flat/2.0.0"))
        // The right checksum installs 2.0.0's own archive; 1.0.0's cached download still serves 1.0.0.
        try pin("two", "2.0.0", two)
        #expect(try s.tack(["install"], in: "two").status == 0)
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "two").stdout == "shellcheck 2.0.0\n")
        #expect(try s.tack(["uninstall", "flat@1.0.0"], in: "one").status == 0)
        #expect(try s.tack(["install"], in: "one").status == 0)
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "one").stdout == "shellcheck 1.0.0\n")
        #expect(try server.requests("files/flat-1.0.0.tar.gz") == 1, "a reinstall is answered by the cache")
    }

    /// `flat` 1.0.0 and 2.0.0 as url archives on a loopback server (each runs as `shellcheck`
    /// and prints its version), and `dir/tack.yml` pinning `version`.
    func flat(_ s: Sandbox, pin version: String, in dir: String = "app", extra: String = "") throws -> FixtureServer {
        try s.mkdir("www")
        for v in ["1.0.0", "2.0.0"] { try FixtureServer.archive("tar.gz", s.root + "/www/flat-\(v).tar.gz", version: v) }
        let server = try FixtureServer(serving: s.root + "/www")
        try pinFlat(s, server, version, in: dir, extra: extra)
        return server
    }

    func pinFlat(_ s: Sandbox, _ server: FixtureServer, _ version: String, in dir: String = "app", extra: String = "") throws {
        try s.write(dir + "/tack.yml", extra + """
            tools:
              flat: { url: "\(server.url("files/flat-{version}.tar.gz"))", version: \(version), bin: "shellcheck-v{version}/shellcheck" }

            """)
    }

    /// The three binaries: `tack` (twice: the first hands off and leaves a snapshot, the
    /// second answers from it), `tack-front` and `tack-cli`.
    func everyBinary() throws -> [String?] {
        let dir = (try Sandbox.binary() as NSString).deletingLastPathComponent
        return [nil, nil, dir + "/tack-front", dir + "/tack-cli"]
    }

    // MARK: 4. an environment override changes no project file

    @Test func anEnvironmentOverrideInstallsAndRunsButWritesNoProjectFile() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "2.0.0")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        let manifest = s.read("app/tack.yml"), lock = s.read("app/tack.lock")
        let override = ["TACK_FLAT_VERSION": "1.0.0"]
        let r = try s.tack(["install"], in: "app", env: override)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("removed") && !r.stderr.contains("locked "), "\(r.stderr)")
        #expect(s.exists("tack-home/installs/flat/1.0.0"))
        #expect(s.read("app/tack.yml") == manifest)
        #expect(s.read("app/tack.lock") == lock, "\(s.read("app/tack.lock") ?? "")")
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app", env: override).stdout == "shellcheck 1.0.0\n")
        // Frozen, the lock is checked against the file's pin, which it still matches.
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: override)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(s.read("app/tack.lock") == lock)
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app").stdout == "shellcheck 2.0.0\n")
    }

    // MARK: 5. exec --frozen runs only what the lock describes, in every binary

    @Test func frozenExecRefusesALockThatDiffersFromThePinInEveryBinary() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "2.0.0")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["install", "flat@1.0.0"], in: "app").status == 0)
        // tack.yml now says 1.0.0 (installed); tack.lock still says 2.0.0.
        try pinFlat(s, server, "1.0.0")
        let lock = s.read("app/tack.lock")
        for program in try everyBinary() {
            for (args, env) in [(["exec", "--frozen", "--", "shellcheck"], [String: String]()), (["exec", "--", "shellcheck"], ["TACK_FROZEN": "1"])] {
                let r = try s.tack(args, in: "app", env: env, program: program)
                #expect(r.status == 1, "\(program ?? "tack") \(args) \(env): \(r.stdout) \(r.stderr)")
                #expect(r.stdout.isEmpty, "\(program ?? "tack"): \(r.stdout)")
                #expect(r.stderr.contains("tack.lock does not match what is pinned, and --frozen (or TACK_FROZEN) forbids changing it"), "\(program ?? "tack"): \(r.stderr)")
            }
        }
        #expect(s.read("app/tack.lock") == lock)
        // Unfrozen, exec runs the pin; once locked, frozen does too.
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app").stdout == "shellcheck 1.0.0\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["exec", "--frozen", "--", "shellcheck"], in: "app").stdout == "shellcheck 1.0.0\n")
    }

    // MARK: 6. -v never changes the answer: every path checks what a frozen install checks

    @Test func frozenInstallOnAnUncoveredPlatformFailsOnEveryPath() throws {
        let s = try Sandbox()
        let other = platformKey == "linux-x86_64" ? "linux-arm64" : "linux-x86_64"
        try s.mkdir("www")
        for p in [platformKey, "darwin-arm64", other] { try s.write("www/tool-1.0.0-\(p).sh", "#!/bin/sh\necho tool for \(p)\n") }
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "platforms: [\(platformKey), darwin-arm64]\n"
                    + "tools:\n  tool: { url: \"\(server.url("files/tool-{version}-{os}-{arch}.sh"))\", version: 1.0.0, bin: [tool] }\n")
        let installed = try s.tack(["install"], in: "app")
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(try s.tack(["install", "--frozen"], in: "app").status == 0)
        let message = "tack: tack.lock covers darwin-arm64, \(platformKey), not \(other), and --frozen installs only what it can verify — run `tack lock --platform \(other)` (on any machine) and commit tack.lock; nothing was installed\n"
        for program in try everyBinary() {
            for args in [["install", "--frozen"], ["-v", "install", "--frozen"]] {
                let r = try s.tack(args, in: "app", env: ["TACK_PLATFORM": other], program: program)
                #expect(r.status == 1, "\(program ?? "tack") \(args): \(r.stderr)")
                #expect(r.stderr.hasSuffix(message), "\(program ?? "tack") \(args): \(r.stderr)")
            }
        }
    }

    // MARK: 3. a lock `tack lock` wrote is enough for a frozen install, for every backend

    /// `tack lock` alone (no platforms listed), then `install --frozen` in a fresh TACK_HOME;
    /// an install after the lock changes no byte of it.
    func lockAloneInstallsFrozen(_ s: Sandbox, _ run: String) throws {
        let lock = try s.tack(["lock"], in: "app")
        #expect(lock.status == 0, "\(lock.stderr)")
        let locked = s.read("app/tack.lock")
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: ["TACK_HOME": s.root + "/fresh"])
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try s.tack(["exec", "--", run], in: "app", env: ["TACK_HOME": s.root + "/fresh"]).status == 0)
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(s.read("app/tack.lock") == locked, "an install after `tack lock` rewrote it")
    }

    @Test(.enabled(if: LockPlatformsTests.onLinuxX86)) func aPipToolLockedAloneInstallsFrozen() throws {
        let s = try Sandbox()
        let server = try LockPlatformsTests().wheels(s)
        defer { withExtendedLifetime(server) {} }
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: 1.0.0, index_url: \"\(server.url("static/simple"))\" }\n")
        try lockAloneInstallsFrozen(s, "greet")
    }

    @Test(.enabled(if: LockPlatformsTests.onLinuxX86)) func aGemToolLockedAloneInstallsFrozen() throws {
        let s = try Sandbox()
        let server = try LockPlatformsTests().gems(s)
        defer { withExtendedLifetime(server) {} }
        try s.write("app/tack.yml", "tools:\n  greet: { gem: greet, version: 1.0.0, source: \"\(server.url("static/"))\" }\n")
        try lockAloneInstallsFrozen(s, "greet")
    }

    @Test func aSwiftToolchainLockedAloneInstallsFrozen() throws {
        let (s, m) = try SwiftToolchainTests().setUp()
        try s.write("app/tack.yml", "tools:\n  swift: 6.0.3\n")
        let lock = try s.tack(["lock"], in: "app", env: m.environment)
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(s.read("app/tack.lock")?.contains("sha256:") == true, "\(s.read("app/tack.lock") ?? "")")
        let fresh = m.environment.merging(["TACK_HOME": s.root + "/fresh"]) { $1 }
        let frozen = try s.tack(["install", "--frozen"], in: "app", env: fresh)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try s.tack(["exec", "--", "swift", "--version"], in: "app", env: fresh).stdout.contains("swift-6.0.3-RELEASE"))
    }

    @Test func aURLToolLockedAloneInstallsFrozen() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "1.0.0")
        defer { withExtendedLifetime(server) {} }
        try lockAloneInstallsFrozen(s, "shellcheck")
    }

    // MARK: 7. a version that does not exist is never locked or pinned

    @Test func aPipVersionThatDoesNotExistIsNeitherLockedNorPinned() throws {
        let (s, server) = try PipBackendTests().setUp(uv: true)
        defer { withExtendedLifetime(server) {} }
        let index = server.url("static/simple")
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: 9.9.9, index_url: \"\(index)\" }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        let failure = try #require(r.noVersion, "\(r.stderr)")
        #expect(failure.tool == "greet" && failure.requirement == "9.9.9", "\(r.stderr)")
        #expect(failure.hint == .newest("1.1.0") || failure.hint == .nearest(["1.0.0", "1.1.0"], newest: nil), "\(r.stderr)")
        #expect(!r.stderr.contains("locked greet"), "\(r.stderr)")
        #expect(!s.exists("app/tack.lock"))
        // `tack use` with a misspelt word: tack.yml and tack.lock stay as they were.
        try s.write("app/tack.yml", "tools:\n  greet: { pip: greet, version: 1.0.0, index_url: \"\(index)\" }\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let manifest = s.read("app/tack.yml"), lock = s.read("app/tack.lock")
        let use = try s.tack(["use", "greet@lates"], in: "app")
        #expect(use.status == 1)
        #expect(use.noVersion?.tool == "greet" && use.noVersion?.requirement == "lates", "\(use.stderr)")
        #expect(!use.stderr.contains("locked greet"), "\(use.stderr)")
        #expect(s.read("app/tack.yml") == manifest && s.read("app/tack.lock") == lock)
    }

    @Test func aURLVersionThatIsNotPublishedIsNotLocked() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "3.0.0")
        defer { withExtendedLifetime(server) {} }
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot download flat 3.0.0"), "\(r.stderr)")
        #expect(!r.stderr.contains("locked flat"), "\(r.stderr)")
        #expect(!s.exists("app/tack.lock"))
        // With another tool that installs, the lock records that one alone.
        try s.write("app/tack.yml", (s.read("app/tack.yml") ?? "") + "  ok: { url: \"\(server.url("files/flat-{version}.tar.gz"))\", version: 1.0.0, bin: \"shellcheck-v{version}/shellcheck\" }\n")
        let both = try s.tack(["install"], in: "app")
        #expect(both.status == 1)
        #expect(both.stderr.contains("locked ok 1.0.0") && !both.stderr.contains("locked flat"), "\(both.stderr)")
        let lock = s.read("app/tack.lock") ?? ""
        #expect(lock.contains("ok:") && !lock.contains("flat:"), "\(lock)")
    }

    // MARK: 8. one answer to "which version does this pin mean", for every command

    @Test func aRangeNotLockedYetRunsNothingAnotherProjectInstalled() throws {
        let s = try Sandbox()
        let source = "http://127.0.0.1:9/hello-{version}"
        try s.fakeInstall("hello", "2.10", backend: "url", source: source)
        try s.write("tack-home/installs/hello/2.10/bin/hello", "#!/bin/sh\necho hello 2.10\n")
        chmod(s.root + "/tack-home/installs/hello/2.10/bin/hello", 0o755)
        try s.write("app/tack.yml", "tools:\n  hello: { url: \"\(source)\", version: \"~> 2.9\", bin: [hello] }\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 1)
        #expect(install.failures.map(\.cause) == [.resolution(.noVersionIndex(tool: "hello", setBy: s.root + "/app/tack.yml:2"))], "\(install.stderr)")
        for program in try everyBinary() {
            let current = try s.tack(["current", "hello"], in: "app", program: program)
            #expect(!current.stdout.contains("2.10"), "\(program ?? "tack"): \(current.stdout)")
            #expect(current.stdout.contains("not resolved yet") || current.stderr.contains("not resolved yet"), "\(program ?? "tack"): \(current.stdout) \(current.stderr)")
            let which = try s.tack(["which", "hello"], in: "app", program: program)
            #expect(which.status != 0 && !which.stdout.contains("2.10"), "\(program ?? "tack"): \(which.stdout)")
            let exec = try s.tack(["exec", "--", "hello"], in: "app", program: program)
            #expect(exec.status != 0 && exec.stdout.isEmpty, "\(program ?? "tack"): \(exec.stdout)")
            #expect(exec.stderr.contains("cannot list its versions"), "\(program ?? "tack"): \(exec.stderr)")
        }
    }

    // MARK: 9. `tack use` takes every backend's source; every hint is a command that works

    @Test func useTakesAPipSourceAndWritesItsEntry() async throws {
        let t = try serviceSetup("tools: {}\n", versions: ["6.0", "6.1"], backend: "pip")
        var pin = PinService.Pin(tool: "cowsay", requirement: try Requirement.parse("6.1"))
        pin.source = .pip("cowsay")
        pin.entrySource = "pip: cowsay"
        let (_, outcome) = try await PinService(t.context()).pin(pin)
        #expect(outcome == .pinned(file: t.sandbox.root + "/app/tack.yml"))
        #expect(t.sandbox.read("app/tack.yml")?.hasSuffix("\n  cowsay: { pip: cowsay, version: \"6.1\" }\n") == true, "\(t.sandbox.read("app/tack.yml") ?? "")")
    }

    @Test func useWithoutASourceSaysWhichToGiveAndWritesNothing() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools: {}\n")
        let r = try s.tack(["use", "cowsay@6.1"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("no registry knows cowsay, so pin it with its source: `tack use cowsay@VERSION` with --github OWNER/REPO, --git URL, --url URL, --release OWNER/REPO, --aqua OWNER/REPO, --pip PACKAGE or --gem GEM"), "\(r.stderr)")
        #expect(s.read("app/tack.yml") == "tools: {}\n")
        #expect(!s.exists("app/tack.lock"))
        #expect(try s.tack(["use", "cowsay@6.1", "--pip", "cowsay", "--gem", "cowsay"], in: "app").status == 2)
    }

    @Test func useTakesAURLSourceWithItsBinaries() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "1.0.0", in: "elsewhere")
        defer { withExtendedLifetime(server) {} }
        try s.write("app/tack.yml", "tools: {}\n")
        let r = try s.tack(["use", "flat@2.0.0", "--url", server.url("files/flat-{version}.tar.gz"), "--bin", "shellcheck-v{version}/shellcheck"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.yml")?.contains("flat: { url: \"\(server.url("files/flat-{version}.tar.gz"))\", version: 2.0.0, bin: [\"shellcheck-v{version}/shellcheck\"] }") == true, "\(s.read("app/tack.yml") ?? "")")
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app").stdout == "shellcheck 2.0.0\n")
        // A shim elsewhere names the `tack use` that pins it, and that command works there.
        #expect(try s.tack(["reshim"], in: "app").status == 0)
        try s.mkdir("other")
        let shim = try s.tack([], in: "other", env: ["PATH": s.root + "/tack-home/shims"], program: s.root + "/tack-home/shims/shellcheck")
        #expect(shim.status == 127)
        let hint = try #require(shim.stderr.firstMatch(of: /pin it with `(tack use [^`]+)`/)).output.1
        try s.write("other/tack.yml", "tools: {}\n")
        let words = String(hint).split(separator: " ").map { String($0).replacingOccurrences(of: "'", with: "") }
        let use = try s.tack(Array(words.dropFirst()), in: "other")
        #expect(use.status == 0, "\(hint): \(use.stderr)")
    }

    // MARK: 14. "did you mean" for tool names in current, use, update and install

    @Test func misspeltToolNamesGetDidYouMean() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "1.0.0")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        for args in [["current", "flatt"], ["update", "flatt"], ["install", "flatt"], ["use", "flatt@1.0.0"]] {
            for program in try everyBinary() where args[0] == "current" || program == nil {
                let r = try s.tack(args, in: "app", program: program)
                #expect(r.status == 1, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("did you mean `flat`?"), "\(program ?? "tack") \(args): \(r.stderr)")
            }
        }
    }

    // MARK: 16. `where` suggests what installs without pinning

    @Test func whereSuggestsAnInstallThatChangesNoPin() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "1.0.0")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        let r = try s.tack(["where", "flat@2.0"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("install one without pinning it: `tack install flat@2.0`"), "\(r.stderr)")
        let manifest = s.read("app/tack.yml")
        #expect(try s.tack(["install", "flat@2.0.0"], in: "app").status == 0)
        #expect(s.read("app/tack.yml") == manifest)
        #expect(try s.tack(["where", "flat@2.0"], in: "app").stdout == s.root + "/tack-home/installs/flat/2.0.0\n")
    }

    // MARK: 10. builds that ran together are said one by one, never added up

    @Test func parallelBuildsAreNotAddedUp() throws {
        let s = try Sandbox()
        let one = try GitFixture.tool(in: s, name: "one-repo", tags: ["1.0.0"], sleep: 1)
        let two = try GitFixture.tool(in: s, name: "two-repo", tags: ["1.0.0"], sleep: 1)
        try s.writeTrusted("app/tack.yml", "tools:\n  one: \(one.entry("1.0.0"))\n  two: \(two.entry("1.0.0"))\n")
        let r = try s.tack(["install", "--jobs", "2"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last.map(String.init))
        #expect(line.hasPrefix("2 installed in "), "\(line)")
        #expect(line.contains("(2 built here: "), "\(line)")
        #expect(line.contains("one ") && line.contains("two "), "each build's own time: \(line)")
    }

    // MARK: 15. a read-only project: a no-op writes nothing; a failure says the path once

    @Test(.enabled(if: getuid() == 0, "bind-mounts a directory read-only"))
    func aReadOnlyProject() throws {
        let s = try Sandbox()
        let server = try flat(s, pin: "1.0.0")
        defer { withExtendedLifetime(server) {} }
        #expect(try s.tack(["install"], in: "app").status == 0)
        try s.mkdir("ro")
        guard try s.run("/bin/mount", ["--bind", s.root + "/app", s.root + "/ro"]).status == 0 else { return }
        defer { _ = try? s.run("/bin/umount", ["-l", s.root + "/ro"]) }
        #expect(try s.run("/bin/mount", ["-o", "remount,bind,ro", s.root + "/ro"]).status == 0)
        for program in try everyBinary() {
            for args in [["install"], ["-v", "install"], ["install", "--frozen"]] {
                let r = try s.tack(args, in: "ro", program: program)
                #expect(r.status == 0, "\(program ?? "tack") \(args): \(r.stderr)")
                #expect(!r.stderr.contains("cannot write"), "\(program ?? "tack") \(args): \(r.stderr)")
            }
        }
        // With no tack.lock to read, the lock cannot be written: said once, its path once.
        _ = try s.run("/bin/umount", ["-l", s.root + "/ro"])
        try FileManager.default.removeItem(atPath: s.root + "/app/tack.lock")
        #expect(try s.run("/bin/mount", ["--bind", s.root + "/app", s.root + "/ro"]).status == 0)
        #expect(try s.run("/bin/mount", ["-o", "remount,bind,ro", s.root + "/ro"]).status == 0)
        let r = try s.tack(["install"], in: "ro")
        #expect(r.status == 1)
        let lock = s.root + "/ro/tack.lock"
        #expect(r.stderr.components(separatedBy: "cannot write").count == 2, "said once: \(r.stderr)")
        #expect(r.stderr.components(separatedBy: lock).count == 2, "the path once: \(r.stderr)")
        #expect(r.stderr.contains("tack: cannot write \(lock): Read-only file system"), "\(r.stderr)")
    }

    // MARK: 17. a project with only a .tool-versions gets no tack.lock unless it asks

    @Test func aToolVersionsProjectGetsNoLockUntilItAsks() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        for v in ["1.0.0", "2.0.0"] { try FixtureServer.archive("tar.gz", s.root + "/www/flat-\(v).tar.gz", version: v) }
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("tack-home/registries/mine/registry.yml", "flat: { url: \"\(server.url("files/flat-{version}.tar.gz"))\", bin: \"shellcheck-v{version}/shellcheck\" }\n")
        try s.write("app/.tool-versions", "flat 1.0.0\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(!s.exists("app/tack.lock"), "day one changes nothing in the project")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root + "/app") == [".tool-versions"])
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app").stdout == "shellcheck 1.0.0\n")
        // Installed: a no-op on every path, and still no lock.
        for program in try everyBinary() {
            let again = try s.tack(["install"], in: "app", program: program)
            #expect(again.status == 0 && !again.stderr.contains("installed"), "\(program ?? "tack"): \(again.stderr)")
        }
        #expect(!s.exists("app/tack.lock"))
        // Asked for, a lock is written, and used from then on.
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(s.read("app/tack.lock")?.contains("version: \"1.0.0\"") == true, "\(s.read("app/tack.lock") ?? "")")
        #expect(try s.tack(["install", "--frozen"], in: "app").status == 0)
    }

    // MARK: 2. a build refers only to what it keeps: its sources stay where it compiled them in

    @Test func aBuildThatCompiledInItsSourcesKeepsThemAndIsNotPulledWhereTheyAreNot() throws {
        let registry = try RegistryServer()
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, name: "where-repo", tags: [])
        // Like protoc and its include directory: a C program that reads a file through the
        // source path its build compiled in.
        try s.write("where-repo/where.c", """
            #include <stdio.h>
            int main(void) {
                FILE *f = fopen(SRC "/motto.txt", "r");
                if (!f) { perror(SRC "/motto.txt"); return 1; }
                int c;
                while ((c = fgetc(f)) != EOF) putchar(c);
                return 0;
            }

            """)
        try s.write("where-repo/motto.txt", "found through a compiled-in path\n")
        try s.write("where-repo/build.sh", "set -e\nmkdir -p out\ncc -O1 -DSRC=\"\\\"$(pwd)\\\"\" -o out/hello where.c\n")
        try repo.git("add", ".")
        try repo.commitAndTag("1.0.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  where: \(repo.entry("1.0.0"))\n")
        let cache = ["TACK_CACHE": registry.cacheURL()]
        let ci = try s.tack(["install"], in: "app", env: cache.merging(["TACK_CACHE_PUSH": "1"]) { $1 })
        #expect(ci.status == 0, "\(ci.stderr)")
        let install = s.root + "/tack-home/installs/where/1.0.0"
        #expect(try runProgram(install + "/bin/hello") == "found through a compiled-in path\n")
        #expect(!FileManager.default.fileExists(atPath: install + "/src/.git"))
        // Another machine (another TACK_HOME): the pushed build names the first machine's
        // sources, so it is built here, where its own sources are kept.
        let laptop = try TeamCacheTests().machine(s, "laptop", cache)
        #expect(try s.tack(["trust"], in: "app", env: laptop).status == 0)
        let pull = try s.tack(["install"], in: "app", env: laptop)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("the team cache's build cannot move here: its hello names the sources where it was built (\(install)/src/motto.txt); building it here"), "\(pull.stderr)")
        #expect(try runProgram(s.root + "/laptop/tack-home/installs/where/1.0.0/bin/hello") == "found through a compiled-in path\n")
        // Gone from the first machine, the second still runs its own.
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/installs/where")
        #expect(try runProgram(s.root + "/laptop/tack-home/installs/where/1.0.0/bin/hello") == "found through a compiled-in path\n")
    }

    // MARK: 13. a second install says at once what it waits for

    @Test func aWaitingInstallSaysWhatItWaitsFor() throws {
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], sleep: 30, log: log)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.writeTrusted("other/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let first = try s.spawn(["install"], in: "app", log: s.root + "/first.log")
        defer { kill(first.processIdentifier, SIGTERM); first.waitUntilDone() }
        #expect(poll(20) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("built") == true }, "the build started")
        let expected = "waiting for pid \(first.processIdentifier), which is installing hello 1.0.0"
        // The same project (its lock), and another project (the tool's lock).
        for (dir, name) in [("app", "same"), ("other", "other")] {
            let second = try s.spawn(["install"], in: dir, log: s.root + "/\(name).log")
            let said = poll(10) { (try? String(contentsOfFile: s.root + "/\(name).log", encoding: .utf8))?.contains(expected) == true }
            kill(second.processIdentifier, SIGTERM)
            second.waitUntilDone()
            #expect(said, "\(dir): \((try? String(contentsOfFile: s.root + "/\(name).log", encoding: .utf8)) ?? "")")
        }
    }

    // MARK: 12. an interrupt says so and where the build's output is, and dumps none of it

    @Test func anInterruptedBuildSaysWhereItsOutputIsAndDumpsNone() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: [])
        try s.write("hello-repo/build.sh", """
            i=1; while [ $i -le 50 ]; do echo "build-line-$i"; i=$((i+1)); done
            mkdir -p tree; i=1; while [ $i -le 300 ]; do echo x > tree/f$i; i=$((i+1)); done
            setsid sh -c "trap '' INT TERM; echo \\$\\$ > \(s.root)/stubborn.pid; sleep 30" &
            touch \(s.root)/ready
            sleep 30

            """)
        try repo.git("add", "build.sh")
        try repo.commitAndTag("1.0.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let p = try s.spawn(["install"], in: "app", log: s.root + "/install.log")
        #expect(poll(20) { s.exists("ready") && s.exists("stubborn.pid") })
        usleep(200_000)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilDone()
        let log = s.read("install.log") ?? ""
        #expect(p.terminationStatus == 130, "\(log)")
        #expect(!log.contains("build-line-"), "the build's output is not dumped: \(log)")
        let said = try #require(log.firstMatch(of: /tack: interrupted \(SIGINT\); nothing half-installed was kept; what was running: sh -c \(its output: ([^)]+)\)/), "\(log)")
        let output = String(said.output.1)
        #expect((try? String(contentsOfFile: output, encoding: .utf8))?.contains("build-line-50") == true, "\(output)")
        try? FileManager.default.removeItem(atPath: output)
        // The child that ignored SIGINT and SIGTERM did not outlive tack.
        let stubborn = Int32((s.read("stubborn.pid") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(stubborn > 0 && kill(stubborn, 0) != 0 || (try? String(contentsOfFile: "/proc/\(stubborn)/stat", encoding: .utf8))?.contains(") Z") == true)
        // Nothing looks installed; what the build left goes (removed in the background).
        #expect(poll(10) { ((try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")) ?? []).isEmpty },
                "\((try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")) ?? [])")
    }
}
