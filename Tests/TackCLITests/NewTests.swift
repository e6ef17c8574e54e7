import Foundation
import Testing

/// `tack new`: names, directories, variables, templates from directories and git (the app
/// template built, tested and run: `NewAppTemplateTests`).
@Suite(.ownThreads) struct NewTests {
    func sandbox(author: Bool = true) throws -> Sandbox {
        let s = try Sandbox()
        if author { try s.write("home/.gitconfig", "[user]\n\tname = Test Author\n\temail = test@example.org\n") }
        try s.mkdir("work")
        return s
    }

    /// Nothing but `expected` in the work directory: no project, no leftovers.
    func onlyHas(_ s: Sandbox, _ expected: [String] = []) throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: s.root + "/work").sorted() == expected.sorted()
    }

    @Test(arguments: ["1app", "my-app", "my app", "class", "Swift", "a/b", "../evil",
                      // A standard module, or a module the app template makes itself: the
                      // package would not build.
                      "Testing", "XCTest", "Dispatch", "Foundation", "Synchronization", "Layout", "Store", "CommandBus", "layout",
                      "Benchmarks"])
    func badNamesAreRefused(_ name: String) throws {
        let s = try sandbox()
        let r = try s.tack(["new", name], in: "work")
        // Each one a command line tack cannot carry out: a usage error, whichever check finds it.
        #expect(r.status == 2, "\(name): \(r.stderr)")
        #expect(r.stderr.contains(name.contains("/") ? "not a valid" : "\(name)"), "\(r.stderr)")
        #expect(try onlyHas(s))
    }

    @Test func anExistingDirectoryIsRefusedUnlessEmpty() throws {
        let s = try sandbox()
        try s.write("work/Taken/keep.txt", "mine\n")
        let r = try s.tack(["new", "Taken", "--no-git"], in: "work")
        #expect(r.status != 0 && r.stderr.contains("already exists and is not empty"), "\(r.stderr)")
        #expect(try String(contentsOfFile: s.root + "/work/Taken/keep.txt", encoding: .utf8) == "mine\n")
        #expect(try onlyHas(s, ["Taken"]))
        try s.mkdir("work/Empty")
        let ok = try s.tack(["new", "Empty", "--no-git"], in: "work")
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.root + "/work/Empty/Package.swift"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/work/Empty/.git"))
    }

    /// A template of its own: a required variable, a conditional file, and a file name rendered.
    func writeTemplate(_ s: Sandbox, at dir: String, greeting: String = "hello", body: String? = nil) throws {
        try s.write("\(dir)/template.yml", """
            description: a test template
            variables:
              name: { description: the name }
              org: { description: the organisation }
              extra: { description: add EXTRA.md, default: "false" }
            conditional:
              EXTRA.md: extra

            """)
        try s.write("\(dir)/{{name}}.txt", body ?? "\(greeting) {{name}} from {{org}}{{#extra}} with extra{{/extra}}\n")
        try s.write("\(dir)/EXTRA.md", "extra\n")
    }

    @Test func variablesFromTemplateYmlMissingUnknownAndConditional() throws {
        let s = try sandbox()
        try writeTemplate(s, at: "tpl")
        let missing = try s.tack(["new", "Widget", "--template", "../tpl"], in: "work")
        #expect(missing.status != 0 && missing.stderr.contains("`org` (the organisation)") && missing.stderr.contains("--var"), "\(missing.stderr)")
        #expect(try onlyHas(s))
        let unknown = try s.tack(["new", "Widget", "--template", "../tpl", "--var", "org=acme", "--var", "colour=red"], in: "work")
        #expect(unknown.status != 0 && unknown.stderr.contains("no variable `colour`"), "\(unknown.stderr)")
        #expect(try onlyHas(s))

        let plain = try s.tack(["new", "Widget", "--template", "../tpl", "--var", "org=acme", "--no-git"], in: "work")
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try String(contentsOfFile: s.root + "/work/Widget/Widget.txt", encoding: .utf8) == "hello Widget from acme\n")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/work/Widget/EXTRA.md"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/work/Widget/template.yml"))
        let extra = try s.tack(["new", "Gadget", "--template", "../tpl", "--var", "org=a&b <c>", "--var", "extra=true", "--no-git"], in: "work")
        #expect(extra.status == 0, "\(extra.stderr)")
        // Not HTML-escaped.
        #expect(try String(contentsOfFile: s.root + "/work/Gadget/Gadget.txt", encoding: .utf8) == "hello Gadget from a&b <c> with extra\n")
        #expect(FileManager.default.fileExists(atPath: s.root + "/work/Gadget/EXTRA.md"))
    }

    @Test func aTemplateFromALocalGitRepositoryAtATag() throws {
        let s = try sandbox()
        let repo = GitFixture(path: s.root + "/tpl", environment: [
            "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": s.root + "/home", "PATH": "/usr/bin:/bin",
        ])
        try writeTemplate(s, at: "tpl", greeting: "version one")
        try repo.git("init", "-q", "-b", "main")
        try repo.git("add", ".")
        try repo.git("commit", "-q", "-m", "one")
        try repo.git("tag", "v1")
        try writeTemplate(s, at: "tpl", greeting: "version two")
        try repo.git("commit", "-qam", "two")

        let r = try s.tack(["new", "Tagged", "--template", "file://\(s.root)/tpl@v1", "--var", "org=acme"], in: "work")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: s.root + "/work/Tagged/Tagged.txt", encoding: .utf8) == "version one Tagged from acme\n")
        let head = try s.tack(["new", "Head", "--template", "file://\(s.root)/tpl", "--var", "org=acme", "--no-git"], in: "work")
        #expect(head.status == 0, "\(head.stderr)")
        #expect(try String(contentsOfFile: s.root + "/work/Head/Head.txt", encoding: .utf8) == "version two Head from acme\n")
        let badRef = try s.tack(["new", "Nope", "--template", "file://\(s.root)/tpl@v9", "--var", "org=acme"], in: "work")
        #expect(badRef.status != 0 && badRef.stderr.contains("v9"), "\(badRef.stderr)")
        #expect(try onlyHas(s, ["Head", "Tagged"]))
        // The first commit, by the author git's configuration names.
        let log = try GitFixture(path: s.root + "/work/Tagged", environment: repo.environment).git("log", "--format=%an <%ae>|%s")
        #expect(log.hasPrefix("Test Author <test@example.org>|Initial commit: Tagged") && log.split(separator: "\n").count == 1, "\(log)")
    }

    /// CI machines have no git configuration, only git's environment variables.
    @Test func theFirstCommitTakesGitsAuthorAndCommitterFromTheEnvironment() throws {
        let s = try sandbox(author: false)
        let env = ["GIT_AUTHOR_NAME": "Ci Author", "GIT_AUTHOR_EMAIL": "author@ci.example", "GIT_COMMITTER_NAME": "Ci Bot",
                   "GIT_COMMITTER_EMAIL": "bot@ci.example", "GIT_CONFIG_NOSYSTEM": "1"]
        let r = try s.tack(["new", "Envy", "--var", "demo=false"], in: "work", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let log = try s.run("/usr/bin/git", ["-C", s.root + "/work/Envy", "log", "--format=%an <%ae>|%cn <%ce>"]).stdout
        #expect(log == "Ci Author <author@ci.example>|Ci Bot <bot@ci.example>\n", "\(log)")
    }

    @Test func failuresHalfWayLeaveNothing() throws {
        let s = try sandbox()
        // A render that fails (an unclosed section) after other files rendered.
        try writeTemplate(s, at: "tpl", body: "{{#org}} never closed\n")
        try s.write("tpl/a-first.txt", "fine {{name}}\n")
        let broken = try s.tack(["new", "Broken", "--template", "../tpl", "--var", "org=x"], in: "work")
        #expect(broken.status != 0 && broken.stderr.contains("{{name}}.txt") && broken.stderr.contains("cannot render"), "\(broken.stderr)")
        #expect(try onlyHas(s))
        // No git author: the commit fails, and what was written goes.
        let noAuthor = try sandbox(author: false)
        let r = try noAuthor.tack(["new", "Lonely"], in: "work")
        #expect(r.status != 0 && r.stderr.contains("git config --global user.name") && r.stderr.contains("--no-git"), "\(r.stderr)")
        #expect(try onlyHas(noAuthor))
        // No such template.
        let none = try s.tack(["new", "X", "--template", "nonesuch"], in: "work")
        #expect(none.status != 0 && none.stderr.contains("no template named \"nonesuch\"") && none.stderr.contains("app"), "\(none.stderr)")
    }

    @Test func withoutTheDemo() throws {
        let s = try sandbox()
        let r = try s.tack(["new", "Bare", "--var", "demo=false", "--no-git"], in: "work")
        #expect(r.status == 0, "\(r.stderr)")
        let package = try String(contentsOfFile: s.root + "/work/Bare/Package.swift", encoding: .utf8)
        // No demo executable (the Benchmarks one stays).
        #expect(!package.contains("executableTarget(name: \"Bare\"") && !package.contains(".executable(name: \"Bare\"") && package.contains("\"BareFeature\"") && package.contains("\"Benchmarks\""), "\(package)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/work/Bare/Sources/Bare"))
        #expect(FileManager.default.fileExists(atPath: s.root + "/work/Bare/Sources/BareFeature/ItemsFeature.swift"))
    }

    @Test func booleanVariablesTheListDryRunAndHelp() throws {
        let s = try sandbox()
        // Before: demo=maybe made a package whose manifest named a missing target.
        let maybe = try s.tack(["new", "Maybe", "--var", "demo=maybe"], in: "work")
        #expect(maybe.status != 0 && maybe.stderr.contains("`demo` is true or false, not \"maybe\""), "\(maybe.stderr)")
        #expect(try onlyHas(s))

        let list = try s.tack(["new", "--list"], in: "work")
        #expect(list.status == 0 && list.stdout.hasPrefix("app — ") && list.stdout.contains("--var demo=true|false"), "\(list.stdout)")
        let help = try s.tack(["new", "--help"], in: "work")
        #expect(help.status == 0 && help.stdout.contains("TEMPLATE app") && help.stdout.contains("--var demo=true|false"), "\(help.stdout)")
        try writeTemplate(s, at: "tpl")
        let own = try s.tack(["new", "--template", "../tpl", "--help"], in: "work")
        #expect(own.stdout.contains("TEMPLATE ../tpl: a test template") && own.stdout.contains("--var org=VALUE"), "\(own.stdout)")
        let named = try s.tack(["new", "../tpl", "--help"], in: "work")
        #expect(named.stdout.contains("TEMPLATE ../tpl: a test template"), "\(named.stdout)")

        let dry = try s.tack(["new", "Dry", "--dry-run"], in: "work")
        #expect(dry.status == 0 && dry.stdout.contains("Would make") && dry.stdout.contains("  Sources/Dry/main.swift\n"), "\(dry.stdout)")
        let bare = try s.tack(["new", "Dry", "--dry-run", "--var", "demo=false"], in: "work")
        #expect(bare.status == 0 && !bare.stdout.contains("Sources/Dry/main.swift") && bare.stdout.contains("Sources/DryFeature/"), "\(bare.stdout)")
        #expect(try onlyHas(s))
    }

    @Test func aMissingTemplateRepositoryIsNamed() throws {
        let s = try sandbox()
        // Before: "has no tag or branch v1", for a repository that is not there at all.
        let missing = try s.tack(["new", "X", "--template", "../missing.git@v1"], in: "work")
        #expect(missing.status != 0 && missing.stderr.contains("there is no template repository at \(s.root)/missing.git"), "\(missing.stderr)")
        let unreachable = try s.tack(["new", "X", "--template", "http://127.0.0.1:9/templates.git@v1"], in: "work")
        #expect(unreachable.status != 0 && unreachable.stderr.contains("cannot reach the repository"), "\(unreachable.stderr)")
        #expect(!unreachable.stderr.contains("no tag or branch"), "\(unreachable.stderr)")
        #expect(try onlyHas(s))
    }

    /// Before: Ctrl-C left the hidden staging directory behind.
    @Test func ctrlCRemovesTheStagingDirectory() throws {
        let s = try sandbox()
        // A server that accepts and never answers: tack new waits in the template's fetch.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: FixtureServer.python)
        server.arguments = ["-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
            print(s.getsockname()[1], flush=True)
            conns = []
            while True:
                c, _ = s.accept(); conns.append(c)
            """]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        // SIGKILL: a child of the test process may start with SIGTERM blocked.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilDone() }
        var port = ""
        while !port.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            port += String(decoding: byte, as: UTF8.self)
        }
        let p = try s.spawn(["new", "Hang", "--template", "http://127.0.0.1:\(port.trimmingCharacters(in: .whitespacesAndNewlines))/t.git@v1"],
                            in: "work", log: s.root + "/new.log")
        var staged = false
        for _ in 0..<200 where !staged {
            usleep(20_000)
            staged = ((try? FileManager.default.contentsOfDirectory(atPath: s.root + "/work")) ?? []).contains { $0.hasPrefix(".tack-new-Hang-") }
        }
        #expect(staged, "tack new never made its staging directory")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilDone()
        #expect(p.terminationStatus == 130, "\(s.read("new.log") ?? "")")
        #expect(try onlyHas(s), "left behind: \((try? FileManager.default.contentsOfDirectory(atPath: s.root + "/work")) ?? [])")
    }
}
