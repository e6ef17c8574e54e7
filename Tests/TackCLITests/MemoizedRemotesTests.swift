import Backends
import Git
import TackCore
import Testing

/// A remote's listings are asked once per command (issue 45: one install listed one remote's
/// tags up to three times); a failed listing is asked again, and fetches always go out.
@Suite struct MemoizedRemotesTests {
    final class Counting: GitRemotes, @unchecked Sendable {
        let mutex = PThreadMutex()
        var listings = 0
        var fails = true
        func listTags(_ url: String) async throws(GitError) -> [RemoteTag] {
            let failing = mutex.locked { () -> Bool in
                listings += 1
                return url.hasSuffix("flaky") && fails
            }
            if failing {
                mutex.locked { fails = false }
                throw GitError(message: "the server went away")
            }
            return [RemoteTag(name: "1.0.0", commit: String(repeating: "a", count: 40))]
        }
        func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] { try await listTags(url) }
        func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String { throw GitError(message: "not here") }
        func clone(_ url: String, into directory: String) async throws(GitError) { throw GitError(message: "not here") }
        func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
            throw GitError(message: "not here")
        }
    }

    @Test func eachRemoteIsListedOnceAndAFailureIsAskedAgain() async throws {
        let counting = Counting()
        let remotes = MemoizedRemotes(counting)
        let first = try await remotes.listTags("https://example.org/a.git")
        let again = try await remotes.listTags("https://example.org/a.git")
        #expect(first == again && counting.listings == 1)
        _ = try await remotes.listTags("https://example.org/b.git")
        #expect(counting.listings == 2)
        _ = try await remotes.listRefs("https://example.org/a.git")
        #expect(counting.listings == 3, "branches and tags are another listing")
        await #expect(throws: GitError.self) { try await remotes.listTags("https://example.org/flaky") }
        _ = try await remotes.listTags("https://example.org/flaky")
        #expect(counting.listings == 5, "a failed listing is not kept")
        await #expect(throws: GitError.self) { _ = try await remotes.checkout("https://example.org/a.git", ref: "refs/tags/1.0.0", into: "/nowhere") }
    }
}
