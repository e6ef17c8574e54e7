/// What tack does with remote git repositories, as an effect passed to those that need it
/// (the git and asdf backends, registries), so tests can give their own. `LibGit2Remotes` in
/// Backends is the real one.
public protocol GitRemotes: Sendable {
    /// The repository's tags, each with the commit it names, without cloning.
    func listTags(_ url: String) async throws(GitError) -> [RemoteTag]
    /// The repository's branches and tags, each with its commit, without cloning.
    func listRefs(_ url: String) async throws(GitError) -> [RemoteTag]
    /// Fetches `ref` and checks it out into `directory`; the commit checked out.
    func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String
    /// Clones the default branch into `directory`.
    func clone(_ url: String, into directory: String) async throws(GitError)
    /// Fetches `commit` (which `origin` must reach) into `directory`, checked out if asked.
    func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError)
    /// A bare copy of the repository at `directory`, every branch and tag, HEAD on the default
    /// branch (`tack mirror`); brought up to date when there already.
    func mirror(_ url: String, into directory: String) async throws(GitError)
}

extension GitRemotes {
    public func mirror(_ url: String, into directory: String) async throws(GitError) {
        throw GitError(message: "cannot copy \(url): these remotes make no copies")
    }
}
