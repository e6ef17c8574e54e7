import Foundation
import Testing

/// Installs are transactional across processes: concurrent installs produce one install, and
/// a killed install never leaves anything that looks installed.
@Suite(.ownThreads, .serialized) struct ConcurrencyTests {
    @Test func eightConcurrentInstallsProduceOneInstall() throws {
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], sleep: 1, log: log)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let processes = try (0..<8).map { i in try s.spawn(["install"], in: "app", log: s.root + "/out-\(i).log") }
        for p in processes { p.waitUntilDone() }
        for (i, p) in processes.enumerated() {
            #expect(p.terminationStatus == 0, "process \(i): \(s.read("out-\(i).log") ?? "")")
        }
        #expect(s.read("builds.log") == "built\n", "exactly one build")
        let outputs = (0..<8).map { s.read("out-\($0).log") ?? "" }
        #expect(outputs.filter { $0.contains("hello 1.0.0: installed") }.count == 1)
        let ls = try s.tack(["ls", "--json"], in: "app").stdout
        #expect(ls.hasPrefix(#"[{"tool":"hello","version":"1.0.0","path":"\#(s.root)/tack-home/installs/hello/1.0.0","from":"built","build_seconds":"#) && ls.contains(/"build_seconds":[0-9]+(\.[0-9])?}]\n$/), "\(ls)")
    }

    @Test func killedInstallsLeaveNothingThatLooksInstalled() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], sleep: 0.4)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        // Kill at every point from just started (front end, exec, resolving, cloning) to building.
        var killed = 0
        for delay in [0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3, 0.45] {
            let p = try s.spawn(["install"], in: "app", log: s.root + "/killed.log")
            Thread.sleep(forTimeInterval: delay)
            kill(-p.processIdentifier, SIGKILL)  // the whole process group: tack and its build
            p.waitUntilDone()
            if p.terminationReason == .exit {
                // Finished before the kill: start over from nothing.
                #expect(p.terminationStatus == 0, "\(s.read("killed.log") ?? "")")
                let un = try s.tack(["uninstall", "hello@1.0.0"], in: "app")
                #expect(un.status == 0, "delay \(delay): \(un.stderr) after \(s.read("killed.log") ?? "")")
                continue
            }
            killed += 1
            // Killed: either nothing is listed, or (killed after the rename) a complete install.
            let ls = try s.tack(["ls", "--json"], in: "app")
            if ls.stdout == "[]\n" {
                #expect(try s.tack(["current", "--json"], in: "app").stdout.contains("\"installed\":false"))
            } else {
                #expect(try runProgram(s.root + "/tack-home/installs/hello/1.0.0/bin/hello") == "hello 1.0.0\n", "after a kill at \(delay)s")
                #expect(try s.tack(["uninstall", "hello@1.0.0"], in: "app").status == 0)
            }
        }
        #expect(killed >= 5, "most attempts were killed mid-way")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try s.tack(["current", "--json"], in: "app").stdout.contains("\"installed\":true"))
        // Nothing of the killed attempts is left beside the install.
        let entries = try FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello")
        #expect(entries == ["1.0.0"])
    }
}
