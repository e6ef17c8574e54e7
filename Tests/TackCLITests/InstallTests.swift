import Foundation
import TackCore
import Testing

/// `tack lock`, `install`, `update`, `outdated`, `ls`, `ls-remote`, `uninstall` and `prune`
/// with the git backend, against repositories made in the test.
@Suite(.ownThreads) struct InstallTests {
    func project(_ s: Sandbox, _ entries: [String: String]) throws {
        try s.writeTrusted("app/tack.yml", "tools:\n" + entries.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined())
    }

    func lockedVersion(_ s: Sandbox, _ tool: String) -> String? {
        guard let lock = s.read("app/tack.lock") else { return nil }
        let lines = lock.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "  \(tool):") else { return nil }
        for line in lines[(start + 1)...] {
            if !line.hasPrefix("    ") { break }
            if line.hasPrefix("    version: ") { return String(line.dropFirst(13).dropFirst().dropLast()) }
        }
        return nil
    }

    @Test func everyRequirementFormResolvesToTheRightTag() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0", "1.1.5", "1.2.0-rc1", "v2.0.0", "2.1.0", "not-a-version"])
        let cases = ["exact": "1.1.0", "prefix": "1.1", "pessimistic": "~> 1.0", "caret": "^1.1", "range": ">= 1.0, < 2", "latest": "latest", "pre": "1.2.0-rc1", "vtag": "2.0"]
        let expected = ["exact": "1.1.0", "prefix": "1.1.5", "pessimistic": "1.1.5", "caret": "1.1.5", "range": "1.1.5", "latest": "2.1.0", "pre": "1.2.0-rc1", "vtag": "2.0.0"]
        try project(s, cases.mapValues { repo.entry($0) })
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        for (tool, version) in expected { #expect(lockedVersion(s, tool) == version, "\(tool)") }
        let lock = try #require(s.read("app/tack.lock"))
        #expect(lock.contains("    tag: \"v2.0.0\"\n"))
        #expect(lock.contains("    commit: \"\(try repo.commit(of: "1.1.5"))\"\n"))
        // Locking again changes nothing, byte for byte.
        #expect(try s.tack(["lock"], in: "app").status == 0)
        #expect(s.read("app/tack.lock") == lock)
        // ls-remote lists every version tag, oldest first.
        let remote = try s.tack(["ls-remote", "exact"], in: "app")
        #expect(remote.stdout == "1.0.0\n1.1.0\n1.1.5\n1.2.0-rc1\n2.0.0\n2.1.0\n")
    }

    @Test func installRunsAndIsANoOpTheSecondTime() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        try project(s, ["hello": repo.entry("~> 1.0")])
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("locked hello 1.1.0"))
        #expect(r.stderr.contains("hello 1.1.0: installed"))
        let hello = s.root + "/tack-home/installs/hello/1.1.0/bin/hello"
        #expect(try runProgram(hello) == "hello 1.1.0\n")
        let again = try s.tack(["install"], in: "app")
        #expect(again.status == 0 && again.stdout == "" && again.stderr == "")
        let ls = try s.tack(["ls", "--json"], in: "app")
        // Where it came from: built here, and how long that took (issue 33 item 5).
        #expect(ls.stdout.hasPrefix(#"[{"tool":"hello","version":"1.1.0","path":"\#(s.root)/tack-home/installs/hello/1.1.0","from":"built","build_seconds":"#), "\(ls.stdout)")
        #expect(ls.stdout.contains(/"build_seconds":[0-9]+(\.[0-9])?}/), "a number, not a string: \(ls.stdout)")
        let current = try s.tack(["current", "hello"], in: "app")
        #expect(current.stdout == "1.1.0 (set by \(s.root)/app/tack.yml:2)\n")
    }

    @Test func movedTagIsRefused() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, ["hello": repo.entry("1.0.0")])
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let old = try repo.commit(of: "1.0.0")
        try repo.moveTag("1.0.0")
        let new = try repo.commit(of: "1.0.0")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.failures.map(\.cause) == [.install(.tagMoved(tool: "hello 1.0.0", tag: "1.0.0", repository: repo.path, now: new, locked: old))], "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/hello/1.0.0"))
        #expect(try s.tack(["ls", "--json"], in: "app").stdout == "[]\n")
        // update re-resolves to the new commit and installs it.
        let u = try s.tack(["update", "hello"], in: "app")
        #expect(u.status == 0, "\(u.stderr)")
        #expect(s.read("app/tack.lock")?.contains(new) == true)
    }

    @Test func frozenListsEveryDifferenceAndLeavesTheLockAlone() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        let other = try GitFixture.tool(in: s, name: "other-repo", tags: ["1.0.0"])
        try project(s, ["a": repo.entry("1.0.0"), "b": repo.entry("1.0.0"), "c": repo.entry("1.0.0")])
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let lock = try #require(s.read("app/tack.lock"))
        // Added d, removed c, changed a's requirement, changed b's source.
        try project(s, ["a": repo.entry("1.1"), "b": other.entry("1.0.0"), "d": repo.entry("1.0.0")])
        for (args, env) in [(["install", "--frozen"], [String: String]()), (["install"], ["TACK_FROZEN": "1"])] {
            s.environment.merge(env) { $1 }
            let r = try s.tack(args, in: "app")
            s.environment["TACK_FROZEN"] = nil
            #expect(r.status == 1)
            let refusal = FrozenRefusal.lockDiffers(lock: s.root + "/app/tack.lock", differences: [
                .disagrees(tool: "a", .requirement(pinned: "1.1", locked: "1.0.0"), setBy: s.root + "/app/tack.yml:2"),
                .disagrees(tool: "b", .source(pinned: "git \(other.path)", locked: "git \(repo.path)"), setBy: s.root + "/app/tack.yml:3"),
                .unlocked(tool: "d", requirement: "1.0.0", setBy: s.root + "/app/tack.yml:4"),
                .unpinned(tool: "c"),
            ])
            #expect(r.failures.map(\.cause) == [.frozen(refusal)], "\(r.stderr)")
            // Said once, and nothing else.
            #expect(r.stderr == "tack: \(refusal.message)\n", "\(r.stderr)")
            #expect(s.read("app/tack.lock") == lock)
            #expect(!s.exists("tack-home/installs"))
        }
    }

    @Test func outdatedUpdateUninstallAndPrune() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, ["hello": repo.entry("~> 1.0")])
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["outdated"], in: "app").stdout == "everything is up to date\n")
        try repo.commitAndTag("1.1.0")
        try repo.commitAndTag("2.0.0")
        let outdated = try s.tack(["outdated", "--json"], in: "app")
        #expect(outdated.stdout == #"[{"tool":"hello","current":"1.0.0","wanted":"1.1.0","latest":"2.0.0"}]"# + "\n")
        let u = try s.tack(["update"], in: "app")
        #expect(u.status == 0)
        #expect(u.stderr.contains("updated hello 1.0.0 → 1.1.0"))
        #expect(lockedVersion(s, "hello") == "1.1.0")
        // 1.0.0 is still installed; no project pins it any more.
        let dry = try s.tack(["prune", "--dry-run"], in: "app")
        #expect(dry.stdout == "would remove hello 1.0.0\n")
        #expect(s.exists("tack-home/installs/hello/1.0.0"))
        #expect(try s.tack(["prune"], in: "app").stdout == "removed hello 1.0.0\n")
        #expect(!s.exists("tack-home/installs/hello/1.0.0"))
        #expect(s.exists("tack-home/installs/hello/1.1.0"))
        let un = try s.tack(["uninstall", "hello@1.1.0"], in: "app")
        #expect(un.status == 0)
        #expect(!s.exists("tack-home/installs/hello"))
        let missing = try s.tack(["uninstall", "hello@1.1.0"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stderr == "tack: hello 1.1.0 is not installed — `tack ls` lists what is\n")
        let bad = try s.tack(["uninstall", "../x@1"], in: "app")
        #expect(bad.status == 2)
    }

    @Test func oneFailingToolDoesNotStopTheOthers() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, ["good": repo.entry("1.0.0"), "nosuch": repo.entry("9.9"), "broken": "{ git: \"\(repo.path)\", version: 1.0.0, build: \"exit 3\", bin: [x] }"])
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.failures.map(\.cause).contains(.resolution(.noVersion(
            tool: "nosuch", requirement: "9.9", setBy: s.root + "/app/tack.yml:4", source: repo.path, hint: .newest("1.0.0")))), "\(r.stderr)")
        #expect(r.stderr.contains("tack: the build command of broken 1.0.0 failed (exit 3):"))
        // Every tool that fails has its line and is counted, the one that did not resolve too.
        #expect(r.stderr.contains("nosuch: failed (not resolved)"), "\(r.stderr)")
        #expect(r.stderr.contains("1 installed (1 built here in ") && r.stderr.contains("s), 2 failed"), "\(r.stderr)")
        #expect(s.exists("tack-home/installs/good/1.0.0/bin/hello"))
        #expect(!s.exists("tack-home/installs/broken"))
        #expect(try s.tack(["ls", "--json"], in: "app").stdout.contains("\"broken\"") == false)
    }

    @Test func offlineUsesOnlyWhatIsInstalled() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try project(s, ["hello": repo.entry("1.0.0")])
        let r = try s.tack(["install"], in: "app", env: ["TACK_OFFLINE": "1"])
        #expect(r.status == 1)
        let offline = ResolutionFailure.offline(tool: "hello", requirement: "1.0.0", setBy: s.root + "/app/tack.yml:2", needs: .install)
        #expect(r.failures.map(\.cause) == [.resolution(offline)], "\(r.stderr)")
        #expect(r.stderr == "tack: \(offline.message)\nhello: failed (not resolved)\n0 installed, 1 failed\n", "\(r.stderr)")
        #expect(!s.exists("app/tack.lock"))
        #expect(try s.tack(["install"], in: "app").status == 0)
        try FileManager.default.removeItem(atPath: s.root + "/app/tack.lock")
        let again = try s.tack(["install"], in: "app", env: ["TACK_OFFLINE": "1"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(lockedVersion(s, "hello") == "1.0.0")
    }

    @Test func useAddsAndChangesPinsAndRollsBackOnFailure() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "1.1.0"])
        try s.writeTrusted("app/tack.yml", "# our tools\ntools:\n  hello: \(repo.entry("1.0.0"))   # keep\nenv:\n  A: b\n")
        let r = try s.tack(["use", "hello@1.1.0"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.yml") == "# our tools\ntools:\n  hello: \(repo.entry("1.1.0"))   # keep\nenv:\n  A: b\n")
        #expect(lockedVersion(s, "hello") == "1.1.0")
        let added = try s.tack(["use", "hi@~> 1.0", "--git", repo.path], in: "app")
        #expect(added.status == 1)  // no build: for a non-Swift repository
        #expect(s.read("app/tack.yml") == "# our tools\ntools:\n  hello: \(repo.entry("1.1.0"))   # keep\nenv:\n  A: b\n")
        #expect(added.stderr.hasSuffix("\(s.root)/app/tack.yml and its tack.lock were left as they were\n"))
        let lock = s.read("app/tack.lock")
        let missing = try s.tack(["use", "hello@3.0"], in: "app")
        #expect(missing.status == 1)
        #expect(s.read("app/tack.yml")?.contains("version: \"1.1.0\"") == true)
        #expect(s.read("app/tack.lock") == lock)
    }

}

@Suite(.ownThreads) struct ToolchainChangeTests {
    @Test func doctorNamesStaleBuildsAndRebuildRedoesThem() throws {
        let s = try Sandbox()
        let log = s.root + "/builds.log"
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"], log: log)
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["doctor"], in: "app", env: s.healthy).status == 0)
        // Pretend it was built by an older toolchain.
        let metadata = "tack-home/installs/hello/1.0.0/.tack-install.lock"
        let text = try #require(s.read(metadata))
        #expect(text.contains("    built:\n"), "the record says where the install came from")
        try s.write(metadata, text.replacingOccurrences(of: "    built:\n", with: "    built:\n      swift: \"Swift version 5.10 (swift-5.10-RELEASE)\"\n"))
        let doctor = try s.tack(["doctor"], in: "app")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("problem  hello 1.0.0 was built with Swift version 5.10 (swift-5.10-RELEASE), but the toolchain is now Swift version "))
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(s.read("builds.log") == "built\n", "a plain install does not rebuild")
        let r = try s.tack(["install", "--rebuild"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("builds.log") == "built\nbuilt\n")
        #expect(try s.tack(["doctor"], in: "app", env: s.healthy).status == 0)
    }
}

@Suite(.ownThreads) struct RefAndPathPinTests {
    @Test func refPinsLockACommitAndUpdateMovesIt() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        let main1 = try repo.commit(of: "main")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { git: \"\(repo.path)\", ref: main, build: sh build.sh, bin: [out/hello] }\n  tagged: { git: \"\(repo.path)\", ref: \"1.0.0\", build: sh build.sh, bin: [out/hello] }\n  bysha: { git: \"\(repo.path)\", ref: \"\(main1)\", build: sh build.sh, bin: [out/hello] }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let v1 = "0.0.0-ref." + main1.prefix(12)
        let lock = try #require(s.read("app/tack.lock"))
        #expect(lock.contains("    commit: \"\(main1)\"\n"))
        #expect(lock.contains("    ref: \"main\"\n"))
        #expect(lock.contains("    version: \"\(v1)\"\n"))
        #expect(try s.tack(["current", "hello"], in: "app").stdout == "\(v1) (set by \(s.root)/app/tack.yml:2)\n")
        #expect(try runProgram(s.root + "/tack-home/installs/hello/\(v1)/bin/hello") == "hello 1.0.0\n")
        // The branch moves on: install keeps the locked commit; update follows the branch.
        try repo.commitAndTag("1.1.0")
        let main2 = try repo.commit(of: "main")
        #expect(try s.tack(["uninstall", "hello@\(v1)"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try runProgram(s.root + "/tack-home/installs/hello/\(v1)/bin/hello") == "hello 1.0.0\n")
        let u = try s.tack(["update", "hello"], in: "app")
        #expect(u.status == 0, "\(u.stderr)")
        let v2 = "0.0.0-ref." + main2.prefix(12)
        #expect(u.stderr.contains("updated hello \(v1) → \(v2)"))
        #expect(try runProgram(s.root + "/tack-home/installs/hello/\(v2)/bin/hello") == "hello 1.1.0\n")
        let missing = try s.tack(["use", "hello@ref:nosuchbranch"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(repo.path) has no branch or tag `nosuchbranch`"))
    }

    @Test func pathPinsAreHonouredButNeverInstalled() throws {
        let s = try Sandbox()
        try s.mkdir("src/mytool/bin")
        try s.write("app/tack.yml", "tools:\n  mytool: { path: \(s.root)/src/mytool }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.lock")?.contains("mytool") != true)
        #expect(try s.tack(["current", "mytool"], in: "app").stdout == "path:\(s.root)/src/mytool (set by \(s.root)/app/tack.yml:2)\n")
        #expect(try s.tack(["ls", "--json"], in: "app").stdout == "[]\n")
    }
}

@Suite(.ownThreads) struct EmptyProjectTests {
    @Test func installWithNothingPinnedSaysSo() throws {
        let s = try Sandbox()
        try s.mkdir("empty")
        let r = try s.tack(["install"], in: "empty")
        #expect(r.status == 0)
        #expect(r.stderr == "no tools are pinned for \(s.root)/empty — add one with `tack use TOOL@VERSION`\n")
        #expect(!s.exists("empty/tack.lock"))
    }
}
