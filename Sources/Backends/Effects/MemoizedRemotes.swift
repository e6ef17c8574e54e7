import Git
import TackCore

/// A remote's listings asked once per command: the tags of a repository that planning the lock
/// listed are the ones installing checks the locked commit against, not listed again. Fetches
/// and clones always go to the remote; a listing that failed is asked again.
public final class MemoizedRemotes: GitRemotes, @unchecked Sendable {
    let remotes: any GitRemotes
    private let mutex = PThreadMutex()
    private var tags: [String: [RemoteTag]] = [:]
    private var refs: [String: [RemoteTag]] = [:]

    public init(_ remotes: any GitRemotes) { self.remotes = remotes }

    public func listTags(_ url: String) async throws(GitError) -> [RemoteTag] {
        if let known = mutex.locked({ tags[url] }) { return known }
        let listed = try await remotes.listTags(url)
        mutex.locked { tags[url] = listed }
        return listed
    }

    public func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] {
        if let known = mutex.locked({ refs[url] }) { return known }
        let listed = try await remotes.listRefs(url)
        mutex.locked { refs[url] = listed }
        return listed
    }

    public func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String {
        try await remotes.checkout(url, ref: ref, into: directory)
    }

    public func clone(_ url: String, into directory: String) async throws(GitError) {
        try await remotes.clone(url, into: directory)
    }

    public func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        try await remotes.fetch(url, commit: commit, reachableFrom: origin, into: directory, checkout: checkout)
    }

    public func mirror(_ url: String, into directory: String) async throws(GitError) {
        try await remotes.mirror(url, into: directory)
    }
}
