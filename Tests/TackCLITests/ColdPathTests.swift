import Foundation
import Testing
@testable import TackCore
@testable import TackLean
import YAML

/// The cold path (issue 45): a resolution looks at each name once, a snapshot lists the files
/// that are there first (an edit is found by the first probes) and records what the walk saw
/// missing without looking again, the locks and install records are read once for both the
/// rows and the up-to-date answer, and a large YAML file parses in linear time.
@Suite(.ownThreads) struct ColdPathTests {
    @Test func aProbeTellsNothingFromABrokenLinkFromAFile() throws {
        let dir = try Sandbox()
        let fs = LocalFileSystem()
        try dir.write("file", "x")
        try dir.mkdir("dir")
        try FileManager.default.createSymbolicLink(atPath: dir.root + "/to-file", withDestinationPath: dir.root + "/file")
        try FileManager.default.createSymbolicLink(atPath: dir.root + "/nowhere", withDestinationPath: dir.root + "/missing")
        #expect(fs.probe(dir.root + "/missing") == .missing)
        #expect(fs.probe(dir.root + "/nowhere") == .brokenLink)
        #expect(fs.probe(dir.root + "/file").info?.kind == .file)
        #expect(fs.probe(dir.root + "/to-file").info?.kind == .file, "a link is followed")
        #expect(fs.probe(dir.root + "/dir").info?.kind == .directory)
        // The in-memory file system answers the same way through the default.
        let memory = InMemoryFileSystem(files: ["/a/file": "x"])
        #expect(memory.probe("/a/file").info?.kind == .file && memory.probe("/a/none") == .missing)
    }

    @Test func tackFilesThatAreNotFilesAreErrorsNotNothingPinned() throws {
        let dir = try Sandbox()
        try dir.mkdir("app/tack.yml")
        let settings = Settings(environment: ["HOME": dir.root + "/home", "TACK_HOME": dir.root + "/t"], cwd: dir.root + "/app", fs: LocalFileSystem(), backends: .standard)
        #expect { try Resolver(settings).resolve() } throws: { ($0 as? TackError)?.message.contains("is a directory") == true }
        try FileManager.default.removeItem(atPath: dir.root + "/app/tack.yml")
        try FileManager.default.createSymbolicLink(atPath: dir.root + "/app/tack.yml", withDestinationPath: dir.root + "/gone.yml")
        #expect { try Resolver(settings).resolve() } throws: { ($0 as? TackError)?.message.contains("leads nowhere") == true }
        try FileManager.default.removeItem(atPath: dir.root + "/app/tack.yml")
        #expect(mkfifo(dir.root + "/app/tack.yml", 0o644) == 0)
        #expect { try Resolver(settings).resolve() } throws: { ($0 as? TackError)?.message.contains("not a regular file") == true }
    }

    /// A project two directories up: the snapshot's probes start with the files that exist,
    /// and a name the walk found missing is recorded missing, so creating it makes the
    /// snapshot stale for both readers.
    @Test func presentFilesComeFirstAndMissingOnesAreTrustedFromTheWalk() throws {
        let dir = try Sandbox()
        try dir.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try dir.mkdir("app/a/b")
        let settings = Settings(environment: ["HOME": dir.root + "/home", "TACK_HOME": dir.root + "/t"], cwd: dir.root + "/app/a/b", fs: LocalFileSystem(), backends: .standard)
        let resolution = try Resolver(settings).resolve()
        let rows = try resolution.current(settings: settings)
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: nil, reads: nil)
        let keys = snapshot.probes.map(\.key)
        let firstMissing = try #require(keys.firstIndex(of: "-"))
        #expect(keys[..<firstMissing].allSatisfy { $0 != "-" } && keys[firstMissing...].allSatisfy { $0 == "-" }, "\(snapshot.probes)")
        #expect(snapshot.probes.first?.path == dir.root + "/app/tack.yml", "\(snapshot.probes)")
        let missing = dir.root + "/app/a/.tool-versions"
        #expect(snapshot.probes.contains { $0.path == missing && $0.key == "-" })
        try dir.write("app/a/.tool-versions", "jq 1.6\n")
        #expect(!Snapshot.probeHolds(key: "-", path: missing, fs: LocalFileSystem()))
        var key = Array("-".utf8) + [0], path = Array(missing.utf8) + [0]
        let lean = key.withUnsafeMutableBufferPointer { k in path.withUnsafeMutableBufferPointer { LeanSnapshot.probeHolds(key: k.baseAddress!, path: $0.baseAddress!) } }
        #expect(!lean)
    }

    /// The up-to-date answer from the locks and rows read once is the answer read afresh: for
    /// an install of the locked entry, a variant of another build only, and none.
    @Test func upToDateFromRowsAgreesWithUpToDateReadAfresh() throws {
        let sum = String(repeating: "a", count: 64)
        let (plain, pin) = Self.urlPin("hello", "1.0.0")
        let entry = plain.replacingOccurrences(of: "source:", with: "sha256: { \(Platform.current.description): \"\(sum)\" }, source:")
        let other = entry.replacingOccurrences(of: sum, with: String(repeating: "b", count: 64))
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": pin,
            "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n",
        ])
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        func answers() throws -> (fresh: Bool, once: Bool) {
            let resolution = try Resolver(settings).resolve()
            let locks = try resolution.readLocks(settings: settings)
            let rows = resolution.current(settings: settings, locks: locks)
            return (UpToDate.check(resolution, settings: settings), UpToDate.check(resolution, settings: settings, locks: locks, rows: rows))
        }
        #expect(try answers() == (false, false), "not installed")
        fs.seed("/t/installs/hello/.variants/1.0.0/x/.tack-install.lock", Array("version: 1\ntools:\n  \(other)\n".utf8))
        #expect(try answers() == (false, false), "only another build, as a variant")
        fs.seed("/t/installs/hello/1.0.0/.tack-install.lock", Array("version: 1\ntools:\n  \(other)\n".utf8))
        #expect(try answers() == (false, false), "another build in the version's directory")
        fs.seed("/t/installs/hello/1.0.0/.tack-install.lock", Array("version: 1\ntools:\n  \(entry)\n".utf8))
        #expect(try answers() == (true, true), "the locked build")
    }

    /// A url tool's tack.lock entry, and tack.yml as it pins the tool (`https://example.com`).
    static func urlPin(_ tool: String, _ version: String) -> (entry: String, manifest: String) {
        let source = "https://example.com/\(tool)-{version}"
        return ("\(tool): { backend: \"url\", requested: \"\(version)\", source: \"\(source)\", version: \"\(version)\" }",
                "tools:\n  \(tool): { url: \"\(source)\", version: \"\(version)\" }\n")
    }

    /// A resolution of `/work/app` on `fs`, run over a file system that remembers what it read,
    /// with the rows it answers, and the settings without (`plain`) and with the remembering.
    func rememberingResolution(_ fs: InMemoryFileSystem, environment extra: [String: String] = [:]) throws
        -> (plain: Settings, settings: Settings, reads: RememberingFileSystem, resolution: Resolution, rows: [CurrentTool]) {
        let plain = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"].merging(extra) { $1 }, cwd: "/work/app", fs: fs, backends: .standard)
        let reads = RememberingFileSystem(fs)
        var settings = plain
        settings.fs = reads
        let resolution = try Resolver(settings).resolve()
        return (plain, settings, reads, resolution, resolution.current(settings: settings, locks: try resolution.readLocks(settings: settings)))
    }

    /// The files a resolution read are keyed from that read (their stat when opened and their
    /// bytes' fingerprint), not read a second time, with the same keys; a file changed since
    /// the walk began is read again.
    @Test func theSnapshotKeysWhatTheResolutionReadWithoutReadingItAgain() throws {
        let (entry, pin) = Self.urlPin("hello", "1.0.0")
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": pin,
            "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n",
            "/t/installs/hello/1.0.0/.tack-install.lock": "version: 1\ntools:\n  \(entry)\n",
        ])
        let (plain, settings, reads, first, rows) = try rememberingResolution(fs)
        var resolution = first
        for file in ["/work/app/tack.yml", "/work/app/tack.lock", "/t/installs/hello/1.0.0/.tack-install.lock"] {
            #expect(reads.remembered(file)?.fingerprint != nil, "\(file) was read")
        }
        let before = fs.bytesRead, looks = fs.looked.count
        let remembered = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: nil, reads: reads)
        #expect(fs.bytesRead == before, "nothing read again")
        let readFiles = ["/work/app/tack.yml", "/work/app/tack.lock", "/t/installs/hello/1.0.0/.tack-install.lock"]
        #expect(!fs.looked[looks...].contains { readFiles.contains($0) }, "nor looked at again")
        let afresh = Snapshot.make(settings: plain, resolution: resolution, rows: rows, executable: nil, reads: nil)
        #expect(fs.bytesRead > before)
        // The same keys for what both key; without what the resolution read, every directory
        // that might matter is keyed.
        let rememberedKeys = Dictionary(remembered.probes.map { ($0.path, $0.key) }, uniquingKeysWith: { a, _ in a })
        for p in afresh.probes where rememberedKeys[p.path] != nil { #expect(rememberedKeys[p.path] == p.key, "\(p.path)") }
        #expect(remembered.probes.contains { $0.path == "/t/installs/hello/1.0.0/.tack-install.lock" && $0.key.contains("=") })
        // A locked pin's answer is its install's record: the directories that hold it were not
        // read, so not keyed (one `stat` each on every hot run, for nothing).
        #expect(!remembered.probes.contains { $0.path == "/t/installs/hello" || $0.path == "/t/installs/hello/1.0.0" })
        #expect(afresh.probes.contains { $0.path == "/t/installs/hello" })
        // The tool's variants, listed and found missing: recorded as missing without a look,
        // for every version at once.
        #expect(reads.wasMissing("/t/installs/hello/.variants"))
        #expect(remembered.probes.contains { $0.path == "/t/installs/hello/.variants" && $0.key == "-" })
        #expect(!remembered.probes.contains { $0.path == "/t/installs/hello/.variants/1.0.0" })
        // Files changed after the walk began (as far as the clock can tell): read again.
        resolution.walkStarted = 0
        let again = fs.bytesRead
        let reread = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: nil, reads: reads)
        #expect(fs.bytesRead > again)
        // (No directory counts as settled either, so more names are probes of their own.)
        #expect(reread.probes.filter { $0.key != "-" }.map { $0.key } == afresh.probes.filter { $0.key != "-" && $0.path != "/t/installs/hello" }.map { $0.key })
        // A variant that comes after the listing makes the snapshot stale.
        var saved = remembered
        saved.racy = false
        #expect(saved.save(settings: plain))
        #expect(Snapshot.load(settings: plain) != nil)
        fs.seed("/t/installs/hello/.variants/1.0.0/x/.tack-install.lock", Array("version: 1\ntools:\n  \(entry)\n".utf8))
        #expect(Snapshot.load(settings: plain) == nil)
    }

    /// An override (as a version file) means the newest install it allows: the tool's
    /// directory, which the resolution listed, is keyed, so a newer install takes effect on
    /// the next run. A pin with a version of its own keys only its install's record.
    @Test func theToolsDirectoryIsKeyedWhereItsListingDecided() throws {
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": "tools:\n  jq: 1.7.1\n",
            "/t/installs/jq/1.6/bin/jq": "",
        ])
        let plain = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        let (exact, _) = try Snapshot.resolved(settings: plain, executable: nil)
        #expect(!exact.probes.contains { $0.path == "/t/installs/jq" })
        var overridden = plain
        overridden.environment["TACK_JQ_VERSION"] = "1"
        let (newest, _) = try Snapshot.resolved(settings: overridden, executable: nil)
        #expect(newest.rows.first?.version == "1.6")
        #expect(newest.probes.contains { $0.path == "/t/installs/jq" && $0.key != "-" })
        #expect(newest.save(settings: overridden))
        #expect(Snapshot.load(settings: overridden) != nil)
        fs.seed("/t/installs/jq/1.7/bin/jq", [])
        #expect(Snapshot.load(settings: overridden) == nil, "a newer install is the answer now")
        #expect(try Snapshot.resolved(settings: overridden, executable: nil).0.rows.first?.version == "1.7")
    }

    /// Every file a resolution looks at is one its snapshot keys (a probe, or a name an
    /// unchanged directory vouches for), or one that cannot change the answer: a snapshot that
    /// still holds after such a file changed would answer what a resolution no longer would.
    /// A project with one pin of each way of being answered: locked and installed (with a
    /// variant of another build), a trusted `path:` pin, a version file's newest install, an
    /// override, the env of a trusted manifest and a global manifest.
    @Test func theSnapshotKeysEverythingTheResolutionLookedAt() throws {
        let (entry, pin) = Self.urlPin("hello", "1.0.0")
        let other = entry.replacingOccurrences(of: "example.com", with: "example.org")
        let manifest = pin + "  mytool: { path: ../tool }\nenv:\n  GREETING: hi\n"
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": manifest,
            "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n",
            "/work/app/a/.nvmrc": "20\n",
            "/work/tool/mytool": "",
            "/h/.config/tack/tack.yml": "tools:\n  jq: 1.7.1\n",
            "/t/installs/hello/1.0.0/.tack-install.lock": "version: 1\ntools:\n  \(entry)\n",
            "/t/installs/hello/.variants/1.0.0/x/.tack-install.lock": "version: 1\ntools:\n  \(other)\n",
            "/t/installs/node/20.1.0/bin/node": "",
            "/t/installs/node/20.2.0/bin/node": "",
        ])
        var settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t", "TACK_RG_VERSION": "14"], cwd: "/work/app/a", fs: fs, backends: .standard)
        try TrustStore(store: try settings.requireStore()).trust("/work/app/tack.yml", hash: SHA256Digest.hex(Array(manifest.utf8)))
        settings.cwd = "/work/app/a"
        let before = fs.looked.count
        let (snapshot, _) = try Snapshot.resolved(settings: settings, executable: nil)
        #expect(snapshot.run.variables.map { $0.name } == ["GREETING"])
        #expect(snapshot.run.binDirectories.contains("/work/tool"))
        #expect(snapshot.rows.first { $0.tool == "node" }?.version == "20.2.0")
        let probed = Set(snapshot.probes.map { $0.path } + snapshot.absent.map { $0.directory })
        let vouched = Set(snapshot.absent.flatMap { a in a.names.map { Paths.child(a.directory, $0) } })
        let unkeyed = Set(fs.looks[before...].filter { look in
            !probed.contains(look.path) && !vouched.contains(look.path)
                // Whether a name is there, and what it is, is its directory's key.
                && !(look.kind == .info && probed.contains(Paths.dirname(look.path)))
                // The last snapshot, read for the names it vouched for.
                && !look.path.hasPrefix("/t/state/snapshots")
        }.map { $0.path })
        #expect(unkeyed.isEmpty, "looked at but not keyed: \(unkeyed.sorted())")
    }

    /// What a resolution found missing, or listed, is keyed as it found it, not as it is when
    /// the snapshot is made: an install that lands between the two (another tack finishing in
    /// the same project) leaves a snapshot that goes stale, or none, never one that holds with
    /// the answer from before.
    @Test func whatChangesBetweenTheResolutionAndItsSnapshotIsNotMissed() throws {
        let (entry, pin) = Self.urlPin("node", "20.1.0")
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": pin,
            "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n",
            "/t/installs/node/19.0.0/bin/node": "",
        ])
        let (plain, settings, reads, resolution, rows) = try rememberingResolution(fs)
        #expect(rows.first?.installed == false)
        // The install lands now.
        fs.seed("/t/installs/node/20.1.0/.tack-install.lock", Array("version: 1\ntools:\n  \(entry)\n".utf8))
        var snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: nil, reads: reads)
        #expect(snapshot.probes.contains { $0.path == "/t/installs/node/20.1.0/.tack-install.lock" && $0.key == "-" }, "keyed as the read found it")
        snapshot.racy = false
        #expect(snapshot.save(settings: plain))
        #expect(Snapshot.load(settings: plain) == nil, "the install is seen on the next run")

        // An override means the newest install: a version that comes after the listing and
        // before the snapshot leaves no snapshot saved.
        let newest = try rememberingResolution(fs, environment: ["TACK_NODE_VERSION": "19"])
        #expect(newest.rows.first?.version == "19.0.0" && newest.reads.wasListed("/t/installs/node"))
        fs.seed("/t/installs/node/19.1.0/bin/node", [])
        #expect(Snapshot.make(settings: newest.settings, resolution: newest.resolution, rows: newest.rows, executable: nil, reads: newest.reads).racy)
    }

    /// A resolution may read or list one path twice (the manifest for its pins and for trust; a
    /// tool's directory for `current` and for `install`'s up-to-date answer): each path keeps
    /// its first look, and a second that saw it otherwise leaves no snapshot saved, since the
    /// answer may mix the two (before, the last look was kept, and a change between the two
    /// was caught only in the clock's current tick; a reviewer's finding).
    @Test func aPathSeenOtherwiseByASecondLookLeavesNoSnapshot() throws {
        let fs = InMemoryFileSystem(files: ["/a/file": "one", "/d/x": ""])
        func looks(_ change: (RememberingFileSystem) throws -> Void) throws -> RememberingFileSystem {
            let reads = RememberingFileSystem(fs)
            try change(reads)
            return reads
        }
        // Looked at twice, unchanged: nothing to say.
        #expect(try !looks { r in
            _ = try r.read("/a/file", limit: 100); _ = try r.read("/a/file", limit: 100)
            _ = try r.list("/d"); _ = try r.list("/d")
            _ = try? r.read("/a/none", limit: 100); _ = try? r.read("/a/none", limit: 100)
        }.sawChange)
        // A file rewritten between two reads: the first read is the one remembered.
        let file = try looks { r in
            _ = try r.read("/a/file", limit: 100)
            fs.seed("/a/file", Array("two".utf8))
            _ = try r.read("/a/file", limit: 100)
        }
        #expect(file.sawChange && file.remembered("/a/file")?.fingerprint == { var h = FNV1a(); h.add(bytes: Array("one".utf8)); return h.hex }())
        // A name come into a listed directory, and a missing file come into being.
        #expect(try looks { r in _ = try r.list("/d"); fs.seed("/d/y", []); _ = try r.list("/d") }.sawChange)
        #expect(try looks { r in _ = try? r.read("/a/new", limit: 100); fs.seed("/a/new", []); _ = try r.read("/a/new", limit: 100) }.sawChange)
        #expect(try looks { r in _ = try r.read("/a/file", limit: 100); try fs.remove("/a/file"); _ = try? r.read("/a/file", limit: 100) }.sawChange)

        // The snapshot of a resolution that saw a change so is not saved.
        let (entry, pin) = Self.urlPin("hello", "1.0.0")
        let project = InMemoryFileSystem(files: ["/work/app/tack.yml": pin, "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n"])
        let (_, settings, reads, resolution, rows) = try rememberingResolution(project)
        #expect(!reads.sawChange)
        project.seed("/work/app/tack.lock", Array("version: 1\ntools:\n  \(entry)\n# saved again\n".utf8))
        _ = try reads.read("/work/app/tack.lock", limit: 1 << 20)
        #expect(reads.sawChange)
        #expect(Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: nil, reads: reads).racy)
    }

    /// On a file system that keeps times to the second (HFS+, ext3, FAT), a file changed in
    /// the last two seconds could change again with the same times: no snapshot is saved
    /// until they have passed (before, only a change in the clock's current tick counted).
    @Test func aCoarseFileSystemsRecentChangeLeavesNoSnapshot() throws {
        let fs = InMemoryFileSystem()
        let second: Int64 = 1_000_000_000
        let now = Snapshot.fileSystemNanoseconds()
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        let thisSecond = now / second * second
        fs.setClock(thisSecond - 10 * second)
        fs.seed("/work/app/tack.yml", Array("tools:\n  jq: 1.7.1\n".utf8))
        // Saved again a second ago, stamped on the second.
        fs.setClock(thisSecond - second - 1)
        try fs.writeAtomically("/work/app/tack.yml", Array("tools:\n  jq: 1.7.1\n".utf8), permissions: nil, flush: false)
        #expect(fs.info("/work/app/tack.yml")?.ctime == thisSecond - second)
        #expect(try Snapshot.resolved(settings: settings, executable: nil).0.racy)
        // Three seconds ago instead: saved.
        fs.setClock(thisSecond - 3 * second - 1)
        try fs.writeAtomically("/work/app/tack.yml", Array("tools:\n  jq: 1.7.1\n".utf8), permissions: nil, flush: false)
        #expect(try !Snapshot.resolved(settings: settings, executable: nil).0.racy)
        // A fine-grained time a second ago is saved too: only a whole second is a coarse one's.
        fs.setClock(thisSecond - second + 12_345)
        try fs.writeAtomically("/work/app/tack.yml", Array("tools:\n  jq: 1.7.1\n".utf8), permissions: nil, flush: false)
        #expect(try !Snapshot.resolved(settings: settings, executable: nil).0.racy)
    }

    /// Another build's record decides which install is the locked build's: a variant rebuilt in
    /// place as the locked build is seen (every record the resolution read is keyed, not only
    /// the one it chose).
    @Test func aVariantRebuiltAsTheLockedBuildIsSeen() throws {
        let (entry, pin) = Self.urlPin("hello", "1.0.0")
        let other = entry.replacingOccurrences(of: "example.com", with: "example.org")
        let fs = InMemoryFileSystem(files: [
            "/work/app/tack.yml": pin,
            "/work/app/tack.lock": "version: 1\ntools:\n  \(entry)\n",
            "/t/installs/hello/1.0.0/.tack-install.lock": "version: 1\ntools:\n  \(other)\n",
            "/t/installs/hello/.variants/1.0.0/y/.tack-install.lock": "version: 1\ntools:\n  \(other)\n",
        ])
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        let (before, _) = try Snapshot.resolved(settings: settings, executable: nil)
        #expect(before.rows.first?.installed == false)
        #expect(before.save(settings: settings))
        #expect(Snapshot.load(settings: settings) != nil)
        try fs.writeAtomically("/t/installs/hello/.variants/1.0.0/y/.tack-install.lock", Array("version: 1\ntools:\n  \(entry)\n".utf8), permissions: nil, flush: false)
        #expect(Snapshot.load(settings: settings) == nil, "the variant's record changed")
        #expect(try Snapshot.resolved(settings: settings, executable: nil).0.rows.first?.installDirectory == "/t/installs/hello/.variants/1.0.0/y")
    }

    /// A version directory can be a link (made by hand): the tool's directory does not change
    /// when its target goes, so the version, looked at through the listing, is keyed itself.
    @Test func aLinkedVersionWhoseTargetGoesIsSeen() throws {
        let dir = try Sandbox()
        let fs = LocalFileSystem()
        try dir.write("app/tack.yml", "tools:\n  node: { url: \"https://example.com/node-{version}\", version: \"20.1.0\" }\n")
        try dir.write("t/installs/node/20.1.0/bin/node", "")
        try dir.write("elsewhere/node-20.2.0/bin/node", "")
        try FileManager.default.createSymbolicLink(atPath: dir.root + "/t/installs/node/20.2.0", withDestinationPath: dir.root + "/elsewhere/node-20.2.0")
        let settings = Settings(environment: ["HOME": dir.root + "/h", "TACK_HOME": dir.root + "/t", "TACK_NODE_VERSION": "20"], cwd: dir.root + "/app", fs: fs, backends: .standard)
        let (snapshot, _) = try Snapshot.resolved(settings: settings, executable: nil)
        #expect(snapshot.rows.first?.version == "20.2.0")
        var saved = snapshot
        saved.racy = false
        #expect(saved.save(settings: settings))
        #expect(Snapshot.load(settings: settings) != nil)
        try FileManager.default.removeItem(atPath: dir.root + "/elsewhere/node-20.2.0")
        #expect(Snapshot.load(settings: settings) == nil, "the link's target is gone")
        #expect(try Snapshot.resolved(settings: settings, executable: nil).0.rows.first?.version == "20.1.0")
    }

    /// After an edit the walk does not look again for the names an unchanged directory
    /// vouched for in the last snapshot; a directory whose key moved is looked in again.
    @Test func aResolutionAfterAnEditLooksOnlyWhereADirectoryChanged() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  jq: 1.7.1\n", "/work/app/a/readme": "x"])
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app/a", fs: fs, backends: .standard)
        let first = try Resolver(settings).resolve()
        var snapshot = Snapshot.make(settings: settings, resolution: first, rows: try first.current(settings: settings), executable: nil, reads: nil)
        snapshot.racy = false
        #expect(snapshot.save(settings: settings))
        let recorded = Snapshot.recordedAbsences(settings: settings)
        #expect(recorded.count == snapshot.absent.count && !recorded.isEmpty)
        for a in snapshot.absent { #expect(recorded[a.directory]?.key == a.key && recorded[a.directory]?.names == a.names) }
        // Another directory or environment has a snapshot of its own.
        var elsewhere = settings
        elsewhere.cwd = "/work/app"
        #expect(Snapshot.recordedAbsences(settings: elsewhere).isEmpty)

        // A vouching directory is believed without a look: a name there now is not seen while
        // its key is the one recorded (which an edit in the directory itself always moves).
        try fs.writeAtomically("/work/app/a/.tool-versions", Array("jq 1.6\n".utf8))
        let key = try #require(fs.info("/work/app/a")?.statKey)
        var resolver = Resolver(settings)
        resolver.vouched = ["/work/app/a": (key, [".tool-versions"])]
        #expect(try resolver.resolve().pin("jq")?.request.requirement.description == "1.7.1")
        resolver.vouched = ["/work/app/a": ("another key", [".tool-versions"])]
        #expect(try resolver.resolve().pin("jq")?.request.requirement.description == "1.6")
        // As the snapshot left it: the directory changed since, so it is looked in again.
        resolver.vouched = recorded
        #expect(try resolver.resolve().pin("jq")?.request.requirement.description == "1.6")
    }

    /// An answer's output is stored in one field: `%`, tab, newline and carriage return as
    /// `%XX`, read back byte for byte.
    @Test func answersEscapeAndReadBack() {
        for text in ["", "plain", "1.0.0 (set by ~/a/tack.yml:2)\n", "%", "%%41\t\r\n\n", "é\u{7}%0A", "\n" + String(repeating: "x", count: 300) + "%"] {
            let escaped = Snapshot.escape(text)
            #expect(!escaped.utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }, "\(escaped)")
            #expect(Snapshot.unescape(escaped) == text)
        }
        #expect(Snapshot.escape("a%\tb\n") == "a%25%09b%0A")
    }

    /// An override is a variable whose name is `TACK_…_VERSION` in those very bytes, as the
    /// snapshot's key and the lean reader see it: one spelled with a Kelvin sign (equal to `K`
    /// as a Swift String) is neither applied nor keyed, so no snapshot made with it answers an
    /// environment without it, or the other way round.
    @Test func anOverrideIsTheVariableInTheseBytes() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  kubectl: 1.30.0\n"])
        func resolved(_ env: [String: String]) throws -> (version: String, key: String) {
            let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"].merging(env) { a, _ in a }, cwd: "/work/app", fs: fs, backends: .standard)
            let version = try #require(try Resolver(settings).resolve().pin("kubectl")).request.requirement.description
            return (version, try #require(Snapshot.environmentKey(settings.environment)))
        }
        let plain = try resolved([:])
        #expect(plain.version == "1.30.0")
        let real = try resolved(["TACK_KUBECTL_VERSION": "1.29.0"])
        #expect(real.version == "1.29.0" && real.key != plain.key)
        let kelvin = try resolved(["TACK_\u{212A}UBECTL_VERSION": "1.28.0"])
        // `TACK_\u{212A}UBECTL_VERSION` has the form by bytes: applied, and keyed.
        #expect(kelvin.version == "1.28.0" && kelvin.key != plain.key)
        let other = try resolved(["TAC\u{212A}_KUBECTL_VERSION": "1.27.0"])
        #expect(other.version == "1.30.0" && other.key == plain.key)
    }

    /// The process environment as tack holds it: the first of a name wins, but the name in
    /// plain ASCII wins over another spelling Swift counts as the same String.
    @Test func anASCIINameWinsOverAnEqualSpelling() {
        for order in [[("TAC\u{212A}_HOME", "/kelvin"), ("TACK_HOME", "/t")], [("TACK_HOME", "/t"), ("TAC\u{212A}_HOME", "/kelvin")]] {
            var env: [String: String] = [:]
            for (k, v) in order { CurrentProcess.add(k, v, to: &env) }
            #expect(env.count == 1 && env["TACK_HOME"] == "/t" && env.keys.first.map { Array($0.utf8) } == Array("TACK_HOME".utf8), "\(order)")
        }
        var env: [String: String] = [:]
        CurrentProcess.add("A", "1", to: &env)
        CurrentProcess.add("A", "2", to: &env)
        CurrentProcess.add("caf\u{E9}", "3", to: &env)
        #expect(env == ["A": "1", "caf\u{E9}": "3"])
    }

    @Test func aLargeMappingKeepsEveryKeyInOrderAndDuplicatesNameTheFirst() throws {
        let count = 5000
        let text = (0..<count).map { "k\($0): v\($0)\n" }.joined()
        guard case .mapping(let pairs, _)? = try YAMLParser.parse(Array(text.utf8)) else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.count == count)
        #expect(pairs.enumerated().allSatisfy { i, p in p.key.value == "k\(i)" })
        let dup = "a: 1\nb:\n  - x\n  - y\na: 2\n"
        #expect { try YAMLParser.parse(Array(dup.utf8)) } throws: { ($0 as? YAMLError).map { "\($0)" }?.contains("first set at line 1") == true }
    }

    /// `quoted` writes printable ASCII as it is (the common case, on the cold path for every
    /// JSON string) and escapes everything else as before.
    @Test func quotingIsTheSameFastOrNot() {
        #expect(quoted("jq 1.7.1 (set by ~/app/tack.yml:2)") == "\"jq 1.7.1 (set by ~/app/tack.yml:2)\"")
        #expect(quoted("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(quoted("é\u{7}\t\r\n") == "\"é\\u0007\\t\\r\\n\"")
        #expect(quoted("") == "\"\"")
    }

    /// A directory that has not changed vouches for the names the walk did not find in it: the
    /// snapshot keeps one `absent` record per directory instead of a probe per name, still
    /// holds when something else appears there, and goes stale when one of those names does.
    @Test func anUnchangedDirectoryVouchesForTheNamesItDidNotHold() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  jq: 1.7.1\n", "/work/app/a/b/readme": "x"])
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app/a/b", fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: try resolution.current(settings: settings), executable: nil, reads: nil)
        let here = try #require(snapshot.absent.first { $0.directory == "/work/app/a/b" }, "\(snapshot.absent)")
        #expect(here.names.contains(".tool-versions") && here.names.contains("tack.yml"), "\(here.names)")
        #expect(!snapshot.probes.contains { $0.path == "/work/app/a/b/.tool-versions" }, "no probe per name as well")
        #expect(snapshot.probes.contains { $0.path == "/work/app/tack.yml" && $0.key != "-" })
        #expect(snapshot.save(settings: settings))
        #expect(Snapshot.load(settings: settings) == snapshot)
        // Another name in the directory: its key changed, but none of its names is there.
        try fs.writeAtomically("/work/app/a/b/notes.txt", Array("x".utf8))
        #expect(Snapshot.load(settings: settings) == snapshot, "a name nobody looks for changes nothing")
        // One of its names: stale.
        try fs.writeAtomically("/work/app/a/b/.tool-versions", Array("jq 1.6\n".utf8))
        #expect(Snapshot.load(settings: settings) == nil)
    }

    /// On a file system whose directory times cannot be trusted (NFS, SMB, FUSE) no directory
    /// vouches: every name the walk did not find is a probe of its own.
    @Test func aDirectoryOnANetworkFileSystemVouchesForNothing() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  jq: 1.7.1\n"])
        fs.directoryTimesAreLocal = false
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: try resolution.current(settings: settings), executable: nil, reads: nil)
        #expect(snapshot.absent.isEmpty, "\(snapshot.absent)")
        #expect(snapshot.probes.contains { $0.path == "/work/app/.tool-versions" && $0.key == "-" })
        #if os(Linux)
        #expect(!LocalFileSystem().keepsDirectoryTimes("/proc") && !LocalFileSystem().keepsDirectoryTimes("/no/such/directory"))
        #endif
    }

    /// A name in a subdirectory (`.config/mise.toml`) appears without the directory being read
    /// changing (its `.config` changes): the directory does not vouch for it, so the snapshot
    /// goes stale when it appears (a review of the change found it kept holding).
    @Test func aDirectoryDoesNotVouchForANameInASubdirectory() throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": "tools:\n  jq: 1.7.1\n", "/work/app/.config/other": "x"])
        let settings = Settings(environment: ["HOME": "/h", "TACK_HOME": "/t"], cwd: "/work/app", fs: fs, backends: .standard)
        let resolution = try Resolver(settings).resolve()
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: try resolution.current(settings: settings), executable: nil, reads: nil)
        #expect(!snapshot.absent.contains { $0.names.contains { $0.contains("/") } }, "\(snapshot.absent)")
        #expect(snapshot.save(settings: settings))
        let before = fs.info("/work/app")?.statKey
        try fs.writeAtomically("/work/app/.config/mise.toml", Array("[tools]\nnode = \"20\"\n".utf8))
        #expect(fs.info("/work/app")?.statKey == before, "the project directory itself did not change")
        #expect(Snapshot.load(settings: settings) == nil, "the new mise.toml makes the snapshot stale")
    }

    /// The lean reader decides an `absent` record as TackCore does, on the real file system.
    @Test func bothReadersDecideAnAbsentRecordAlike() throws {
        let dir = try Sandbox()
        try dir.mkdir("d")
        let d = dir.root + "/d"
        let fs = LocalFileSystem()
        let key = try #require(fs.info(d)?.statKey)
        let names = [".nvmrc", ".tool-versions"]
        func lean() -> Bool {
            var bytes = Array(key.utf8) + [0] + Array(d.utf8) + [0]
            for n in names { bytes += Array(n.utf8) + [0] }
            return bytes.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                let directory = base + key.utf8.count + 1
                return LeanSnapshot.absenceHolds(key: base, directory: directory, names: names.count)
            }
        }
        func core() -> Bool { Snapshot.absenceHolds(key: key, directory: d, names: names, fs: fs) }
        #expect(lean() && core(), "unchanged")
        try dir.write("d/other", "x")
        #expect(fs.info(d)?.statKey != key, "the directory's key moved")
        #expect(lean() && core(), "another name changes nothing")
        try dir.write("d/.nvmrc", "20\n")
        #expect(!lean() && !core(), "one of the names appeared")
        // A directory that is gone holds none of its names.
        try FileManager.default.removeItem(atPath: d)
        #expect(lean() && core())
    }
}
