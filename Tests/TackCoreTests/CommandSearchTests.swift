import BackendKinds
import TackCore
import Testing

/// `tack which` and a shim's choice of program, in memory: the pinned tool's binary first, a
/// pin not installed named with the file that set it, and installed tools elsewhere suggested;
/// warnings about a file said once per version of it.
@Suite struct CommandSearchTests {
    func setup() throws -> (Settings, InMemoryFileSystem) {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }\n  jq: { url: \"https://example.com/jq-{version}\", version: \"1.7.1\" }\n"])
        return (Settings(environment: ["HOME": "/h", "TACK_HOME": "/t", "PATH": "/nowhere"], cwd: "/work/app", fs: fs, backends: .standard), fs)
    }

    func install(_ tool: String, _ version: String, binary: String, _ fs: InMemoryFileSystem) throws {
        fs.seed("/t/installs/\(tool)/\(version)/.tack-install.lock", Array("version: 1\ntools:\n  \(tool): { backend: \"url\", requested: \"\(version)\", source: \"https://example.com/\(tool)-{version}\", version: \"\(version)\" }\n".utf8))
        fs.seed("/t/installs/\(tool)/\(version)/bin/\(binary)", [])
        try fs.makeExecutable("/t/installs/\(tool)/\(version)/bin/\(binary)")
    }

    @Test func thePinnedBinaryIsFoundOrItsPinNamed() throws {
        let (settings, fs) = try setup()
        func find(_ command: String) throws -> CommandSearch.Answer {
            let resolution = try Resolver(settings).resolve()
            return CommandSearch.find(command, rows: try resolution.current(settings: settings), pathRoots: [:], settings: settings)
        }
        #expect(try find("hello") == .notInstalled(tool: "hello", version: "1.0.0", setBy: "/work/app/tack.yml:2"))
        try install("hello", "1.0.0", binary: "hello", fs)
        #expect(try find("hello") == .found("/t/installs/hello/1.0.0/bin/hello", tool: "hello"))
        // A command of an installed tool this project does not pin: named, not run.
        try install("ripgrep", "14.1.0", binary: "rg", fs)
        // With the `tack use` that pins it from where it was installed (no registry knows it).
        #expect(try find("rg") == .notFound(elsewhere: [("ripgrep 14.1.0", "`tack use ripgrep@14.1.0 --url 'https://example.com/ripgrep-{version}'`")]))
        // A file that is not executable is not a command.
        fs.seed("/t/installs/hello/1.0.0/bin/notes", [])
        #expect(try find("notes") == .notFound(elsewhere: []))
    }

    @Test func aWarningIsSaidOncePerVersionOfItsFile() throws {
        let (settings, fs) = try setup()
        let ledger = WarningLedger(store: try #require(settings.store))
        #expect(ledger.isNew("/work/app/tack.yml", ["bad"], kind: "untrusted"))
        #expect(!ledger.isNew("/work/app/tack.yml", ["bad"], kind: "untrusted"), "said already")
        #expect(ledger.isNew("/work/app/tack.yml", ["other"], kind: "untrusted"), "another warning is news")
        try fs.writeAtomically("/work/app/tack.yml", Array("tools: {}\n".utf8))
        #expect(ledger.isNew("/work/app/tack.yml", ["other"], kind: "untrusted"), "a new version of the file is news")
    }
}
