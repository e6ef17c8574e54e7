import BackendKinds
import TackCore
import Testing

/// The no-op install the front end answers alone: up to date only when every pin is locked as
/// pinned and installed from that entry; anything else hands over to the full install.
@Suite struct UpToDateTests {
    static let sum = String(repeating: "a", count: 64)

    func resolution(_ fs: InMemoryFileSystem) throws -> (Resolution, Settings) {
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        return (try Resolver(settings).resolve(), settings)
    }

    @Test func onlyALockedAndInstalledPinIsUpToDate() throws {
        let manifest = "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }\n"
        let lock = """
            version: 1
            tools:
              hello: { backend: "url", requested: "1.0.0", sha256: { \(Platform.current.description): "\(Self.sum)" }, source: "https://example.com/hello-{version}", version: "1.0.0" }

            """
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": manifest])
        #expect(try !UpToDate.check(resolution(fs).0, settings: resolution(fs).1), "nothing locked")
        fs.seed("/work/app/tack.lock", Array(lock.utf8))
        #expect(try !UpToDate.check(resolution(fs).0, settings: resolution(fs).1), "locked, not installed")
        fs.seed("/t/installs/hello/1.0.0/.tack-install.lock", Array(lock.utf8))
        #expect(try UpToDate.check(resolution(fs).0, settings: resolution(fs).1))
        // The pin changes: the lock no longer describes it.
        try fs.writeAtomically("/work/app/tack.yml", Array(manifest.replacingOccurrences(of: "1.0.0", with: "1.1.0").utf8))
        #expect(try !UpToDate.check(resolution(fs).0, settings: resolution(fs).1))
    }
}
