import BackendKinds
import TackCore
import Testing

/// What a shim, `tack exec` and the hook put in a tool's environment, in memory: env and
/// `path:` pins only from trusted files, nearer manifests winning, and missing installs named.
@Suite struct RunEnvironmentTests {
    func environment(_ fs: InMemoryFileSystem, cwd: String = "/work/app/sub") throws -> RunEnvironment {
        let settings = Settings(environment: ["HOME": "/home/u", "TACK_HOME": "/t", "PATH": "/usr/bin"], cwd: cwd, fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        return RunEnvironment.make(resolution: resolution, rows: try resolution.current(settings: settings), settings: settings)
    }

    func trust(_ file: String, _ fs: InMemoryFileSystem) throws {
        let store = try #require(Settings(environment: ["HOME": "/home/u", "TACK_HOME": "/t"], cwd: "/", fs: fs, backends: .standard).store)
        try TrustStore(store: store).trust(file, hash: SHA256Digest.hex(try fs.read(file)))
    }

    @Test func untrustedFilesGiveNeitherEnvNorPathAndAreNamed() throws {
        let fs = InMemoryFileSystem(files: [
            "/work/tack.yml": "tools:\n  jq: 1.7.1\nenv:\n  LEVEL: outer\n  KEEP: yes\n",
            "/work/app/tack.yml": "tools:\n  x: { path: tools }\nenv:\n  LEVEL: inner\n",
            "/work/app/sub/.keep": "",
        ])
        let untrusted = try environment(fs)
        #expect(untrusted.variables.isEmpty && untrusted.binDirectories.isEmpty)
        #expect(untrusted.untrusted == ["/work/app/tack.yml", "/work/tack.yml"], "\(untrusted.untrusted)")
        #expect(untrusted.missing == ["jq"], "an unlocked, uninstalled tool is missing")
        try trust("/work/app/tack.yml", fs)
        try trust("/work/tack.yml", fs)
        let trusted = try environment(fs)
        #expect(trusted.variables == [.init(name: "KEEP", value: "yes"), .init(name: "LEVEL", value: "inner")], "the nearer manifest wins")
        #expect(trusted.binDirectories == ["/work/app/tools"] && trusted.untrusted.isEmpty)
        #expect(trusted.digest != untrusted.digest)
    }

    @Test func theDigestChangesWithWhatIsAppliedAndOnlyThen() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools: {}\nenv:\n  A: one\n", "/work/app/sub/.keep": ""])
        try trust("/work/app/tack.yml", fs)
        let first = try environment(fs)
        #expect(try environment(fs).digest == first.digest)
        try fs.writeAtomically("/work/app/tack.yml", Array("tools: {}\nenv:\n  A: two\n".utf8))
        try trust("/work/app/tack.yml", fs)
        #expect(try environment(fs).digest != first.digest)
    }
}
