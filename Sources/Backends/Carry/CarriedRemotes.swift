import Git
import TackCore

/// `tack install --from`'s git remotes: each repository answered by its bare copy in the copy
/// (listings, checkouts, fetches, all local), one the copy lacks refused by name.
struct CarriedRemotes: GitRemotes {
    let copy: CopyReader
    let local: any GitRemotes

    func place(_ url: String) throws(GitError) -> String {
        guard let dir = copy.repository(for: url) else {
            throw GitError(message: "the copy at \(copy.label) has no copy of \(URLRedaction.text(url)), and tack installs from the copy with no other network (make the copy again with `tack mirror` from this tack.lock)")
        }
        return dir
    }

    func listTags(_ url: String) async throws(GitError) -> [RemoteTag] { try await local.listTags(try place(url)) }
    func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] { try await local.listRefs(try place(url)) }
    func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String {
        try await local.checkout(try place(url), ref: ref, into: directory)
    }
    func clone(_ url: String, into directory: String) async throws(GitError) { try await local.clone(try place(url), into: directory) }
    func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        try await local.fetch(try place(url), commit: commit, reachableFrom: origin, into: directory, checkout: checkout)
    }
}
