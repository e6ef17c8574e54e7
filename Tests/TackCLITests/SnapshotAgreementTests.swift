import Foundation
import Testing
@testable import TackCore

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

    /// One project with a pin of each way of being answered, and the changes made to it.
    struct Day {
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": SnapshotAgreementTests.manifest("1.0.0"),
            "/work/app/tack.lock": "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n",
            "/work/app/a/b/readme": "x",
            "/work/tool/mytool": "",
            "/h/.config/tack/tack.yml": "tools:\n  jq: 1.7.1\n",
            "/t/installs/hello/1.0.0/.tack-install.lock": "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n",
            "/t/installs/node/20.1.0/bin/node": "",
        ])
        var settings: Settings

        init() throws {
            settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app/a/b", fs: fs, backends: .standard)
            try trust()
        }

        func trust() throws {
            let bytes = try fs.read("/work/app/tack.yml", limit: 1 << 20)
            try TrustStore(store: try settings.requireStore()).trust("/work/app/tack.yml", hash: SHA256Digest.hex(bytes))
        }

        func write(_ path: String, _ text: String) throws {
            try fs.createDirectory(Paths.dirname(path))
            try fs.writeAtomically(path, Array(text.utf8), permissions: nil, flush: false)
        }

        /// The changes, by name: each is one a user, an editor, git or another tack makes.
        var changes: [(String, () throws -> Void)] {
            [
                ("edit the pin", { try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("2.0.0")); try trust() }),
                ("edit the pin back", { try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("1.0.0")); try trust() }),
                ("edit without trusting", { try write("/work/app/tack.yml", SnapshotAgreementTests.manifest("1.0.0") + "# edited\n") }),
                ("save with no change", {
                    for file in ["/work/app/tack.lock", "/work/app/tack.yml"] {
                        if let bytes = try? fs.read(file, limit: 1 << 20) { try write(file, String(decoding: bytes, as: UTF8.self)) }
                    }
                }),
                ("lock 2.0.0", { try write("/work/app/tack.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("2.0.0"))\n") }),
                ("remove the lock", { try fs.remove("/work/app/tack.lock") }),
                ("install 2.0.0", { try write("/t/installs/hello/2.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("2.0.0"))\n") }),
                ("uninstall 1.0.0", { try fs.remove("/t/installs/hello/1.0.0") }),
                ("install 1.0.0", { try write("/t/installs/hello/1.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n") }),
                ("a variant of 1.0.0", {
                    try write("/t/installs/hello/.variants/1.0.0/x/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n")
                }),
                ("a variant of another build", {
                    try write("/t/installs/hello/.variants/1.0.0/y/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0").replacingOccurrences(of: "example.com", with: "example.org"))\n")
                }),
                ("that variant rebuilt as the locked build", {
                    if fs.info("/t/installs/hello/.variants/1.0.0/y") != nil {
                        try write("/t/installs/hello/.variants/1.0.0/y/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0"))\n")
                    }
                }),
                ("the version's own build replaced", {
                    try write("/t/installs/hello/1.0.0/.tack-install.lock", "version: 1\ntools:\n  \(SnapshotAgreementTests.entry("1.0.0").replacingOccurrences(of: "example.com", with: "example.org"))\n")
                }),
                ("a version file here", { try write("/work/app/a/b/.nvmrc", "20\n") }),
                ("a version file above", { try write("/work/app/a/.tool-versions", "nodejs 20.1.0\n") }),
                ("remove the version files", { try fs.remove("/work/app/a/b/.nvmrc"); try fs.remove("/work/app/a/.tool-versions") }),
                ("install node 20.3.0", { try write("/t/installs/node/20.3.0/bin/node", "") }),
                ("uninstall node 20.3.0", { try fs.remove("/t/installs/node/20.3.0") }),
                ("a bin in the path: pin", { try fs.createDirectory("/work/tool/bin") }),
                ("no bin in the path: pin", { try fs.remove("/work/tool/bin") }),
                ("take trust back", { try fs.remove("/t/state/trust") }),
                ("trust again", { try trust() }),
                ("edit the global manifest", { try write("/h/.config/tack/tack.yml", "tools:\n  jq: 1.6\n") }),
                ("a local override of the manifest", { try write("/work/app/tack.local.yml", "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"2.0.0\" }\n") }),
                ("no local override", { try fs.remove("/work/app/tack.local.yml") }),
                ("a mise.toml", { try write("/work/app/a/mise.toml", "[tools]\nnode = \"20\"\n") }),
                ("no mise.toml", { try fs.remove("/work/app/a/mise.toml") }),
                ("the user's own .tool-versions", { try write("/h/.tool-versions", "nodejs 20.1.0\n") }),
                ("a project nearer", { try write("/work/app/a/tack.yml", "tools:\n  rg: 14.1.0\n") }),
                ("no project nearer", { try fs.remove("/work/app/a/tack.yml") }),
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
        var generator = SplitMix(seed: 0x7AC4_2026)
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
                let fresh = try Snapshot.resolved(settings: day.settings, executable: nil).0
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

    /// A small, seeded generator: the same series every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
