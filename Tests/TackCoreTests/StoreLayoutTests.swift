import BackendKinds
import TackCore
import Testing

/// The store's layout, in memory: one version's build in its own directory, a different build
/// of the same version beside it as a variant (two projects never evict each other's), and
/// projects remembered once each.
@Suite struct StoreLayoutTests {
    static let commitA = String(repeating: "a", count: 40), commitB = String(repeating: "b", count: 40)

    func entry(_ commit: String, source: String = "https://example.com/hello.git") -> LockedTool {
        LockedTool(name: "hello", version: Version("1.0.0")!, requested: "1.0.0", backend: "git", source: source,
                   fields: ["commit": .string(commit), "tag": .string("1.0.0")])
    }

    func record(_ entry: LockedTool, in dir: String, _ fs: InMemoryFileSystem) {
        var lock = Lockfile()
        lock.tools[entry.name] = entry
        fs.seed(dir + "/" + Store.installRecordFile, lock.serialized())
    }

    func store(_ fs: InMemoryFileSystem) throws -> Store {
        try #require(Settings(environment: ["TACK_HOME": "/t", "HOME": "/h"], cwd: "/", fs: fs, backends: .standard).store)
    }

    @Test func anotherBuildOfTheSameVersionGoesBesideItNotOverIt() throws {
        let fs = InMemoryFileSystem()
        let store = try store(fs)
        let a = entry(Self.commitA), fork = entry(Self.commitB, source: "https://example.com/fork.git")
        #expect(store.installTarget(for: a) == "/t/installs/hello/1.0.0", "a free version directory is the first build's")
        record(a, in: "/t/installs/hello/1.0.0", fs)
        #expect(store.installDirectory(for: a) == "/t/installs/hello/1.0.0")
        #expect(store.installDirectory(for: fork) == nil)
        let variant = store.installTarget(for: fork)
        #expect(variant.hasPrefix("/t/installs/hello/.variants/1.0.0/"), "\(variant)")
        #expect(store.installTarget(for: a) == "/t/installs/hello/1.0.0", "a rebuild replaces the same build")
        record(fork, in: variant, fs)
        #expect(store.installs("hello", Version("1.0.0")!).map(\.directory) == ["/t/installs/hello/1.0.0", variant])
        #expect(store.installDirectory(for: fork) == variant && store.installTarget(for: fork) == variant)
        #expect(store.installedTools() == ["hello"] && store.installedEntries("hello").count == 2)
        // The version's own directory emptied (its build uninstalled): the fork's build stays
        // where it is and is never made a second time there (issue 43, item 17: `ls` listed it twice).
        try fs.remove("/t/installs/hello/1.0.0/" + Store.installRecordFile)
        #expect(store.installTarget(for: fork) == variant)
        #expect(store.installTarget(for: a) == "/t/installs/hello/1.0.0")
    }

    @Test func projectsAreRememberedOnceAndBuildsWithAnotherToolchainFound() throws {
        let fs = InMemoryFileSystem()
        let store = try store(fs)
        store.rememberProject("/work/app")
        store.rememberProject("/work/app")
        store.rememberProject("/work/other")
        #expect(store.knownProjects() == ["/work/app", "/work/other"])
        var built = entry(Self.commitA)
        built.fields["built"] = .map(["swift": "Swift version 6.0.3 (swift-6.0.3-RELEASE)"])
        record(built, in: "/t/installs/hello/1.0.0", fs)
        #expect(store.staleBuilds(toolchain: "Swift version 6.0.3 (swift-6.0.3-RELEASE)").isEmpty)
        #expect(store.staleBuilds(toolchain: "Swift version 6.1 (swift-6.1-RELEASE)").map(\.name) == ["hello"])
    }
}
