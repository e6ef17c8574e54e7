import Foundation
import Testing

/// Interrupts leave nothing running and nothing changed (issue 30, items 3–5): a signal to tack
/// alone (as a supervisor, `kill` or a closing terminal sends it) stops every descendant of
/// the build it runs, puts tack.yml and tack.lock back, and what a killed tack left is found
/// by `tack doctor` and removed by `tack prune`.
@Suite(.ownThreads) struct InterruptTests {
    /// Whether `pid` still runs (a zombie does not).
    func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// A git tool whose `build:` starts two grandchildren that would each write a file three
    /// seconds later: one in the build's process group, one in a session of its own (as
    /// SwiftPM puts its compilers in groups of their own). Each writes its pid first.
    func slowBuild(_ s: Sandbox) throws -> GitFixture {
        let repo = try GitFixture.tool(in: s, tags: [])
        let script = """
            sh -c 'echo $$ > \(s.root)/grandchild.pid; sleep 3; touch \(s.root)/grandchild.wrote' &
            setsid sh -c 'echo $$ > \(s.root)/session.pid; sleep 3; touch \(s.root)/session.wrote' &
            sleep 30
            mkdir -p out && printf '#!/bin/sh\\necho hello\\n' > out/hello && chmod +x out/hello

            """
        try s.write("hello-repo/build.sh", script)
        try repo.git("add", "build.sh")
        try repo.commitAndTag("1.0.0")
        return repo
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalDuringABuildStopsEveryDescendant(_ signal: Int32, _ status: Int32) async throws {
        let s = try Sandbox()
        let repo = try slowBuild(s)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let p = try s.spawn(["install"], in: "app", log: s.root + "/install.log")
        let started = try await timed {
            let started = poll(20) { s.exists("grandchild.pid") && s.exists("session.pid") }
            usleep(500_000)
            kill(p.processIdentifier, signal)  // tack alone, not its group
            p.waitUntilDone()
            return started
        }
        #expect(started, "\(s.read("install.log") ?? "")")
        let pids = ["grandchild.pid", "session.pid"].compactMap { s.read($0).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        #expect(pids.count == 2)
        #expect(p.terminationStatus == status, "\(s.read("install.log") ?? "")")
        for pid in pids { #expect(!alive(pid), "\(pid) outlived tack") }
        await pause(3.5)
        #expect(!s.exists("grandchild.wrote") && !s.exists("session.wrote"), "a descendant kept running")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")) ?? []
        #expect(left.isEmpty, "\(left)")
        #expect(!s.exists("tack-home/installs/hello/1.0.0"))
    }

    /// `tack use` and `tack update` interrupted while they build: tack.yml and tack.lock are
    /// byte for byte what they were.
    @Test(arguments: [("use", SIGINT), ("use", SIGTERM), ("update", SIGINT), ("update", SIGTERM)])
    func anInterruptedChangeOfPinsPutsBothFilesBack(_ command: String, _ signal: Int32) async throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0").replacingOccurrences(of: "version: \"1.0.0\"", with: "version: \"~> 1.0\""))\n")
        #expect(try await s.tack(["install"], in: "app").status == 0)
        // 1.1.0 builds slowly.
        try s.write("hello-repo/build.sh", "echo started > \(s.root)/started\nsleep 30\nmkdir -p out\n")
        try repo.git("add", "build.sh")
        try repo.commitAndTag("1.1.0")
        let manifest = try #require(s.read("app/tack.yml")), lock = try #require(s.read("app/tack.lock"))
        let args = command == "use" ? ["use", "hello@1.1.0"] : ["update", "hello"]
        let p = try s.spawn(args, in: "app", log: s.root + "/change.log")
        let (started, duringManifest, duringLock) = try await timed {
            let started = poll(20) { s.exists("started") }
            let during = (s.read("app/tack.yml"), s.read("app/tack.lock"))
            kill(p.processIdentifier, signal)
            p.waitUntilDone()
            return (started, during.0, during.1)
        }
        #expect(started, "\(s.read("change.log") ?? "")")
        if command == "use" { #expect(duringManifest != manifest, "use wrote the new pin before building") }
        // The new version is locked only once it is installed (issue 43, item 7).
        #expect(duringLock == lock, "the new version was locked before it was built")
        #expect(p.terminationStatus == 128 + signal, "\(s.read("change.log") ?? "")")
        #expect(s.read("app/tack.yml") == manifest)
        #expect(s.read("app/tack.lock") == lock)
        // Still trusted as it was: the old file's trust came back with it.
        let exec = try await s.tack(["exec", "--", "hello"], in: "app")
        #expect(exec.stdout == "hello 1.0.0\n", "\(exec.stderr)")
        #expect(!exec.stderr.contains("not trusted"), "\(exec.stderr)")
    }

    /// `tack lock` interrupted while it downloads another platform's artifact.
    @Test func anInterruptedLockLeavesTheLockAsItWas() async throws {
        let s = try Sandbox()
        try s.write("www/slow-1.0.0.sh", "#!/bin/sh\necho slow\n")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", "tools:\n  slow: { url: \"\(server.url("files/slow-{version}.sh"))\", version: \"1.0.0\", bin: [slow] }\n")
        #expect(try await s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        // Another platform's download crawls.
        try s.write("app/tack.yml", "platforms: [linux-x86_64, darwin-arm64]\ntools:\n  slow: { url: \"\(server.url("crawl/60/slow-{version}.sh"))\", version: \"1.0.0\", bin: [slow] }\n")
        let before = try #require(s.read("app/tack.yml"))
        let p = try s.spawn(["lock"], in: "app", log: s.root + "/lock.log")
        try await timed {
            usleep(2_000_000)
            kill(p.processIdentifier, SIGINT)
            p.waitUntilDone()
        }
        #expect(p.terminationStatus == 130, "\(s.read("lock.log") ?? "")")
        #expect(s.read("app/tack.lock") == lock)
        #expect(s.read("app/tack.yml") == before)
    }

    /// What a killed tack left (SIGKILL: no cleanup at all) is named by doctor and removed by
    /// prune; a running tack's own files are never touched.
    @Test func pruneRemovesWhatAKilledInstallLeft() async throws {
        let s = try Sandbox()
        let repo = try slowBuild(s)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let p = try s.spawn(["install"], in: "app", log: s.root + "/install.log")
        let started = try await timed {
            let started = poll(20) { s.exists("grandchild.pid") }
            kill(-p.processIdentifier, SIGKILL)
            p.waitUntilDone()
            return started
        }
        #expect(started)
        if let pid = s.read("session.pid").flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { kill(pid, SIGKILL) }
        let temp = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")) ?? []
        #expect(temp.contains { $0.hasPrefix(".tmp-1.0.0-") }, "\(temp)")
        try s.mkdir("tack-home/cache/downloads")
        try s.write("tack-home/cache/downloads/.partial-999999-abc", "half")
        // A download of a tack that still runs (this test process) stays.
        try s.write("tack-home/cache/downloads/.partial-\(getpid())-abc", "mine")

        let doctor = try await s.tack(["doctor"], in: "app")
        #expect(doctor.stdout.contains("3 unfinished installs or downloads were left by a tack that is gone"), "\(doctor.stdout)")  // with the version it built in place
        let dry = try await s.tack(["prune", "--dry-run"], in: "app")
        #expect(dry.stdout.contains("would remove") && dry.stdout.contains(".partial-999999-abc"), "\(dry.stdout)")
        #expect(s.exists("tack-home/cache/downloads/.partial-999999-abc"))
        let prune = try await s.tack(["prune"], in: "app")
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(!s.exists("tack-home/cache/downloads/.partial-999999-abc"))
        #expect(s.exists("tack-home/cache/downloads/.partial-\(getpid())-abc"))
        let after = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")) ?? []
        #expect(!after.contains { $0.hasPrefix(".tmp-") }, "\(after)")
        // The version it was building in place, with no record, goes too.
        #expect(!after.contains("1.0.0"), "\(after)")
    }
}
