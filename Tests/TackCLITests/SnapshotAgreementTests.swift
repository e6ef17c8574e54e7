import Foundation
import Testing
@testable import TackCore
@testable import TackLean

/// A snapshot that still holds answers what a resolution would: after any series of the
/// changes a real day brings (an edit, a version file, an install or an uninstall, a variant,
/// trust given or taken back, a `bin` made in a `path:` pin's directory, a lock rewritten, a
/// save with no change), whenever the last snapshot is found to hold, its rows, PATH, env,
/// answers and up-to-date answer are those of a fresh resolution. A snapshot may go stale
/// when nothing that matters changed (only slower); it must never hold when something did.
@Suite struct SnapshotAgreementTests {
    static func entry(_ version: String) -> String {
        "hello: { backend: \"url\", requested: \"\(version)\", source: \"https://example.com/hello-{version}\", version: \"\(version)\" }"
    }

    /// One project with a pin of each way of being answered, and the changes made to it: under
    /// `root` of `fs` (in memory, or a directory on disk).
    final class Day {
        let fs: any FileSystem
        let root: String
        var settings: Settings

        init(fs: any FileSystem = InMemoryFileSystem(), root: String = "") throws {
            self.fs = fs
            self.root = root
            settings = Settings(environment: ["HOME": root + "/h", "TACK_HOME": root + "/t"], cwd: root + "/work/app/a/b", fs: fs, backends: .standard)
            let files = [
                "/work/app/tack.yml": SnapshotAgreementTests.manifest("1.0.0"),
                "/work/app/tack.lock": "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n",
                "/work/app/a/b/readme": "x",
                "/work/tool/mytool": "",
                "/h/.config/tack/tack.yml": "tools:\n  jq: 1.7.1\n",
                "/t/installs/hello/1.0.0/.tack-install.lock": "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n",
                "/t/installs/node/20.1.0/bin/node": "",
            ]
            for (path, text) in files.sorted(by: { $0.key < $1.key }) { try write(path, text) }
            try trust()
        }

        func trust() throws {
            let bytes = try fs.read(root + "/work/app/tack.yml", limit: 1 << 20)
            try TrustStore(store: try settings.requireStore()).trust(root + "/work/app/tack.yml", hash: SHA256Digest.hex(bytes))
        }

        /// Writes `text` at `path` below the root, as an editor saves (a new file renamed over it).
        func write(_ path: String, _ text: String) throws {
            try fs.createDirectory(Paths.dirname(root + path))
            try fs.writeAtomically(root + path, Array(text.utf8), permissions: nil, flush: false)
        }

        func remove(_ path: String) throws { try fs.remove(root + path) }

        /// The changes, by name: each is one a user, an editor, git or another tack makes.
        var changes: [(String, () throws -> Void)] {
            [
                ("edit the pin", { [self] in try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("2.0.0")); try trust() }),
                ("edit the pin back", { [self] in try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("1.0.0")); try trust() }),
                ("edit without trusting", { [self] in try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("1.0.0") + "# edited\n") }),
                ("save with no change", { [self] in
                    for file in ["/work/app/tack.lock", "/work/app/tack.yml"] {
                        if let bytes = try? fs.read(root + file, limit: 1 << 20) { try write(file, String(decoding: bytes, as: UTF8.self)) }
                    }
                }),
                ("lock 2.0.0", { [self] in try write("/work/app/tack.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("2.0.0"))\n") }),
                ("remove the lock", { [self] in try remove("/work/app/tack.lock") }),
                ("install 2.0.0", { [self] in try write("/t/installs/hello/2.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("2.0.0"))\n") }),
                ("uninstall 1.0.0", { [self] in try remove("/t/installs/hello/1.0.0") }),
                ("install 1.0.0", { [self] in try write("/t/installs/hello/1.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n") }),
                ("a variant of 1.0.0", { [self] in
                    try write("/t/installs/hello/.variants/1.0.0/x/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n")
                }),
                ("a variant of another build", { [self] in
                    try write("/t/installs/hello/.variants/1.0.0/y/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0").replacingOccurrences(of: "example.com", with: "example.org"))\n")
                }),
                ("that variant rebuilt as the locked build", { [self] in
                    if fs.info(root + "/t/installs/hello/.variants/1.0.0/y") != nil {
                        try write("/t/installs/hello/.variants/1.0.0/y/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n")
                    }
                }),
                ("the version's own build replaced", { [self] in
                    try write("/t/installs/hello/1.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0").replacingOccurrences(of: "example.com", with: "example.org"))\n")
                }),
                ("a version file here", { [self] in try write("/work/app/a/b/.nvmrc", "20\n") }),
                ("a version file above", { [self] in try write("/work/app/a/.tool-versions", "nodejs 20.1.0\n") }),
                ("remove the version files", { [self] in try remove("/work/app/a/b/.nvmrc"); try remove("/work/app/a/.tool-versions") }),
                ("install node 20.3.0", { [self] in try write("/t/installs/node/20.3.0/bin/node", "") }),
                ("uninstall node 20.3.0", { [self] in try remove("/t/installs/node/20.3.0") }),
                ("a bin in the path: pin", { [self] in try fs.createDirectory(root + "/work/tool/bin") }),
                ("no bin in the path: pin", { [self] in try remove("/work/tool/bin") }),
                ("take trust back", { [self] in try remove("/t/state/trust") }),
                ("trust again", { [self] in try trust() }),
                ("edit the global manifest", { [self] in try write("/h/.config/tack/tack.yml", "tools:\n  jq: 1.6\n") }),
                ("a local override of the manifest", { [self] in try write("/work/app/tack.local.yml", "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"2.0.0\" }\n") }),
                ("no local override", { [self] in try remove("/work/app/tack.local.yml") }),
                ("a mise.toml", { [self] in try write("/work/app/a/mise.toml", "[tools]\nnode = \"20\"\n") }),
                ("no mise.toml", { [self] in try remove("/work/app/a/mise.toml") }),
                ("the user's own .tool-versions", { [self] in try write("/h/.tool-versions", "nodejs 20.1.0\n") }),
                ("a project nearer", { [self] in try write("/work/app/a/tack.yml", "tools:\n  rg: 14.1.0\n") }),
                ("no project nearer", { [self] in try remove("/work/app/a/tack.yml") }),
                ("tack.yml a link to a shared file", { [self] in
                    // (On disk: the in-memory file system follows no links.)
                    guard fs is LocalFileSystem else { return }
                    try write("/work/shared.yml", SnapshotAgreementTests.manifest("2.0.0"))
                    try remove("/work/app/tack.yml")
                    try fs.makeLink(root + "/work/app/tack.yml", to: root + "/work/shared.yml")
                    try trust()
                }),
                ("the shared file edited", { [self] in
                    if fs.info(root + "/work/shared.yml") != nil { try write("/work/shared.yml", SnapshotAgreementTests.manifest("1.0.0")) }
                }),
                ("a broken edit", { [self] in try write("/work/app/tack.yml", "tools: [\n") }),
                ("a pin of the system's", { [self] in
                    try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("1.0.0") + "  git: system\n")
                    try trust()
                }),
                ("a .ruby-version and a .python-version here", { [self] in
                    try write("/work/app/a/b/.ruby-version", "3.3.0\n")
                    try write("/work/app/a/b/.python-version", "3.12\n")
                }),
                ("no .ruby-version", { [self] in try remove("/work/app/a/b/.ruby-version") }),
                ("a .tool-versions with two versions", { [self] in try write("/work/app/a/.tool-versions", "nodejs 20.9.0 20.1.0\n") }),
                ("an LTS .nvmrc", { [self] in try write("/work/app/a/b/.nvmrc", "lts/*\n") }),
                ("install python 3.12.1", { [self] in try write("/t/installs/python/3.12.1/bin/python3", "") }),
                ("an override", { [self] in settings.environment["TACK_HELLO_VERSION"] = "2.0.0" }),
                ("no override", { [self] in settings.environment["TACK_HELLO_VERSION"] = nil }),
            ]
        }
    }

    static func manifest(_ version: String) -> String {
        "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"\(version)\" }\n  mytool: { path: ../tool }\nenv:\n  GREETING: hi\n"
    }

    /// What a snapshot answers, without what it is keyed by.
    struct Answers: Equatable, CustomStringConvertible {
        var rows: [CurrentTool]
        var pathRoots: [String: String]
        var run: RunEnvironment
        var upToDate: Bool
        var answers: [String]
        init(_ s: Snapshot) {
            rows = s.rows
            pathRoots = s.pathRoots
            run = s.run
            upToDate = s.upToDate
            answers = s.answers.map { "\($0.key)\t\($0.output)" }
        }
        var description: String { "rows \(rows.map { "\($0.tool) \($0.version ?? "-") \($0.installed) \($0.installDirectory ?? "-")" }), PATH \(run.binDirectories), env \(run.variables.map(\.name)), untrusted \(run.untrusted), missing \(run.missing), up to date \(upToDate)" }
    }

    @Test func aSnapshotThatHoldsAnswersWhatAResolutionWould() throws {
        var generator = SplitMix64(seed: 0x7AC4_2026)
        var held = 0, stale = 0
        for series in 0..<100 {
            let day = try Day()
            let changes = day.changes
            var said: [String] = []
            _ = try Snapshot.resolved(settings: day.settings, executable: nil).0.save(settings: day.settings)
            for _ in 0..<12 {
                let (name, change) = changes[Int(generator.next() % UInt64(changes.count))]
                try change()
                said.append(name)
                // A resolution that fails (a broken tack.yml) is said: no snapshot may answer instead.
                guard let fresh = try? Snapshot.resolved(settings: day.settings, executable: nil).0 else {
                    #expect(Snapshot.load(settings: day.settings) == nil, "a snapshot holds where a resolution fails (series \(series), after \(said.joined(separator: ", ")))")
                    continue
                }
                if let snapshot = Snapshot.load(settings: day.settings) {
                    held += 1
                    #expect(Answers(snapshot) == Answers(fresh), "series \(series), after \(said.joined(separator: ", ")):\nheld  \(Answers(snapshot))\nfresh \(Answers(fresh))")
                    if Answers(snapshot) != Answers(fresh) { return }
                } else {
                    stale += 1
                }
                #expect(fresh.save(settings: day.settings))
                #expect(Snapshot.load(settings: day.settings) != nil, "a snapshot just saved holds (series \(series), after \(said.joined(separator: ", ")))")
            }
        }
        // Both happen often: the series test what holds, not only what goes stale.
        #expect(held > 250 && stale > 250, "held \(held), stale \(stale)")
    }

    /// The same on disk, where the times are the clock's (files changed within 2 s of a
    /// resolution do not vouch for anything yet, and a change in the clock's current tick
    /// leaves no snapshot saved), and with both readers: the lean one, which every shim and
    /// prompt runs, must decide as `Snapshot.load` does.
    @Test func bothReadersAgreeOnARealDayOnDisk() throws {
        var generator = SplitMix64(seed: 0x7AC4_D15C)
        var held = 0
        for series in 0..<30 {
            let sandbox = try Sandbox()
            let day = try Day(fs: LocalFileSystem(), root: sandbox.root)
            let changes = day.changes
            var said: [String] = []
            func resolvedAndSaved() throws -> Snapshot? {
                // A change in the clock's current tick leaves no snapshot saved: wait for the next.
                for _ in 0..<20 {
                    guard let fresh = try? Snapshot.resolved(settings: day.settings, executable: nil).0 else { return nil }
                    if !fresh.racy {
                        #expect(fresh.save(settings: day.settings))
                        return fresh
                    }
                    usleep(5_000)
                }
                Issue.record("no snapshot could be saved (series \(series), after \(said.joined(separator: ", ")))")
                return try Snapshot.resolved(settings: day.settings, executable: nil).0
            }
            _ = try resolvedAndSaved()
            for _ in 0..<10 {
                let (name, change) = changes[Int(generator.next() % UInt64(changes.count))]
                try change()
                said.append(name)
                // Where the lean reader looks, for the environment as it is now.
                let key = try #require(Snapshot.environmentKey(day.settings.environment))
                let context = LeanContext(cwd: Array(day.settings.cwd.utf8), tackHome: Array((sandbox.root + "/t").utf8), environmentKey: Array(key.utf8))
                let path = try #require(context.snapshotPath())
                #expect(path.dropLast() == Array(try #require(Snapshot.location(settings: day.settings)).utf8), "both readers look in one place")
                let swift = Snapshot.load(settings: day.settings)
                let lean = LeanSnapshot.load(path: path, context: context)
                #expect((swift == nil) == (lean == nil), "series \(series), after \(said.joined(separator: ", ")): Snapshot.load \(swift == nil ? "stale" : "holds"), the lean reader \(lean == nil ? "stale" : "holds")")
                guard let fresh = try resolvedAndSaved() else {
                    #expect(swift == nil, "a snapshot holds where a resolution fails (series \(series), after \(said.joined(separator: ", ")))")
                    continue
                }
                if let swift {
                    held += 1
                    #expect(Answers(swift) == Answers(fresh), "series \(series), after \(said.joined(separator: ", ")):\nheld  \(Answers(swift))\nfresh \(Answers(fresh))")
                }
            }
        }
        #expect(held > 40, "held \(held)")
    }
}
