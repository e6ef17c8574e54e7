import Backends
import Foundation
import TackCore
import Testing

/// A copy of a lock, read and written in-process: what it refuses, what it says it lacks, and
/// bytes that do not match its index.
@Suite final class CarriedCopyTests {
    /// This test's directory, removed when it ends.
    let scratch = FileManager.default.temporaryDirectory.path + "/tack-copy-\(UUID().uuidString)"
    deinit { try? FileManager.default.removeItem(atPath: scratch) }

    func directory() throws -> String {
        let dir = scratch + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func entry(_ name: String = "jq", version: String = "1.7.1", backend: String = "url", source: String = "https://dl.example/jq-{version}") -> LockedTool {
        LockedTool(name: name, version: Version("1.7.1")!, requested: "1.7.1", backend: backend, source: source)
    }

    /// A copy with jq's download, made through the writer.
    func copy() async throws -> (root: String, url: String) {
        let root = try directory() + "/copy"
        let writer = try CopyWriter(root: root)
        let url = "https://dl.example/jq-1.7.1"
        let e = entry()
        let kept = await writer.carrying(CopyIndex.Tool(name: e.name, version: "1.7.1", backend: "url", source: e.source)) { () async -> Result<Void, TackError> in
            do throws(TackError) { try writer.keep(url: url, bytes: Array("jq 1.7.1\n".utf8)) } catch { return .failure(error) }
            return .success(())
        }
        try kept.get()
        writer.cover(["linux-x86_64"])
        try writer.finish(made: "2026-11-26T00:00:00Z")
        return (root, url)
    }

    @Test func aCopyAnswersWhatItHoldsAndNothingElse() async throws {
        let (root, url) = try await copy()
        let reader = try CopyReader(root: root)
        let http = BackendEffects(settings: Settings(environment: [:], cwd: "/", fs: LocalFileSystem(), backends: .standard), interpreters: [:],
                                  git: LibGit2Remotes(), limits: .standard, mirrors: .none, copy: .from(reader)).http()
        #expect(try await http.get(url) == Array("jq 1.7.1\n".utf8))
        let out = root + "/out"
        #expect(try await http.download(url, to: out) { _, _ in } == Hashing.sha256(Array("jq 1.7.1\n".utf8)))
        await #expect { try await http.get("https://dl.example/other") } throws: { error in
            (error as? HTTPFailure).map { $0.reason == .notInCopy(url: "https://dl.example/other", copy: reader.label) && $0.status == 404 && !$0.isTransient } ?? false
        }
        #expect(reader.lacks(entry(), platform: "linux-x86_64").isEmpty)
        // A file of the copy changed on the way: refused, never installed.
        let file = try #require(reader.file(for: url)?.path)
        try Data("jq 6.6.6\n".utf8).write(to: URL(fileURLWithPath: file))
        await #expect { try await http.get(url) } throws: { error in
            guard case .damagedInCopy(let damaged, _, _, _)? = (error as? HTTPFailure)?.reason else { return false }
            return damaged == url
        }
        // Cut short: said before installing.
        try Data("jq".utf8).write(to: URL(fileURLWithPath: file))
        #expect(reader.lacks(entry(), platform: "linux-x86_64").first?.contains("is 2 bytes, not 9 — it was cut short or damaged") == true)
        try FileManager.default.removeItem(atPath: file)
        #expect(reader.lacks(entry(), platform: "linux-x86_64").first?.contains("the copy lacks https://dl.example/jq-1.7.1") == true)
    }

    @Test func whatACopyLacksIsSaidByTool() async throws {
        let (root, _) = try await copy()
        let reader = try CopyReader(root: root)
        #expect(reader.lacks(entry("yq"), platform: "linux-x86_64").first?.contains("the copy has nothing for yq 1.7.1") == true)
        #expect(reader.lacks(entry(source: "https://evil.example/jq"), platform: "linux-x86_64").first?.contains("but tack.lock's is from https://evil.example/jq") == true)
        #expect(reader.lacks(entry(), platform: "darwin-arm64").first?.contains("the copy was made for linux-x86_64, not darwin-arm64") == true)
    }

    @Test func aDirectoryThatIsNotACopyIsRefusedAndNothingIsWrittenUntilSomethingIsKept() throws {
        let dir = try directory()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        #expect { try CopyWriter(root: dir) } throws: { ($0 as? TackError)?.message.contains("is not empty and is not a copy") ?? false }
        let fresh = dir + "/new"
        _ = try CopyWriter(root: fresh)
        #expect(!FileManager.default.fileExists(atPath: fresh), "nothing written before something is kept")
        try Data("{\"format\": \"tack-copy/9\"}".utf8).write(to: URL(fileURLWithPath: dir + "/tack-copy.json"))
        #expect { try CopyReader(root: dir) } throws: { ($0 as? TackError)?.message.contains("a copy in the format \"tack-copy/9\"") ?? false }
        try Data("[1, 2".utf8).write(to: URL(fileURLWithPath: dir + "/tack-copy.json"))
        #expect { try CopyReader(root: dir) } throws: { ($0 as? TackError)?.message.contains("is not a copy tack can read") ?? false }
        #expect { try CopyReader(root: fresh) } throws: { ($0 as? TackError)?.message.contains("has no tack-copy.json") ?? false }
        // An index that names places outside the copy is refused whole, and one that names
        // only its own places is read.
        let sum = String(repeating: "a", count: 64)
        let hostile: [(String, Any)] = [("urls", ["https://x": ["sha256": "../../etc/passwd", "size": 1]]), ("repositories", ["https://x": "../../home/me/repo"]),
                                        ("repositories", ["https://x": "git/../../x.git"]), ("wheels", ["../evil.whl": ["sha256": sum, "size": 1]]),
                                        ("gems", [".hidden.gem": ["sha256": sum, "size": 1]]), ("urls", ["https://x": ["sha256": sum.uppercased(), "size": 1]])]
        for (key, value) in hostile + [("urls", ["https://x": ["sha256": sum, "size": 1]])] {
            var index: [String: Any] = ["format": "tack-copy/1", "tack": "0", "made": "", "platforms": [String](), "tools": [Any](), "urls": [String: Any](),
                                        "repositories": [String: Any](), "wheels": [String: Any](), "gems": [String: Any](), "builds": [String: Any]()]
            index[key] = value
            try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: dir + "/tack-copy.json"))
            if (value as? [String: [String: Any]])?["https://x"]?["sha256"] as? String == sum {
                #expect(throws: Never.self) { try CopyReader(root: dir) }
            } else {
                #expect { try CopyReader(root: dir) } throws: { ($0 as? TackError)?.message.contains("names a file outside the copy") ?? false }
            }
        }
    }

    @Test func aCopysNameOnARegistryAndThePathsItMayWrite() {
        let r = CopyRegistry.Reference("oci://registry.corp:5000/tack/copy:2026-11")
        #expect(r?.repository.registry == "registry.corp:5000" && r?.repository.namespace == "tack/copy" && r?.tag == "2026-11")
        #expect(CopyRegistry.Reference("oci://localhost:5000/copies")?.tag == "latest")
        for bad in ["oci://r.corp", "oci://r.corp/UPPER", "oci://r.corp/x:-bad", "oci://r.corp/x:a/b", "https://r.corp/x", "oci:///x"] {
            #expect(CopyRegistry.Reference(bad) == nil, "\(bad)")
        }
        for safe in ["files/abc", "git/x.git/refs/tags/v1", "wheels/a-1.0-py3-none-any.whl"] { #expect(CopyRegistry.isSafe(safe), "\(safe)") }
        for unsafe in ["../x", "/etc/passwd", "files/../../x", "files//x", "", "./x", "tack-copy.json", "a\\b"] { #expect(!CopyRegistry.isSafe(unsafe), "\(unsafe)") }
    }
}
