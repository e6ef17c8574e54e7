import Backends
import Foundation
import Git
import Testing
import TackCore

/// Remote repositories from memory, for the git backend in-process.
struct MemoryRemotes: GitRemotes {
    var tags: [String: [RemoteTag]]
    func listTags(_ url: String) async throws(GitError) -> [RemoteTag] {
        guard let t = tags[url] else { throw GitError(message: "no repository at \(url)") }
        return t
    }
    func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] { try await listTags(url) }
    func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String { throw GitError(message: "not here") }
    func clone(_ url: String, into directory: String) async throws(GitError) { throw GitError(message: "not here") }
    func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        throw GitError(message: "not here")
    }
}

/// The effects tack's work goes through: blocking calls off the cooperative pool, git as a
/// value a backend is given. Run on the cooperative pool, not on `TestThreads`: how tack's
/// own code treats that pool is what it tests.
@Suite struct EffectsTests {
    /// More blocking waits than the pool has threads, each released only when all have
    /// started: on the pool this would never finish.
    @Test(.timeLimit(.minutes(1))) func blockingWorkNeverHoldsThePool() async {
        let n = max(8, ProcessInfo.processInfo.activeProcessorCount * 4)
        let started = NSCondition()
        nonisolated(unsafe) var count = 0
        let total = await withTaskGroup(of: Int.self) { group in
            for i in 0..<n {
                group.addTask {
                    await OffPool.run {
                        started.lock()
                        count += 1
                        started.broadcast()
                        while count < n { started.wait() }
                        started.unlock()
                        return i
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(total == n * (n - 1) / 2)
    }

    @Test func typedErrorsComeBackFromTheThread() async {
        await #expect(throws: GitError.self) {
            try await OffPool.run(throwing: { () throws(GitError) -> Int in throw GitError(message: "boom") })
        }
        #expect(await (try? OffPool.run(throwing: { () throws(GitError) -> Int in 7 })) == 7)
    }

    @Test func theGitBackendListsVersionsFromTheRemotesItIsGiven() async throws {
        let url = "https://example.com/hello.git"
        let a = String(repeating: "a", count: 40), b = String(repeating: "b", count: 40), c = String(repeating: "c", count: 40)
        let remotes = MemoryRemotes(tags: [url: [RemoteTag(name: "v1.0.0", commit: a), RemoteTag(name: "1.0.0", commit: b), RemoteTag(name: "2.0.0", commit: c), RemoteTag(name: "nightly", commit: c)]])
        let backend = GitBackend(runner: ChildProcessRunner(), environment: [:], git: remotes)
        let request = ToolRequest(name: "hello", requirement: .latest, source: .git(url), origin: Origin(kind: .manifest, file: "/tack.yml", line: 1, column: 1))
        let versions = try await backend.versions(of: request)
        #expect(versions.map(\.version.text) == ["1.0.0", "2.0.0"])
        #expect(versions.first?.fields["tag"] == .string("1.0.0"), "the tag written without v wins")
        #expect(versions.first?.fields["commit"] == .string(b))
        await #expect(throws: TackError.self) {
            _ = try await GitBackend(runner: ChildProcessRunner(), environment: [:], git: MemoryRemotes(tags: [:])).versions(of: request)
        }
    }
}
