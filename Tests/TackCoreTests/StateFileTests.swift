import BackendKinds
import TackCore
import Testing

/// tack's state files (trusted files, known projects): read and rewritten whole under a lock,
/// a line never forged by a value holding a line break, and what an interrupted or killed tack
/// left found by the process that left it being gone.
@Suite struct StateFileTests {
    @Test func updatesAddLinesAndRefuseForgedOnes() throws {
        let fs = InMemoryFileSystem()
        let file = StateFile("/t/state/projects", fs: fs)
        #expect(file.lines().isEmpty)
        try file.update { ($0 + ["/work/a"], ()) }
        let count = try file.update { lines in (lines + ["/work/b"], lines.count + 1) }
        #expect(count == 2 && file.lines() == ["/work/a", "/work/b"])
        #expect(throws: TackError.self) { try file.update { ($0 + ["/work/c\n/etc/trusted"], ()) } }
        #expect(file.lines() == ["/work/a", "/work/b"], "a refused update writes nothing")
        #expect(!StateFile.isStorable("a\rb") && !StateFile.isStorable("a\u{85}b") && StateFile.isStorable("/home/ü/p q"))
    }

    @Test func leftoversAreThoseOfProcessesThatAreGone() throws {
        let fs = InMemoryFileSystem()
        let settings = Settings(environment: ["TACK_HOME": "/t", "HOME": "/h"], cwd: "/", fs: fs, backends: .standard)
        let store = try #require(settings.store)
        for path in ["/t/installs/jq/.tmp-1.7.1-111", "/t/installs/jq/.old-1.7.0-222", "/t/installs/jq/1.7.1/bin/jq",
                     "/t/cache/downloads/.partial-111-abc", "/t/cache/downloads/0123", "/t/cache/pip-envs/.tmp-333-x",
                     "/t/cache/asdf-plugins/.tmp-key-444-y", "/t/cache/.lock-555-z", "/t/cache/downloads/.partial-notapid-q"] {
            fs.seed(path, [])
        }
        let running: Set<Int32> = [222, 555]
        let found = Leftovers.find(in: store) { running.contains($0) }
        #expect(found == ["/t/cache/asdf-plugins/.tmp-key-444-y", "/t/cache/downloads/.partial-111-abc", "/t/cache/pip-envs/.tmp-333-x",
                          "/t/installs/jq/.tmp-1.7.1-111"], "\(found)")
    }
}
