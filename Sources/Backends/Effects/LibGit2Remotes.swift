import Git
import TackCore

/// Remote repositories through libgit2, each call on a thread of its own (`OffPool`): a
/// fetch that waits on a slow server never holds a thread of the cooperative pool.
public struct LibGit2Remotes: GitRemotes {
    /// Where each call to a remote is said, for `-v`.
    let trace: Trace
    /// The proxy for each URL (and NO_PROXY), as the context's environment says.
    let network: NetworkSettings

    public init(trace: Trace = .off, network: NetworkSettings = NetworkSettings(environment: [:])) {
        self.trace = trace
        self.network = network
    }

    public func listTags(_ url: String) async throws(GitError) -> [RemoteTag] {
        trace("listing the tags of \(URLRedaction.text(url))")
        return try await OffPool.run { () throws(GitError) in try Git.listTags(url, proxy: network.proxy(for: Git.rewrite(url))) }
    }

    public func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] {
        trace("listing the branches and tags of \(URLRedaction.text(url))")
        return try await OffPool.run { () throws(GitError) in try Git.listRefs(url, proxy: network.proxy(for: Git.rewrite(url))) }
    }

    public func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String {
        trace("fetching \(ref) of \(URLRedaction.text(url))")
        return try await OffPool.run { () throws(GitError) in try Git.checkout(url, ref: ref, into: directory, proxy: network.proxy(for: Git.rewrite(url))) }
    }

    public func clone(_ url: String, into directory: String) async throws(GitError) {
        trace("cloning \(URLRedaction.text(url))")
        try await OffPool.run { () throws(GitError) in try Git.clone(url, into: directory, proxy: network.proxy(for: Git.rewrite(url))) }
    }

    public func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        trace("fetching commit \(commit) of \(URLRedaction.text(url))")
        try await OffPool.run { () throws(GitError) in
            try Git.fetch(url, commit: commit, reachableFrom: origin, into: directory, checkout: checkout, proxy: network.proxy(for: Git.rewrite(url)))
        }
    }

    public func mirror(_ url: String, into directory: String) async throws(GitError) {
        trace("copying every branch and tag of \(URLRedaction.text(url))")
        try await OffPool.run { () throws(GitError) in try Git.mirror(url, into: directory, proxy: network.proxy(for: Git.rewrite(url))) }
    }
}
