import Foundation
import Testing

/// A day of real use (issue 30): names, registries and trust by one rule everywhere, and lines
/// that say only what happened. Each test is one item of the issue, end to end.
@Suite(.ownThreads) struct DayOfUseTests {
    /// A user registry naming `hello` (a git tool with a build, the user's own choice, so no
    /// trust is needed) and `plain` (a bare url tool); returns the git fixture.
    func registry(_ s: Sandbox) throws -> GitFixture {
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.write("www/plain-1.0.0.sh", "#!/bin/sh\necho plain 1.0.0\n")
        try s.write("tack-home/registries/mine/registry.yml", """
            hello: { git: "\(repo.path)", build: sh build.sh, bin: [out/hello] }
            plain: { url: "file://\(s.root)/www/plain-{version}.sh", bin: [plain] }

            """)
        return repo
    }

    // MARK: 7, 8. the user's registries everywhere; tool@version writes no file

    @Test func tool_atVersionUsesTheUsersRegistriesAndWritesNoProjectFile() throws {
        let s = try Sandbox()
        _ = try registry(s)
        try s.mkdir("nowhere")
        let outside = try s.tack(["install", "hello@1.0.0"], in: "nowhere")
        #expect(outside.status == 0, "\(outside.stderr)")
        #expect(s.exists("tack-home/installs/hello/1.0.0"))
        // Beside a .tool-versions that pins something else: nothing is pinned or locked.
        try s.write("compat/.tool-versions", "other 2.0.0\n")
        let compat = try s.tack(["install", "plain@1.0.0"], in: "compat")
        #expect(compat.status == 0, "\(compat.stderr)")
        #expect(!s.exists("compat/tack.lock") && !s.exists("compat/tack.yml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root + "/compat") == [".tool-versions"])
        // It says what it saw, not that a lock recorded it.
        #expect(!compat.stderr.contains("in tack.lock"), "\(compat.stderr)")
        #expect(compat.stderr.contains("plain 1.0.0: the checksum of its \(platformKey) download is "), "\(compat.stderr)")
        #expect(compat.stderr.contains("(no tack.lock records it)"), "\(compat.stderr)")
        // `tack use` without a version: the newest the user's registry knows.
        try s.write("app/tack.yml", "tools: {}\n")
        let use = try s.tack(["use", "hello"], in: "app")
        #expect(use.status == 0, "\(use.stderr)")
        #expect((s.read("app/tack.yml") ?? "").contains("hello: 1.0.0"), "\(s.read("app/tack.yml") ?? "")")
    }

    // MARK: 9. trust covers a .tool-versions path: pin

    @Test func trustCoversAToolVersionsPathPin() throws {
        let s = try Sandbox()
        try s.write("app/dev/bin/devtool", "#!/bin/sh\necho dev checkout\n")
        chmod(s.root + "/app/dev/bin/devtool", 0o755)
        try s.write("app/.tool-versions", "devtool path:./dev\n")
        let before = try s.tack(["exec", "--", "devtool"], in: "app")
        #expect(before.status == 127)
        #expect(before.stderr.contains("\(s.root)/app/.tool-versions is not trusted"), "\(before.stderr)")
        let trust = try s.tack(["trust"], in: "app")
        #expect(trust.status == 0, "\(trust.stderr)")
        #expect(trust.stderr.contains("trusted: \(s.root)/app/.tool-versions"), "\(trust.stderr)")
        let after = try s.tack(["exec", "--", "devtool"], in: "app")
        #expect(after.stdout == "dev checkout\n", "\(after.stderr)")
    }

    // MARK: 10. said once; push names trust; a dry run shows its plan

    @Test func theUntrustedLineIsSaidOncePerVersionOfTheFile() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools: {}\nenv:\n  GREETING: hi\n")
        let warning = "\(s.root)/app/tack.yml is not trusted"
        #expect(try s.tack(["exec", "--", "true"], in: "app").stderr.contains(warning))
        #expect(!(try s.tack(["exec", "--", "true"], in: "app").stderr.contains(warning)), "said once")
        try s.write("app/tack.yml", "tools: {}\nenv:\n  GREETING: hello\n")
        #expect(try s.tack(["exec", "--", "true"], in: "app").stderr.contains(warning), "a changed file is said again")
    }

    @Test func cachePushInAnUntrustedProjectNamesTrust() throws {
        let s = try Sandbox()
        _ = try registry(s)
        try s.write("app/tack.yml", "tools:\n  hello: 1.0.0\nenv:\n  X: \"1\"\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        let push = try s.tack(["cache", "push"], in: "app", env: ["TACK_CACHE": "oci://127.0.0.1:9/team"])
        #expect(push.status == 1)
        #expect(push.failures.map(\.cause) == [.trust(.pushedBuilds(file: s.root + "/app/tack.yml"))], "\(push.stderr)")
    }

    @Test func aDryRunBootstrapShowsItsPlanBeforeTrust() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools: {}\nbootstrap:\n  run: [\"echo hi > ran.txt\"]\n")
        let dry = try s.tack(["bootstrap", "--dry-run"], in: "app")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("tack bootstrap will:") && dry.stderr.contains("echo hi > ran.txt"), "\(dry.stderr)")
        #expect(dry.stderr.contains("note: \(s.root)/app/tack.yml has `bootstrap.run` commands and is not trusted"), "\(dry.stderr)")
        #expect(!s.exists("app/ran.txt"))
        let real = try s.tack(["bootstrap", "--yes"], in: "app")
        #expect(real.status == 1)
        #expect(!s.exists("app/ran.txt"))
    }

    // MARK: 12. a Mintfile's tool is named as Mint names it

    @Test func aMintfileToolIsNamedAsMintNamesIt() throws {
        let s = try Sandbox()
        try s.write("app/Mintfile", "mac-cain13/R.swift@7.0.0\nrealm/SwiftLint@0.54.0\n")
        let current = try s.tack(["current", "--json"], in: "app")
        #expect(current.status == 0, "\(current.stderr)")
        #expect(current.stdout.contains("\"tool\":\"r.swift\"") && current.stdout.contains("\"tool\":\"swiftlint\""), "\(current.stdout)")
    }

    // MARK: 15. update says only what changed, and keeps what the lock learned

    @Test func anUpdateThatChangesNothingSaysNothingAndKeepsTheChecksum() throws {
        let s = try Sandbox()
        try s.write("www/plain-1.0.0.sh", "#!/bin/sh\necho plain\n")
        try s.write("app/tack.yml", "tools:\n  plain: { url: \"file://\(s.root)/www/plain-{version}.sh\", version: \"1.0.0\", bin: [plain] }\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stderr.contains("plain 1.0.0: recorded the checksum of its \(platformKey) download in tack.lock: "), "\(install.stderr)")
        let lock = try #require(s.read("app/tack.lock"))
        #expect(lock.contains("sha256:"))
        let update = try s.tack(["update"], in: "app")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(!update.stderr.contains("relocked"), "\(update.stderr)")
        #expect(s.read("app/tack.lock") == lock, "the checksum learned at install stays")
    }

    // MARK: 11. a version word where nothing can be listed is that version

    @Test func aToolVersionsWordIsExactWhereNoIndexCanBeListed() throws {
        let s = try Sandbox()
        _ = try registry(s)
        try s.write("www/plain-3.0.sh", "#!/bin/sh\necho plain 3.0\n")
        try s.write("app/.tool-versions", "plain 3.0\n")
        let r = try s.tack(["exec", "--", "plain"], in: "app")
        #expect(r.stdout == "plain 3.0\n", "\(r.stderr)")
    }

    // MARK: 13. every failure is counted; a compatible file's pin can be opted out of

    @Test func aToolThatCannotBeResolvedIsCountedWithTheOthers() throws {
        let s = try Sandbox()
        _ = try registry(s)
        try s.write("www/plain-1.0.0.sh", "#!/bin/sh\necho plain\n")
        // An asdf plugin that is not there: resolving it fails, the other tool installs.
        try s.write("tack-home/registries/mine/registry.yml", "plain: { url: \"file://\(s.root)/www/plain-{version}.sh\", bin: [plain] }\nrubyish: { asdf: \"\(s.root)/no-such-plugin\" }\n")
        try s.write("app/.tool-versions", "plain 1.0.0\nrubyish 3.3.0\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("rubyish: failed (not resolved)"), "\(r.stderr)")
        #expect(r.stderr.contains("1 installed (1 prebuilt), 1 failed"), "\(r.stderr)")
        // Opting out: `rubyish: system` in tack.yml beats the version file beside it.
        try s.write("app/tack.yml", "tools:\n  rubyish: system\n")
        let again = try s.tack(["install"], in: "app")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try s.tack(["current", "rubyish"], in: "app").stdout.hasPrefix("system"), "pinned to the system's")
    }

    // MARK: 14. a piped build is never silent; -v streams what children say

    @Test func aPipedBuildSaysItsProgressAndVerboseStreamsTheBuild() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: [])
        try s.write("hello-repo/build.sh", "echo compiling step one\nsleep 3\necho linking step two\nmkdir -p out && printf '#!/bin/sh\\necho hello\\n' > out/hello && chmod +x out/hello\n")
        try repo.git("add", "build.sh")
        try repo.commitAndTag("1.0.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let r = try s.tack(["install", "-v"], in: "app", env: ["TACK_PROGRESS_INTERVAL": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let still = r.stderr.split(separator: "\n").filter { $0.hasPrefix("hello 1.0.0: still building, ") && $0.hasSuffix(" so far") }
        #expect(still.count >= 2, "\(r.stderr)")
        #expect(r.stderr.contains("  sh| compiling step one") && r.stderr.contains("  sh| linking step two"), "\(r.stderr)")
        #expect(r.stderr.contains("tack: fetching \(repo.path) for hello 1.0.0"), "\(r.stderr)")
    }

    // MARK: 6. doctor names what makes two installs of one version different builds

    @Test func doctorNamesTheFieldThatDiffers() throws {
        let s = try Sandbox()
        let original = try GitFixture.tool(in: s, tags: ["1.0.0"])
        let fork = try GitFixture.tool(in: s, name: "fork-repo", tags: ["1.0.0"])
        try s.writeTrusted("a/tack.yml", "tools:\n  hello: \(original.entry("1.0.0"))\n")
        try s.writeTrusted("b/tack.yml", "tools:\n  hello: \(fork.entry("1.0.0"))\n")
        // b's fork is what is installed; a has locked the original but not installed it yet.
        #expect(try s.tack(["install"], in: "b").status == 0)
        #expect(try s.tack(["lock"], in: "a").status == 0)
        let doctor = try s.tack(["doctor"], in: "a")
        #expect(doctor.stdout.contains("locks \(original.path) (commit \(try original.commit(of: "1.0.0").prefix(12))) with bin: out/hello, build: sh build.sh: they differ in source — run `tack install`"), "\(doctor.stdout)")
    }

    // MARK: 19. GITHUB_TOKEN for GitHub's rate limit, and only for GitHub

    @Test func aGitHubTokenGoesToGitHubOnlyAndAnExhaustedLimitSaysSo() throws {
        let s = try Sandbox()
        let api = try FixtureServer(["github", "s3cret-token", s.root + "/requests.log"])
        let sink = try FixtureServer(["sink", "127.0.0.2", s.root + "/requests.log"])
        let base = "http://127.0.0.1:\(api.port)"
        try s.write("tack-home/registries/mine/registry.yml", """
            gh: { url: "http://127.0.0.2:\(sink.port)/gh-{version}", bin: [gh], versions: { url: "\(base)/repos/o/gh/releases", regex: '"tag_name": "([^"]+)"' } }

            """)
        try s.mkdir("app")
        let env = ["TACK_GITHUB_API": base]
        let anonymous = try s.tack(["ls-remote", "gh"], in: "app", env: env)
        #expect(anonymous.status == 1)
        #expect(anonymous.stderr.contains("GitHub's rate limit for requests without a token (60 an hour from this address) is used up — set GITHUB_TOKEN (or GH_TOKEN)"), "\(anonymous.stderr)")
        let withToken = try s.tack(["ls-remote", "gh"], in: "app", env: env.merging(["GITHUB_TOKEN": "s3cret-token"]) { $1 })
        #expect(withToken.status == 0, "\(withToken.stderr)")
        #expect(withToken.stdout.contains("1.2.0"), "\(withToken.stdout)")
        #expect(!withToken.stderr.contains("s3cret"))
        // GH_TOKEN too; the download from another host gets no token.
        _ = try s.tack(["install", "gh@1.2.0", "-v"], in: "app", env: env.merging(["GH_TOKEN": "s3cret-token"]) { $1 })
        let log = s.read("requests.log") ?? ""
        #expect(log.contains("github GET /repos/o/gh/releases auth=yes"), "\(log)")
        #expect(log.contains("sink GET /gh-1.2.0 auth=no"), "\(log)")
        #expect(!log.contains("sink GET /gh-1.2.0 auth=yes"), "\(log)")
    }

    // MARK: 17. exec resolves only the tool that provides its command

    @Test func execResolvesOnlyWhatProvidesTheCommand() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        // `other` comes from a repository that is not there: listing its versions would fail.
        try s.writeTrusted("app/tack.yml", """
            tools:
              hello: \(repo.entry("1.0.0"))
              other: { git: "\(s.root)/no-such-repo", version: "~> 1.0", build: sh build.sh, bin: [out/other] }

            """)
        let r = try s.tack(["exec", "--", "hello"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "hello 1.0.0\n")
        #expect(!r.stderr.contains("no-such-repo"), "\(r.stderr)")
        #expect((s.read("app/tack.lock") ?? "").contains("hello:") && !(s.read("app/tack.lock") ?? "").contains("other:"))
    }

    // MARK: 16, 18. ls says what runs and what is missing; completion knows tools; help is the command's

    @Test func lsMarksWhatRunsHereAndCompletionOffersToolNames() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try repo.commitAndTag("1.1.0")
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.writeTrusted("new/tack.yml", "tools:\n  hello: \(repo.entry("1.1.0"))\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        #expect(try s.tack(["install"], in: "new").status == 0)
        let ls = try s.tack(["ls"], in: "app")
        let lines = ls.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("*  hello  1.0.0  ") }, "\(ls.stdout)")
        #expect(lines.contains { $0.hasPrefix("   hello  1.1.0  ") }, "\(ls.stdout)")
        let nosuch = try s.tack(["ls", "nosuch"], in: "app")
        #expect(nosuch.status == 1)
        #expect(nosuch.stderr.hasPrefix("tack: nosuch is not installed — "), "\(nosuch.stderr)")
        // Completion: the tools pinned here and installed, for an argument that takes a tool.
        let complete = try s.tack(["---completion", "where", "--", "positional@0", "2", "1", "tack", "where", "h"], in: "app")
        #expect(complete.stdout.split(separator: "\n").contains("hello"), "\(complete.stdout)\(complete.stderr)")
        // A subcommand's help offers no --version of its own; tack --version still answers.
        for command in ["ls", "install", "where"] {
            #expect(!(try s.tack([command, "--help"], in: "app").stdout.contains("--version")), "\(command)")
        }
        #expect(try s.tack(["--version"], in: "app").stdout.hasPrefix("tack "))
    }
}
