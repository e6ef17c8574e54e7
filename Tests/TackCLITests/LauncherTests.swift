import Backends
import Foundation
import Testing
import TackCore
import TackFront
import TackLean

/// `tack` answers from the snapshot alone (shims, `exec`, `which`, the prompt hook): shown by
/// running a copy of it with no `tack-front` beside it, which must still do all of these once a
/// snapshot exists, and must say clearly what is missing for everything else.
@Suite(.ownThreads) struct LauncherTests {
    @Test func snapshotAnswersWithoutTheFrontEnd() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        try s.mkdir("app/a/b")
        #expect(try s.tack(["install"], in: "app").status == 0)
        // The full tack writes the snapshot for app/a/b.
        let which = try s.tack(["which", "hello"], in: "app/a/b")
        #expect(which.status == 0)
        let installed = which.stdout
        #expect(installed.hasSuffix("/installs/hello/1.0.0/bin/hello\n"), "\(installed)")

        // What the full tack prints, to compare with what the lone `tack` prints below.
        let currentForms = [["current"], ["current", "--json"], ["current", "hello"], ["current", "--json", "hello"], ["current", "hello", "--json"]]
        var expected: [[String]: String] = [:]
        for args in currentForms {
            let r = try s.tack(args, in: "app/a/b")
            #expect(r.status == 0 && !r.stdout.isEmpty && r.stderr == "", "\(args): \(r)")
            expected[args] = r.stdout
        }
        #expect(expected[["current", "hello"]]?.hasPrefix("1.0.0 (set by ") == true)
        #expect(expected[["current", "--json"]]?.hasPrefix("[{") == true)

        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try copyExecutable(try Sandbox.binary(), to: lonely + "/tack")
        try FileManager.default.createSymbolicLink(atPath: lonely + "/hello", withDestinationPath: lonely + "/tack")
        let tack = lonely + "/tack"

        let w = try s.run(tack, ["which", "hello"], in: "app/a/b")
        #expect(w.status == 0 && w.stdout == installed && w.stderr == "", "\(w)")
        let e = try s.run(tack, ["exec", "--", "hello", "there"], in: "app/a/b")
        #expect(e.status == 0 && e.stdout == "hello 1.0.0\n" && e.stderr == "", "\(e)")
        let shim = try s.run(lonely + "/hello", ["x"], in: "app/a/b")
        #expect(shim.status == 0 && shim.stdout == "hello 1.0.0\n", "\(shim)")

        let notFound = try s.run(tack, ["exec", "no-such-command"], in: "app/a/b")
        #expect(notFound.status == 127 && notFound.stderr == "tack: no-such-command: command not found\n", "\(notFound)")

        for args in currentForms {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 0 && r.stdout == expected[args] && r.stderr == "", "\(args): \(r)")
        }
        for args in [["install"], ["install", "--frozen"]] {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 0 && r.stdout == "" && r.stderr == "", "\(args): \(r)")
        }

        // Not answerable from a snapshot: handed to tack-front, which is not there.
        let missing = "tack: tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh\n"
        let notAnswered = [
            ["current", "nothing"], ["current", "--json", "--json"], ["current", "hello", "hello"], ["current", "-v"],
            // A tool name with a space would find the stored answer for other arguments.
            ["current", "hello --json"],
            ["which", "nothing-of-the-kind"], ["exec", "hello@1.0.0", "--", "hello"], ["install", "--offline"], ["--version"], ["ls"],
        ]
        for args in notAnswered {
            let r = try s.run(tack, args, in: "app/a/b")
            #expect(r.status == 127 && r.stdout == "" && r.stderr == missing, "\(args): \(r)")
        }
        // An edit makes the snapshot stale: install then has work to do, which the lone tack cannot.
        try s.write("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n  other: { path: ../other }\n")
        let stale = try s.run(tack, ["install"], in: "app/a/b")
        #expect(stale.status == 127 && stale.stderr == missing, "\(stale)")
        // A directory with no snapshot yet: the lone tack resolves there itself and answers.
        let elsewhere = try s.run(tack, ["which", "hello"], in: "app")
        #expect(elsewhere.status == 0 && elsewhere.stdout == installed && elsewhere.stderr == "", "\(elsewhere)")
        // What a resolution has to say is the front end's: an error, or a file it leaves out.
        try s.write("broken/tack.yml", "tools: [\n")
        let broken = try s.run(tack, ["current"], in: "broken")
        #expect(broken.status == 127 && broken.stderr == missing, "\(broken)")
        try s.write("ignoring/.tool-versions", "nodejs\n")
        let ignoring = try s.run(tack, ["current"], in: "ignoring")
        #expect(ignoring.status == 127 && ignoring.stderr == missing, "\(ignoring)")
    }

    /// `tack` resolves hostile files itself now (TackCore built in Embedded Swift, with its own
    /// few stand-ins for what that lacks): manifests, locks and version files made from the
    /// fuzzer's seeds (Fuzz/seeds) by a fixed series of mutations never make it trap; each is
    /// answered, or handed on (here, to no front end).
    @Test func hostileFilesNeverTrapTheLoneTack() throws {
        let s = try Sandbox()
        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try copyExecutable(try Sandbox.binary(), to: lonely + "/tack")
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/seeds").standardizedFileURL.path
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds).sorted()
        let inserts: [[UInt8]] = ["{", "[", "]", ":", "\n", "\n- ", "&a ", "*a", "!!str ", "\"", "'", "#", "\t", "\u{0}", "é", "\u{301}", "..", "/", "@", "~> ", "-1", "99999999999999999999"].map { Array($0.utf8) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        var ran = 0
        for name in names {
            let seed = Array(try Data(contentsOf: URL(fileURLWithPath: seeds + "/" + name)))
            guard let selector = seed.first, [1, 2, 4].contains(Int(selector % 8)) else { continue }
            for round in 0..<12 {
                var payload = Array(seed.dropFirst())
                // The first mutant is the seed itself; each later one, a few edits more.
                for _ in 0..<round {
                    guard !payload.isEmpty else { payload = inserts[next(inserts.count)]; continue }
                    let at = next(payload.count)
                    switch next(4) {
                    case 0: payload.insert(contentsOf: inserts[next(inserts.count)], at: at)
                    case 1: payload.removeSubrange(at..<min(payload.count, at + 1 + next(8)))
                    case 2: payload.insert(contentsOf: payload[at..<min(payload.count, at + 1 + next(16))], at: at)
                    default: payload[at] ^= UInt8(1 << next(8))
                    }
                }
                let dir = "h\(ran)"
                try s.mkdir(dir)
                switch Int(selector % 8) {
                case 1:
                    try Data(payload).write(to: URL(fileURLWithPath: s.root + "/\(dir)/tack.yml"))
                case 2:
                    try s.write("\(dir)/tack.yml", "tools:\n  jq: 1.7.1\n")
                    try Data(payload).write(to: URL(fileURLWithPath: s.root + "/\(dir)/tack.lock"))
                default:
                    let file = CompatibleFile.allCases[Int(payload.first ?? 0) % CompatibleFile.allCases.count]
                    let path = s.root + "/\(dir)/\(file.rawValue)"
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try Data(payload.dropFirst()).write(to: URL(fileURLWithPath: path))
                }
                for args in [["current"], ["hook-env", "bash"]] {
                    let r = try s.tackProcess(args, in: dir, program: lonely + "/tack")
                    #expect(r.status < 128 && !r.stderr.contains("Fatal error"), "\(name) round \(round) \(args): \(r.status) \(r.stderr.prefix(300))")
                }
                ran += 1
            }
        }
        #expect(ran >= 60, "\(ran)")
    }

    /// After an edit, `tack` resolves in its own process (TackCore built into it) and writes
    /// the snapshot `tack-front` would write, byte for byte, so either one's is the other's.
    @Test func tackWritesTheSnapshotTheFrontEndWrites() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\nenv:\n  GREETING: hi\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let tack = try Sandbox.binary()
        let front = (tack as NSString).deletingLastPathComponent + "/tack-front"
        let snapshots = s.root + "/tack-home/state/snapshots"
        func written(by program: String) throws -> Data {
            try? FileManager.default.removeItem(atPath: snapshots)
            let r = try s.run(program, ["current", "hello"], in: "app")
            #expect(r.status == 0 && r.stdout.hasPrefix("1.0.0 (set by ") && r.stderr == "", "\(program): \(r)")
            let names = try FileManager.default.contentsOfDirectory(atPath: snapshots)
            try #require(names.count == 1, "\(names)")
            return try Data(contentsOf: URL(fileURLWithPath: snapshots + "/" + names[0]))
        }
        // Times far enough in the past that neither snapshot is too new to save.
        let yml = s.root + "/app/tack.yml"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: yml)
        Thread.sleep(forTimeInterval: 0.02)
        let ours = try written(by: tack)
        let theirs = try written(by: front)
        #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self))\n---\n\(String(decoding: theirs, as: UTF8.self))")
        #expect(String(decoding: ours, as: UTF8.self).contains("setenv\tGREETING\thi"))
    }

    /// After a `cd`, the prompt hook finds a snapshot that holds but is not the one the shell
    /// has applied: the lone `tack` prints the commands that apply it, byte for byte what
    /// `tack-front` prints (entering and leaving, bash and fish), and hands anything it cannot
    /// say alone (a manifest not trusted, an error the shell was told of) to the front end.
    @Test func theHookAppliesAHeldSnapshotWithoutTheFrontEnd() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\nenv:\n  GREETING: \"it's a 'quote' \\\\ and % and :\"\n  FOO: new\n")
        try s.mkdir("app/a/b")
        try s.mkdir("elsewhere")
        try s.write("untrusted/tack.yml", "env:\n  FOO: x\n")
        #expect(try s.tack(["install"], in: "app").status == 0)
        let front = (try Sandbox.binary() as NSString).deletingLastPathComponent + "/tack-front"
        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try copyExecutable(try Sandbox.binary(), to: lonely + "/tack")
        let tack = lonely + "/tack"
        let missing = "tack: tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh\n"

        /// What the shell has after `script` (its `export`/`set -gx` and `unset`/`set -e` lines).
        func applying(_ script: String, to env: [String: String]) -> [String: String] {
            var out = env
            for line in script.split(separator: "\n").map(String.init) {
                if line.hasPrefix("export "), let eq = line.firstIndex(of: "=") {
                    let name = String(line[line.index(line.startIndex, offsetBy: 7)..<eq])
                    let quoted = String(line[line.index(after: eq)...])
                    out[name] = String(quoted.dropFirst().dropLast()).replacingOccurrences(of: "'\\''", with: "'")
                } else if line.hasPrefix("unset ") {
                    out[String(line.dropFirst(6))] = nil
                }
            }
            return out
        }

        let shellEnv = ["PATH": "/usr/bin:/bin", "FOO": "old", "__TACK_HOOK": "", "__TACK_DIFF": "", "__TACK_ERROR": ""]
        func without(_ env: [String: String], _ names: String...) -> [String: String] {
            env.filter { !names.contains($0.key) }
        }
        let entering = without(shellEnv, "__TACK_HOOK", "__TACK_DIFF", "__TACK_ERROR")
        // The front end writes the snapshots; after that the lone tack must print the same.
        for dir in ["app/a/b", "elsewhere"] { _ = try s.run(front, ["hook-env", "bash"], in: dir, env: entering) }
        for shell in ["bash", "fish", "zsh"] {
            let expected = try s.run(front, ["hook-env", shell], in: "app/a/b", env: entering)
            #expect(expected.status == 0 && expected.stdout.contains("GREETING") && expected.stdout.contains("/installs/hello/1.0.0/bin"), "\(expected)")
            let lone = try s.run(tack, ["hook-env", shell], in: "app/a/b", env: entering)
            #expect(lone.status == 0 && lone.stdout == expected.stdout && lone.stderr == expected.stderr, "\(shell): \(lone)")
        }
        // Inside: nothing to do. Leaving: what the hook set is taken back out, FOO restored.
        let inside = applying(try s.run(tack, ["hook-env", "bash"], in: "app/a/b", env: entering).stdout, to: entering)
        #expect(inside["FOO"] == "new" && inside["GREETING"] == "it's a 'quote' \\ and % and :" && inside["PATH"]?.hasSuffix(":/usr/bin:/bin") == true, "\(inside)")
        let still = try s.run(tack, ["hook-env", "bash"], in: "app/a/b", env: inside)
        #expect(still.status == 0 && still.stdout == "" && still.stderr == "", "\(still)")
        let leavingExpected = try s.run(front, ["hook-env", "bash"], in: "elsewhere", env: inside)
        let leaving = try s.run(tack, ["hook-env", "bash"], in: "elsewhere", env: inside)
        #expect(leaving.status == 0 && leaving.stdout == leavingExpected.stdout, "\(leaving) vs \(leavingExpected)")
        let left = applying(leaving.stdout, to: inside)
        #expect(left["FOO"] == "old" && left["GREETING"] == nil && left["PATH"] == "/usr/bin:/bin" && left["__TACK_HOOK"] == nil && left["__TACK_DIFF"] == nil, "\(left)")

        // What only the front end says: an error the shell was told of, set even empty.
        let told = try s.run(tack, ["hook-env", "bash"], in: "app/a/b", env: without(shellEnv, "__TACK_HOOK", "__TACK_DIFF"))
        #expect(told.status == 127 && told.stderr == missing, "\(told)")
        // A manifest not trusted here: warned about by the front end.
        _ = try s.run(front, ["hook-env", "bash"], in: "untrusted", env: entering)
        let warned = try s.run(tack, ["hook-env", "bash"], in: "untrusted", env: entering)
        #expect(warned.status == 127 && warned.stderr == missing, "\(warned)")
    }

    /// The relay leaves a snapshot behind: after `tack install` and `tack use` the very next
    /// shim is answered by `tack` alone, and a touch of tack.yml that changes no byte keeps it.
    @Test func theFirstShimAfterAChangeTakesTheHotPath() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0", "2.0.0"])
        try s.writeTrusted("app/tack.yml", "tools:\n  hello: \(repo.entry("1.0.0"))\n")
        let lonely = s.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try copyExecutable(try Sandbox.binary(), to: lonely + "/tack")
        try FileManager.default.createSymbolicLink(atPath: lonely + "/hello", withDestinationPath: lonely + "/tack")
        let missing = "tack: tack-front is missing (beside tack, or in ../libexec/tack) — reinstall tack with ./bootstrap.sh\n"

        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install)")
        let first = try s.run(lonely + "/hello", [], in: "app")
        #expect(first.status == 0 && first.stdout == "hello 1.0.0\n" && first.stderr == "", "\(first)")

        let use = try s.tack(["use", "hello@2.0.0"], in: "app")
        #expect(use.status == 0, "\(use)")
        let afterUse = try s.run(lonely + "/hello", [], in: "app")
        #expect(afterUse.status == 0 && afterUse.stdout == "hello 2.0.0\n" && afterUse.stderr == "", "\(afterUse)")

        // The same bytes with new times: still the hot path.
        let yml = s.root + "/app/tack.yml"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: yml)
        let touched = try s.run(lonely + "/hello", [], in: "app")
        #expect(touched.status == 0 && touched.stdout == "hello 2.0.0\n" && touched.stderr == "", "\(touched)")
        // Other bytes: stale, so the lone tack resolves again itself and runs the tool.
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        try (text + "# edited\n").write(toFile: yml, atomically: false, encoding: .utf8)
        let edited = try s.run(lonely + "/hello", [], in: "app")
        #expect(edited.status == 0 && edited.stdout == "hello 2.0.0\n" && edited.stderr == "", "\(edited)")
        // A pin of a version not installed: there is something to say, which is the front end's.
        try text.replacingOccurrences(of: "2.0.0", with: "3.0.0").write(toFile: yml, atomically: false, encoding: .utf8)
        let notInstalled = try s.run(lonely + "/hello", [], in: "app")
        #expect(notInstalled.status == 127 && notInstalled.stderr == missing, "\(notInstalled)")
    }

    /// A project pinning hundreds of tools keeps a snapshot bigger than a mebibyte: it must
    /// hold like any other, not be refused for its size so that every shim resolves again.
    @Test func aSnapshotOverAMebibyteStillHolds() throws {
        let s = try Sandbox()
        // Long names and a long project path, as each appears in many records: 600 tools make
        // well over a mebibyte.
        let tools = (0..<600).map { "a-tool-with-a-rather-long-name-that-grows-the-snapshot-\($0)" }
        let app = "app-" + String(repeating: "d", count: 200)
        var manifest = "tools:\n", lock = "version: 1\ntools:\n"
        for tool in tools {
            let source = "https://example.org/\(tool)-{version}"
            manifest += "  \(tool): { url: \"\(source)\", version: \"1.0.0\" }\n"
            lock += "  \(tool): { backend: \"url\", requested: \"1.0.0\", source: \"\(source)\", version: \"1.0.0\" }\n"
            try s.fakeInstall(tool, "1.0.0", backend: "url", source: source)
        }
        try s.writeTrusted(app + "/tack.yml", manifest)
        try s.write(app + "/tack.lock", lock)
        let snapshots = s.root + "/tack-home/state/snapshots"
        func written() throws -> (inode: Int, size: Int) {
            let names = try FileManager.default.contentsOfDirectory(atPath: snapshots).filter { !$0.contains(".tmp") }
            let attributes = try FileManager.default.attributesOfItem(atPath: snapshots + "/" + (names.first ?? ""))
            return ((attributes[.systemFileNumber] as? Int) ?? -1, (attributes[.size] as? Int) ?? -1)
        }
        // Twice, so one run has saved it (a run in the same clock tick as an edit saves none).
        for _ in 0..<2 {
            let r = try s.tack(["current", tools[7]], in: app)
            #expect(r.status == 0 && r.stdout.hasPrefix("1.0.0 (set by "), "\(r)")
        }
        let before = try written()
        #expect(before.size > 1 << 20, "the test needs a snapshot over 1 MiB: \(before.size) bytes")
        let again = try s.tack(["current", tools[7]], in: app)
        #expect(again.status == 0 && again.stdout.hasPrefix("1.0.0 (set by "), "\(again)")
        // Answered from the snapshot: not resolved and written again.
        #expect(try written().inode == before.inode)
    }

    /// The snapshot is a cache tack never flushes, so a crash can leave its file cut short:
    /// empty, or a prefix of its lines. Each cut is refused and the commands answer as a fresh
    /// resolution does (before, a prefix cut after a line was answered from: no PATH at the
    /// prompt, "no tools are pinned", "command not found", and so until the file changed,
    /// since a cut that lost every probe held forever).
    @Test func aSnapshotCutShortIsNotAnsweredFrom() throws {
        let s = try pathPinnedTool()
        let tack = try Sandbox.binary()
        let env = ["PATH": "/usr/bin:/bin"]
        let snapshots = s.root + "/tack-home/state/snapshots"
        /// Each command's status, output and errors, each run over `cut` as the snapshot.
        func answers(_ cut: (name: String, text: String)? = nil) throws -> [String] {
            var out: [String] = []
            for args in [["hook-env", "bash"], ["current", "mytool"], ["which", "mytool"]] {
                if let cut { try s.write("tack-home/state/snapshots/" + cut.name, cut.text) }
                let r = try s.run(tack, args, in: "app", env: env)
                let first = args[0] == "hook-env" ? r.stdout.split(separator: "\n").first { $0.hasPrefix("export PATH=") }.map(String.init) : r.stdout
                out.append("\(r.status) \(first ?? r.stdout) \(r.stderr)")
            }
            return out
        }
        // Twice, so one run has saved the snapshot (a run in the same clock tick as an edit saves none).
        _ = try answers()
        let right = try answers()
        #expect(right[0].hasPrefix("0 export PATH='\(s.root)/tool:/usr/bin:/bin'"), "\(right)")
        #expect(right[2] == "0 \(s.root)/tool/mytool\n ", "\(right)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: snapshots).first { name in
            (try? String(contentsOfFile: snapshots + "/" + name, encoding: .utf8))?.contains("cwd\t\(s.root)/app\n") == true
        })
        let whole = try #require(s.read("tack-home/state/snapshots/" + name))
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count > 6 && lines.last == "end", "\(whole)")
        // Empty; cut after the environment (no probe left: it held forever); cut just before
        // the last line; and in the middle of `current mytool`'s answer, which `current` reads.
        // (SnapshotFormatTests cuts the golden file at every byte, in both readers.)
        let kept = { (count: Int) in lines.prefix(count).map { $0 + "\n" }.joined() }
        let answer = try #require(lines.firstIndex { $0.hasPrefix("answer\tcurrent mytool\t") }, "\(whole)")
        let cuts = ["", kept(3), kept(lines.count - 1), kept(answer) + lines[answer].prefix(lines[answer].count - 4)]
        for cut in cuts {
            #expect(try answers((name, cut)) == right, "cut to \(cut.utf8.count) of \(whole.utf8.count) bytes")
            // Refused, and made again whole.
            #expect(s.read("tack-home/state/snapshots/" + name)?.hasSuffix("\nend\n") == true, "cut to \(cut.utf8.count) bytes")
        }
    }

    /// A link that leads nowhere where tack.yml would be is an error a fresh resolution says:
    /// its coming is seen at once (before, the snapshot's "nothing here" was checked following
    /// links, so the dangling link passed for nothing and the old pins were answered). A link
    /// to nowhere where a version file would be reads as nothing, and keeps the snapshot.
    @Test func aLinkToNowhereInPlaceOfTackYmlIsSeen() throws {
        let s = try pathPinnedTool()
        let tack = try Sandbox.binary()
        try s.mkdir("app/sub")
        func current() throws -> Sandbox.Result { try s.run(tack, ["current", "mytool"], in: "app/sub", env: ["PATH": "/usr/bin:/bin"]) }
        // Twice, so one run has saved the snapshot (a run in the same clock tick as an edit saves none).
        _ = try current()
        let before = try current()
        #expect(before.status == 0 && before.stdout.hasPrefix("path:../tool (set by "), "\(before)")
        // A dangling version file: nothing, as before, and the snapshot holds from then on.
        try FileManager.default.createSymbolicLink(atPath: s.root + "/app/sub/.nvmrc", withDestinationPath: "nowhere/.nvmrc")
        _ = try current()
        func inodes() throws -> [Int] { try snapshotInodes(s) }
        let held = try inodes()
        #expect(try current().stdout == before.stdout)
        #expect(try inodes() == held, "the snapshot was made again for a link that still leads nowhere")
        // tack.yml as a link to nowhere (a typo, a submodule not checked out): said.
        try FileManager.default.createSymbolicLink(atPath: s.root + "/app/sub/tack.yml", withDestinationPath: "../shared/tack.yml")
        let dangling = try current()
        #expect(dangling.status != 0 && dangling.stderr.contains("\(s.root)/app/sub/tack.yml is a symbolic link that leads nowhere"), "\(dangling)")
    }

    /// A `path:` pin puts its directory's `bin` on PATH when there is one, else the directory:
    /// a `bin` made after the snapshot changes what runs on the very next prompt (before, the
    /// snapshot did not key it, and PATH kept naming the directory the tool had left).
    @Test func aBinComingIntoAPathPinsDirectoryIsWhatRuns() throws {
        let s = try pathPinnedTool()
        let tack = try Sandbox.binary()
        func path() throws -> String {
            let r = try s.run(tack, ["hook-env", "bash"], in: "app", env: ["PATH": "/usr/bin:/bin"])
            #expect(r.status == 0, "\(r)")
            return r.stdout.split(separator: "\n").first { $0.hasPrefix("export PATH=") }.map(String.init) ?? r.stdout
        }
        // Twice, so one run has saved the snapshot (a run in the same clock tick as an edit saves none).
        for _ in 0..<2 { #expect(try path() == "export PATH='\(s.root)/tool:/usr/bin:/bin'") }
        try FileManager.default.createDirectory(atPath: s.root + "/tool/bin", withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: s.root + "/tool/mytool", toPath: s.root + "/tool/bin/mytool")
        #expect(try path() == "export PATH='\(s.root)/tool/bin:/usr/bin:/bin'")
        try FileManager.default.removeItem(atPath: s.root + "/tool/bin")
        #expect(try path() == "export PATH='\(s.root)/tool:/usr/bin:/bin'")
    }

    /// A `path:` pin whose directory has a `bin` puts that `bin` on PATH, and only it: a
    /// command at the directory's root is not the pin's, whether a snapshot answers or the
    /// front end resolves (before, the front end's own search also took the root, so `which`
    /// named ../tool/mytool while a shim ran the copy further down PATH; a reviewer's finding).
    @Test func aPathPinsRootBesideItsBinIsNotWhatRuns() throws {
        let s = try pathPinnedTool()
        let tack = try Sandbox.binary()
        try s.write("tool/bin/other", "#!/bin/sh\necho other\n")
        chmod(s.root + "/tool/bin/other", 0o755)
        try s.write("elsewhere/mytool", "#!/bin/sh\necho elsewhere\n")
        chmod(s.root + "/elsewhere/mytool", 0o755)
        let env = ["PATH": s.root + "/elsewhere:/usr/bin:/bin"]
        // Twice: the first run resolves, the second answers from the snapshot.
        for _ in 0..<2 {
            let which = try s.run(tack, ["which", "mytool"], in: "app", env: env)
            #expect(which.status == 0 && which.stdout == s.root + "/elsewhere/mytool\n", "\(which)")
            let exec = try s.run(tack, ["exec", "--", "mytool"], in: "app", env: env)
            #expect(exec.stdout == "elsewhere\n", "\(exec)")
        }
    }

    /// Which install is the locked build's is decided by every build's record: a variant
    /// rebuilt in place as the locked build goes on PATH at the next prompt (before, only the
    /// chosen record was keyed, and the prompt kept saying the tool was not installed).
    @Test func aVariantRebuiltAsTheLockedBuildIsOnPath() throws {
        let s = try Sandbox()
        let tack = try Sandbox.binary()
        let source = "https://example.com/hello-{version}", other = "https://example.org/hello-{version}"
        try s.write("app/tack.yml", "tools:\n  hello: { url: \"\(source)\", version: \"1.0.0\" }\n")
        try s.write("app/tack.lock", "version: 1\ntools:\n  hello: { backend: \"url\", requested: \"1.0.0\", source: \"\(source)\", version: \"1.0.0\" }\n")
        // The version's own directory and a variant hold another build.
        try s.fakeInstall("hello", "1.0.0", backend: "url", source: other)
        let variant = "tack-home/installs/hello/.variants/1.0.0/y"
        try s.mkdir(variant + "/bin")
        func record(_ from: String) -> String {
            "version: 1\ntools:\n  hello: { backend: \"url\", requested: \"1.0.0\", source: \"\(from)\", version: \"1.0.0\" }\n"
        }
        try s.write(variant + "/.tack-install.lock", record(other))
        let onPath = s.root + "/" + variant + "/bin"
        func path() throws -> String {
            let r = try s.run(tack, ["hook-env", "bash"], in: "app", env: ["PATH": "/usr/bin:/bin"])
            return r.stdout
        }
        // Twice, so one run has saved the snapshot (a run in the same clock tick as an edit saves none).
        for _ in 0..<2 { #expect(try !path().contains(onPath)) }
        try s.write(variant + "/.tack-install.lock", record(source))
        #expect(try path().contains(onPath))
    }

    /// The environment that steers resolution is compared as bytes by both readers: a name
    /// whose Characters differ from its bytes (a combining mark after `TACK_`) must not make the
    /// two disagree on which snapshot is this one (before, each `current` resolved and wrote
    /// the snapshot again).
    @Test func oddEnvironmentNamesKeepTheSnapshot() throws {
        let s = try installedJQ()
        let env = ["TACK_\u{301}X_VERSION": "1"]
        func inodes() throws -> [Int] { try snapshotInodes(s) }
        for _ in 0..<2 {
            let r = try s.tack(["current", "jq"], in: "app", env: env)
            #expect(r.status == 0 && r.stdout.hasPrefix("1.7.1 (set by "), "\(r)")
        }
        let before = try inodes()
        let again = try s.tack(["current", "jq"], in: "app", env: env)
        #expect(again.status == 0 && again.stdout.hasPrefix("1.7.1 (set by "), "\(again)")
        #expect(try inodes() == before, "answered from the snapshot, not resolved and written again")
    }

    /// A variable's name ends at the first `=` byte, as libc's getenv and the lean reader
    /// take it: a value that starts with a combining mark is still that variable's value
    /// (before, tack-front and tack-cli saw no TACK_HOME at all and used another store).
    @Test func aValueStartingWithACombiningMarkIsStillTheValue() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        let r = try s.tack(["current"], in: "app", env: ["TACK_HOME": "\u{301}/elsewhere"])
        #expect(r.status != 0 && r.stderr.contains("TACK_HOME must be an absolute path"), "\(r)")
    }

    /// The key of the environment joins its variables with U+0001; a variable that holds one
    /// could make two environments one key (`XDG_CONFIG_HOME` holding `…\u{1}XDG_DATA_HOME=…`
    /// against the two variables set apart), so there no snapshot is written or read, and
    /// each command resolves.
    @Test func anEnvironmentThatCannotBeKeyedResolvesEveryTime() throws {
        let s = try installedJQ()
        let snapshots = s.root + "/tack-home/state/snapshots"
        try? FileManager.default.removeItem(atPath: snapshots)
        let env = ["XDG_CONFIG_HOME": s.root + "/c\u{1}XDG_DATA_HOME=" + s.root + "/d"]
        for _ in 0..<2 {
            let r = try s.tack(["current", "jq"], in: "app", env: env)
            #expect(r.status == 0 && r.stdout.hasPrefix("1.7.1 (set by "), "\(r)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: snapshots)) ?? []).isEmpty)
    }

    /// After an edit the lone `tack` resolves without looking again for the names that
    /// settled, unchanged directories vouched for in the stale snapshot; a name that comes into
    /// one of them changes it, and is found at once.
    @Test func aNameThatComesIntoAVouchingDirectoryIsFound() throws {
        let s = try installedJQ()
        try s.mkdir("app/a/b")
        // Directories vouch once settled: 2 s before the walk.
        Thread.sleep(forTimeInterval: 2.3)
        let first = try s.tack(["current", "jq"], in: "app/a/b")
        #expect(first.status == 0 && first.stdout.hasPrefix("1.7.1 (set by "), "\(first)")
        let snapshots = s.root + "/tack-home/state/snapshots"
        let written = try FileManager.default.contentsOfDirectory(atPath: snapshots).map {
            (try? String(contentsOfFile: snapshots + "/" + $0, encoding: .utf8)) ?? ""
        }
        #expect(written.contains { $0.contains("absent\t") && $0.contains("/app/a/b\t") }, "the working directory vouches")
        // An edit: stale, resolved again by the lone tack with the vouched names.
        let yml = s.root + "/app/tack.yml"
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        try (text + "# edited\n").write(toFile: yml, atomically: false, encoding: .utf8)
        let edited = try s.tack(["current", "jq"], in: "app/a/b")
        #expect(edited.status == 0 && edited.stdout.hasPrefix("1.7.1 (set by "), "\(edited)")
        // A version file comes into the vouching directory: found, not vouched away (its
        // version is not installed, which `current` says).
        try ("jq 1.6\n").write(toFile: s.root + "/app/a/b/.tool-versions", atomically: false, encoding: .utf8)
        let pinned = try s.tack(["current", "jq"], in: "app/a/b")
        #expect(pinned.stdout.hasPrefix("1.6 (set by ") && pinned.stdout.contains("/app/a/b/.tool-versions:1"), "\(pinned)")
    }

    /// A sandbox whose `app` pins jq 1.7.1 (a url tool), trusted, locked and installed as tack
    /// records an install.
    func installedJQ() throws -> Sandbox {
        let s = try Sandbox()
        let source = "https://example.org/jq-{version}"
        try s.writeTrusted("app/tack.yml", "tools:\n  jq: { url: \"\(source)\", version: \"1.7.1\" }\n")
        try s.write("app/tack.lock", "version: 1\ntools:\n  jq: { backend: \"url\", requested: \"1.7.1\", source: \"\(source)\", version: \"1.7.1\" }\n")
        try s.fakeInstall("jq", "1.7.1", backend: "url", source: source)
        return s
    }

    /// A sandbox whose `app` pins `mytool` to `path: ../tool`, trusted, where an executable
    /// `mytool` is.
    func pathPinnedTool() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("tool/mytool", "#!/bin/sh\necho hi\n")
        chmod(s.root + "/tool/mytool", 0o755)
        try s.writeTrusted("app/tack.yml", "tools:\n  mytool: { path: ../tool }\n")
        return s
    }

    /// The inode of each snapshot file, by name: one made again has another.
    func snapshotInodes(_ s: Sandbox) throws -> [Int] {
        let snapshots = s.root + "/tack-home/state/snapshots"
        return try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted().map {
            (try FileManager.default.attributesOfItem(atPath: snapshots + "/" + $0)[.systemFileNumber] as? Int) ?? -1
        }
    }
}
