import Foundation
import Testing

/// Other managers' version files through the built binary (issue 14): each numbered
/// behaviour once, end to end.
@Suite(.ownThreads) struct CompatibleFilesEndToEndTests {
    /// 1. A compatible file tack cannot read pins nothing, warns once (naming the file and
    /// line), and never stops another tool from resolving; `tack doctor` lists it every time.
    @Test func aBadFilePinsNothingAndWarnsOnce() throws {
        let s = try Sandbox()
        let source = try s.plainJQ()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.write("app/.nvmrc", "^20\n")
        try s.fakeInstall("jq", "1.7.1", backend: "url", source: source)
        let first = try s.tack(["current", "jq"], in: "app")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("1.7.1 (set by"))
        #expect(first.stderr == "tack: warning: \(s.root)/app/.nvmrc:1:1: \"^20\" is a semver range, which nvm does not understand; write a version like `20` or an alias like `lts/*` — .nvmrc pins nothing until it is fixed\n")
        // Not again: not at the next prompt, not from another command.
        let hook = try s.tack(["hook-env", "bash"], in: "app")
        #expect(hook.status == 0)
        #expect(!hook.stderr.contains(".nvmrc"), "\(hook.stderr)")
        #expect(!(try s.tack(["current"], in: "app").stderr.contains(".nvmrc")))
        // tack doctor says so every time.
        let doctor = try s.tack(["doctor"], in: "app")
        #expect(doctor.stdout.contains(".nvmrc:1:1: \"^20\" is a semver range") || doctor.stderr.contains(".nvmrc:1:1: \"^20\" is a semver range"), "\(doctor.stdout)\(doctor.stderr)")
        // A new version of the file warns again.
        try s.write("app/.nvmrc", "20\nnpm=1\nnpm=2\n")
        let again = try s.tack(["current", "jq"], in: "app")
        #expect(again.status == 0)
        #expect(again.stderr.contains(".nvmrc:3:1: `npm` is set twice (first on line 2)"), "\(again.stderr)")

        // An empty .ruby-version in a parent directory: everything below still resolves.
        try s.write(".ruby-version", "")
        try s.write("app/.nvmrc", "20\n")
        let below = try s.tack(["current"], in: "app")
        #expect(below.status == 0, "\(below.stderr)")
        #expect(below.stderr.isEmpty, "an empty file is not an error: \(below.stderr)")
        #expect(below.stdout.contains("jq ") && below.stdout.contains("node "))
        #expect(!below.stdout.contains("ruby"))
    }

    /// 2 and 3. CRLF files, and files of comments only.
    @Test func crlfAndCommentOnlyFiles() throws {
        let s = try Sandbox()
        try s.write("app/.ruby-version", "1.9.3\r\n1.8.7\r\n")
        try s.write("app/.tool-versions", "ruby 2.0.0\r\nnodejs 19.6.0\r\n")
        try s.write("app/.python-version", "# comment\r\n3.3.5\r\n")
        try s.write("app/sub/.python-version", "   # full line comment\n")
        let r = try s.tack(["current", "--json"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.contains(#""tool":"ruby","requested":"2.0.0""#), "\(r.stdout)")
        #expect(r.stdout.contains(#""tool":"node","requested":"19.6.0""#))
        #expect(r.stdout.contains(#""tool":"python","requested":"3.3.5""#))
        // .tool-versions beats .ruby-version in one directory; alone, .ruby-version's first line.
        try FileManager.default.removeItem(atPath: s.root + "/app/.tool-versions")
        #expect(try s.tack(["current", "ruby", "--json"], in: "app").stdout.contains(#""requested":"1.9.3""#))
        // A file of comments pins nothing and says nothing: python falls through to app's.
        let sub = try s.tack(["current", "python"], in: "app/sub")
        #expect(sub.stderr.isEmpty, "\(sub.stderr)")
        #expect(sub.stdout.hasPrefix("3.3.5 (set by"))
    }

    /// 4, 5 and 6. Several versions (the first installed, else the first), duplicate lines
    /// (the first wins), and version words that are not numbers.
    @Test func severalVersionsDuplicatesAndOpaqueWords() throws {
        let s = try Sandbox()
        try s.write("app/.tool-versions", "dummy 1.0 3.0 2.0.0\nruby 3.3.0\nruby 3.2.0\njava temurin-17.0.2+8\n")
        try s.fakeInstall("dummy", "3.0", backend: "url", source: "https://example.org/dummy", requested: "3.0")
        try s.fakeInstall("java", "temurin-17.0.2+8", backend: "url", source: "https://example.org/java")
        let r = try s.tack(["current", "--json"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""tool":"dummy","requested":"3.0","version":"3.0""#), "\(r.stdout)")
        #expect(r.stdout.contains(#""tool":"ruby","requested":"3.3.0""#))
        #expect(r.stdout.contains(#""tool":"java","requested":"temurin-17.0.2+8","version":"temurin-17.0.2+8""#))
        // Nothing installed: the first.
        try s.write("app/.tool-versions", "dummy 1.0 9.0\n")
        #expect(try s.tack(["current", "dummy", "--json"], in: "app").stdout.contains(#""requested":"1.0""#))
        // The variables take lists too, and strip the file's prefix.
        try s.fakeInstall("python", "3.5.1", backend: "url", source: "https://example.org/python")
        let py = try s.tack(["current", "python", "--json"], in: "app", env: ["TACK_PYTHON_VERSION": "python-1.2:3.5.1"])
        #expect(py.stdout.contains(#""requested":"3.5.1""#), "\(py.stdout)\(py.stderr)")
        let lua = try s.tack(["current", "lua", "--json"], in: "app", env: ["TACK_LUA_VERSION": "5.4.5 5.4.6"])
        #expect(lua.stdout.contains(#""requested":"5.4.5""#), "\(lua.stdout)\(lua.stderr)")
        // Unsafe words are still refused: the line is not a pin, and nothing is created.
        try s.write("app/.ruby-version", "-rf\n")
        try FileManager.default.removeItem(atPath: s.root + "/app/.tool-versions")
        let bad = try s.tack(["current", "ruby"], in: "app")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains(".ruby-version:1:1: expected a version of ruby, found \"-rf\""), "\(bad.stderr)")
    }

    /// 7. ~/.tool-versions is the asdf user's global default, below tack's global manifest.
    @Test func homeToolVersions() throws {
        let s = try Sandbox()
        try s.write("home/.tool-versions", "ruby 3.3.0\nnodejs 20.11.1\n")
        try s.write("home/.config/tack/tack.yml", "tools:\n  ruby: 3.2.2\n")
        try s.mkdir("elsewhere")
        let r = try s.tack(["current"], in: "elsewhere")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("node  20.11.1  (set by ~/.tool-versions:2)"), "\(r.stdout)")
        #expect(r.stdout.contains("ruby  3.2.2    (set by ~/.config/tack/tack.yml:2)"), "\(r.stdout)")
        // Inside HOME it is still the global default: a project's pins beat it.
        try s.write("home/app/.tool-versions", "nodejs 18.19.0\n")
        #expect(try s.tack(["current", "node"], in: "home/app").stdout.hasPrefix("18.19.0 (set by ~/app/.tool-versions:1)"))
    }

    /// 8. .nvmrc aliases resolve through node's release index (served here), with the
    /// built-in registry's own pattern, and lock like any requirement.
    @Test func nvmrcAliasesResolveThroughTheReleaseIndex() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        let releases: [(String, String?)] = [("22.1.0", nil), ("20.11.1", "Iron"), ("20.9.0", "Iron"), ("20.8.0", nil), ("18.19.0", "Hydrogen")]
        var index = "["
        for (i, (v, lts)) in releases.enumerated() {
            try FixtureServer.archive("tar.gz", s.root + "/www/node-v\(v).tar.gz", version: v)
            index += (i > 0 ? ",\n" : "") + #"{"version":"v\#(v)","date":"2024-01-01","files":["linux-x64","osx-arm64-tar"],"npm":"10.2.4","lts":\#(lts.map { "\"\($0)\"" } ?? "false"),"security":false}"#
        }
        try s.write("www/index.json", index + "]\n")
        let server = try FixtureServer(serving: s.root + "/www")
        // The built-in registry's node pattern, pointed at this server.
        let registry = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/TackCore/Resources/registry.yml").path, encoding: .utf8)
        let nodeEntry = try #require(registry.components(separatedBy: "\nnode:\n").dropFirst().first)
        let regexLine = try #require(nodeEntry.split(separator: "\n").first { $0.contains("regex:") })
        try s.write("tack-home/registries/local/registry.yml", """
            node:
              url: "\(server.url("files/node-v{version}.tar.gz"))"
              bin: "shellcheck-v{version}/shellcheck=node"
              versions:
                url: "\(server.url("files/index.json"))"
            \(regexLine)

            """)
        for (alias, expected) in [("lts/*", "20.11.1"), ("lts/hydrogen", "18.19.0"), ("node", "22.1.0"), ("stable", "22.1.0")] {
            try s.write("app/.nvmrc", alias + "\n")
            let lock = try s.tack(["lock"], in: "app")
            #expect(lock.status == 0, "\(alias): \(lock.stderr)")
            let text = s.read("app/tack.lock") ?? ""
            #expect(text.contains("version: \"\(expected)\"") || text.contains("version: \(expected)"), "\(alias): \(text)")
        }
        try s.write("app/.nvmrc", "lts/iron # the team's line\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let current = try s.tack(["current", "node"], in: "app")
        #expect(current.status == 0)
        #expect(current.stdout.hasPrefix("20.11.1 (set by"), "\(current.stdout)")
        #expect(s.read("app/tack.lock")?.contains("requested: \"lts/iron\"") == true, "\(s.read("app/tack.lock") ?? "")")
        #expect(try runProgram(s.root + "/tack-home/installs/node/20.11.1/bin/node") == "shellcheck 20.11.1\n")
        // io.js: a clear "not supported", and node is not pinned.
        try s.write("app/.nvmrc", "iojs\n")
        let iojs = try s.tack(["current", "node"], in: "app")
        #expect(iojs.status == 1)
        #expect(iojs.stderr.contains("io.js releases are not supported"), "\(iojs.stderr)")
    }

    /// 9. `tack current TOOL` exits 1 when the pinned version is not installed or not
    /// resolved yet; the message stays.
    @Test func currentOfAToolNotInstalledExitsOne() throws {
        let s = try Sandbox()
        let source = try s.plainJQ()
        try s.write("app/.tool-versions", "jq 1.7.1\nruby 3.3\npython system\n")
        let missing = try s.tack(["current", "jq"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stdout.hasPrefix("1.7.1 (set by"))
        #expect(missing.stdout.contains("not installed; run `tack install`"))
        #expect(try s.tack(["current", "jq", "--json"], in: "app").status == 1)
        let unresolved = try s.tack(["current", "ruby"], in: "app")
        #expect(unresolved.status == 1)
        #expect(unresolved.stdout.contains("not resolved yet"))
        #expect(try s.tack(["current", "python"], in: "app").status == 0, "system is not checked")
        #expect(try s.tack(["current"], in: "app").status == 0, "the listing of all is not a check")
        try s.fakeInstall("jq", "1.7.1", backend: "url", source: source)
        // Twice: the second answer comes from the snapshot.
        #expect(try s.tack(["current", "jq"], in: "app").status == 0)
        #expect(try s.tack(["current", "jq"], in: "app").status == 0)
    }

    /// 10. A Mintfile in Mint's whole grammar.
    @Test func mintfileGrammar() throws {
        let s = try Sandbox()
        try s.write("app/Mintfile", """
            # Swift tools
            yonaskolb/Mint @ 0.9.1
            github.com/realm/SwiftLint@0.54.0
            mycustomdomain.com/package@0.0.1
            https://github.com/nicklockwood/SwiftFormat.git@0.53.0
            ssh://git@server.com/user/project.git
            git@github.com:apple/swift-format.git@develop
            yonaskolb/XcodeGen@fgvb45g # a commit

            """)
        let r = try s.tack(["current", "--json"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        for fragment in [#""tool":"mint","requested":"0.9.1""#, #""tool":"swiftlint","requested":"0.54.0""#,
                         #""tool":"package","requested":"0.0.1""#, #""tool":"swiftformat","requested":"0.53.0""#,
                         #""tool":"project","requested":"latest""#, #""tool":"swift-format","requested":"ref:develop""#,
                         #""tool":"xcodegen","requested":"ref:fgvb45g""#] {
            #expect(r.stdout.contains(fragment), "\(fragment) in \(r.stdout)")
        }
        // Two repositories of one name: an error naming both lines, and the file pins nothing.
        try s.write("app/Mintfile", "yonaskolb/SimplePackage@4.0.0\nacecilia/SimplePackage@6.0.0\n")
        let clash = try s.tack(["current", "simplepackage"], in: "app")
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("Mintfile:2:1: acecilia/SimplePackage and yonaskolb/SimplePackage (line 1) are both named `simplepackage`"), "\(clash.stderr)")
    }

    /// 11. `tack outdated` for a `ref:` pin: the locked commit, and the commit `tack update`
    /// would move to.
    @Test func outdatedForARefPin() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: { git: \"\(repo.path)\", ref: main, build: sh build.sh, bin: [out/hello] }\n")
        #expect(try s.tack(["lock"], in: "app").status == 0)
        let locked = String(try repo.commit(of: "main").prefix(12))
        #expect(try s.tack(["outdated"], in: "app").stdout == "everything is up to date\n")
        try repo.commitAndTag("1.1.0")
        let moved = String(try repo.commit(of: "main").prefix(12))
        let r = try s.tack(["outdated", "--json"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"[{"tool":"hello","current":"\#(locked)","wanted":"\#(moved)","latest":"1.1.0"}]"# + "\n")
        #expect(try s.tack(["update"], in: "app").status == 0)
        #expect(try s.tack(["outdated"], in: "app").stdout == "everything is up to date\n")
    }
}
