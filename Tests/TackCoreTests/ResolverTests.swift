import Testing
@testable import TackCore

func resolve(_ files: [String: String], cwd: String, env: [String: String] = [:]) throws -> Resolution {
    let fs = InMemoryFileSystem(files: files)
    try fs.createDirectory(cwd)
    var environment = ["HOME": "/home/me"]
    environment.merge(env) { $1 }
    return try Resolver(Settings(environment: environment, cwd: cwd, fs: fs, backends: .standard)).resolve()
}

func summary(_ r: Resolution) -> [String] {
    r.pins.map { "\($0.request.name) \($0.request.requirement) \($0.request.origin.kind.rawValue)" }
}

@Suite struct ResolverTests {
    @Test func nearestDirectoryWinsToolByTool() throws {
        let r = try resolve([
            "/app/tack.yml": "tools:\n  swiftlint: 0.57.0\n  jq: 1.7.1\n",
            "/app/sub/tack.yml": "tools:\n  swiftlint: 0.55.0\n",
        ], cwd: "/app/sub/deeper")
        #expect(summary(r) == ["jq 1.7.1 tack.yml", "swiftlint 0.55.0 tack.yml"])
        #expect(r.pin("swiftlint")?.request.origin.file == "/app/sub/tack.yml")
        #expect(r.pin("jq")?.request.origin.file == "/app/tack.yml")
        #expect(r.projectRoot == "/app/sub")
    }

    @Test func manifestBeatsCompatibleFilesInTheSameDirectory() throws {
        let r = try resolve([
            "/app/tack.yml": "tools:\n  ruby: 3.3.0\n",
            "/app/.ruby-version": "3.2.0\n",
            "/app/.tool-versions": "ruby 3.1.0\nnodejs 20.1.0\n",
            "/app/.nvmrc": "18\n",
        ], cwd: "/app")
        #expect(summary(r) == ["node 20.1.0 .tool-versions", "ruby 3.3.0 tack.yml"])
    }

    @Test func compatibleFileInANearerDirectoryBeatsAFartherManifest() throws {
        let r = try resolve([
            "/app/tack.yml": "tools:\n  ruby: 3.3.0\n",
            "/app/legacy/.ruby-version": "2.7.8\n",
        ], cwd: "/app/legacy")
        #expect(summary(r) == ["ruby 2.7.8 .ruby-version"])
        // The lock of the project root (where tack.yml is) records it.
        #expect(r.pin("ruby")?.lockDirectory == "/app")
    }

    @Test func localManifestOverridesEntryByEntry() throws {
        let r = try resolve([
            "/app/tack.yml": "tools:\n  ink: { git: https://x/ink.git, version: 0.6.0, products: [ink-cli] }\n  jq: 1.7.1\n  yq: 4\n",
            "/app/tack.local.yml": "tools:\n  ink: 0.5.0\n  yq: { pip: yq, version: 3 }\n",
        ], cwd: "/app")
        #expect(summary(r) == ["ink 0.5.0 tack.local.yml", "jq 1.7.1 tack.yml", "yq 3 tack.local.yml"])
        // A bare version keeps the source of the entry it overrides.
        #expect(r.pin("ink")?.request.source == .git("https://x/ink.git"))
        #expect(r.pin("ink")?.request.options.git.products == ["ink-cli"])
        #expect(r.pin("yq")?.request.source == .pip("yq"))
    }

    @Test func environmentOverrideWins() throws {
        let r = try resolve(["/app/tack.yml": "tools:\n  swift-format: 600.0.0\n"], cwd: "/app",
                            env: ["TACK_SWIFT_FORMAT_VERSION": "510.1.0", "TACK_JQ_VERSION": "1.6", "TACK_EMPTY_VERSION": ""])
        #expect(summary(r) == ["jq 1.6 environment", "swift-format 510.1.0 environment"])
        #expect(r.pin("swift-format")?.request.origin.file == "TACK_SWIFT_FORMAT_VERSION")
        #expect(r.pin("swift-format")?.overridden?.origin.file == "/app/tack.yml")
    }

    @Test func badEnvironmentOverride() {
        #expect(throws: TackError("TACK_JQ_VERSION=\"../../etc\" in the environment is not a version requirement: `/` is not allowed in a version requirement")) {
            try resolve([:], cwd: "/app", env: ["TACK_JQ_VERSION": "../../etc"])
        }
    }

    @Test func globalManifestIsLowest() throws {
        let files = [
            "/home/me/.config/tack/tack.yml": "tools:\n  jq: 1.6\n  shellcheck: 0.10.0\n",
            "/app/tack.yml": "tools:\n  jq: 1.7.1\n",
        ]
        let r = try resolve(files, cwd: "/app")
        #expect(summary(r) == ["jq 1.7.1 tack.yml", "shellcheck 0.10.0 global tack.yml"])
        let x = try resolve(files, cwd: "/app", env: ["XDG_CONFIG_HOME": "/elsewhere"])
        #expect(summary(x) == ["jq 1.7.1 tack.yml"])
    }

    @Test func pinnedNowhere() throws {
        let r = try resolve([:], cwd: "/tmp/x")
        #expect(r.pins.isEmpty)
        #expect(r.projectRoot == nil)
    }

    @Test func brokenNearerManifestIsAnError() {
        #expect(throws: TackError("/app/sub/tack.yml:1:1: unknown key `tool` at the top level; did you mean `tools`?")) {
            try resolve(["/app/tack.yml": "tools:\n  jq: 1.7\n", "/app/sub/tack.yml": "tool:\n  jq: 1\n"], cwd: "/app/sub")
        }
    }

    @Test func probesRecordWhatWasLookedFor() throws {
        let r = try resolve(["/app/tack.yml": "tools:\n  jq: 1.7.1\n"], cwd: "/app")
        #expect(r.probes.contains { $0.path == "/app/tack.yml" && $0.info != nil })
        // A name missing from a directory the walk read is kept with that directory, which was
        // looked at before the name was.
        #expect(r.directories.contains { $0.path == "/" && $0.info?.kind == .directory && $0.missing.contains("tack.yml") })
        #expect(!r.probes.contains { $0.path == "/tack.yml" })
        #expect(r.probes.contains { $0.path == "/home/me/.config/tack/tack.yml" })
    }

    @Test func currentUsesLockThenExactPinNeverAnUnlockedInstall() throws {
        let fs = InMemoryFileSystem(files: [
            "/app/tack.yml": "tools:\n  mylint: \"~> 0.54\"\n  myjq: 1.7.1\n  myyq: \"4\"\n  mygo: \"1.22\"\n",
            "/app/tack.lock": String(decoding: Lockfile(tools: [
                "mylint": LockedTool(name: "mylint", version: Version("0.54.1")!, requested: "~> 0.54", backend: "git", source: "https://github.com/realm/SwiftLint.git"),
                "mygo": LockedTool(name: "mygo", version: Version("1.22.5")!, requested: "1.21", backend: "url", source: "u"),
            ]).serialized(), as: UTF8.self),
        ])
        // Installs are directories with the record of the lock entry they were made from.
        func install(_ entry: LockedTool) throws {
            let dir = "/tack/installs/\(entry.name)/\(entry.version.text)"
            try fs.createDirectory(dir)
            try fs.writeAtomically(dir + "/" + Store.installRecordFile, Lockfile(tools: [entry.name: entry]).serialized())
        }
        try install(LockedTool(name: "mylint", version: Version("0.54.1")!, requested: "~> 0.54", backend: "git", source: "https://github.com/realm/SwiftLint.git"))
        try fs.createDirectory("/tack/installs/myyq/4.40.5")
        try install(LockedTool(name: "myyq", version: Version("4.44.1")!, requested: "4", backend: "url", source: "u"))
        try fs.createDirectory("/tack/installs/myyq/.4.45.0.tmp")
        try fs.createDirectory("/tack/installs/myyq/5.0.0")
        let settings = Settings(environment: ["HOME": "/home/me", "TACK_HOME": "/tack"], cwd: "/app", fs: fs, backends: .standard)
        let current = try Resolver(settings).resolve().current(settings: settings)
        let rows = current.map { "\($0.tool) \($0.version ?? "null") \($0.backend) \($0.installed)" }
        // go's lock entry was for another requirement: stale, so not used. yq's range is not
        // locked yet: it means what `tack install` will resolve, not an install that happens
        // to be there (issue 43, item 8).
        #expect(rows == ["mygo null registry false", "myjq 1.7.1 registry false", "mylint 0.54.1 git true", "myyq null registry false"])
    }
}

/// Issue 29, item 13: resolving thousands of `path:` pins (and what the hook computes from
/// them) reads each file once, so the work grows with the pins, not with their square.
@Suite struct ResolutionScalingTests {
    func work(pins n: Int) throws -> Int {
        var text = "tools:\n"
        for i in 0..<n { text += "  t\(i): { path: dir\(i) }\n" }
        let fs = InMemoryFileSystem(files: ["/app/tack.yml": text, "/data/tack/state/trust": ""])
        let settings = Settings(environment: ["HOME": "/home/me", "TACK_HOME": "/data/tack"], cwd: "/app", fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        #expect(resolution.pins.count == n)
        let rows = try resolution.current(settings: settings)
        let run = RunEnvironment.make(resolution: resolution, rows: rows, settings: settings)
        #expect(run.untrusted == ["/app/tack.yml"])
        return fs.bytesRead
    }

    @Test func workIsLinearInThePins() throws {
        let small = try work(pins: 1000)
        let large = try work(pins: 4000)
        // Four times the pins, a little over four times the bytes: quadratic work would read
        // sixteen times as much.
        #expect(large <= small * 5, "1k pins read \(small) bytes, 4k pins \(large)")
    }
}
