import CGit2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tag on a remote, as `git ls-remote --tags` shows it.
public struct RemoteTag: Sendable, Hashable {
    public var name: String
    /// The commit the tag points at (annotated tags peeled).
    public var commit: String

    public init(name: String, commit: String) {
        self.name = name
        self.commit = commit
    }
}

extension Git {
    /// Applies `url.<base>.insteadOf` from the user's git configuration, longest match first,
    /// as git does. libgit2 applies it only to remotes it creates on a repository, so tack does
    /// it itself for every URL it reaches.
    public static func rewrite(_ url: String) -> String {
        guard let config = try? GitConfig.user() else { return url }
        return config.rewrite(url)
    }

    /// libgit2's proxy options: through `proxy` (its URL), or none. The URL's copy is
    /// `Proxy`'s to free.
    final class Proxy {
        var options = git_proxy_options()
        private let text: UnsafeMutablePointer<CChar>?

        init(_ proxy: String?) {
            git_proxy_options_init(&options, UInt32(GIT_PROXY_OPTIONS_VERSION))
            text = proxy.flatMap { strdup($0) }
            if let text {
                options.type = GIT_PROXY_SPECIFIED
                options.url = UnsafePointer(text)
            }
        }

        deinit { free(text) }
    }

    /// Lists a remote's tags without cloning it.
    public static func listTags(_ url: String, proxy: String? = nil) throws(GitError) -> [RemoteTag] {
        try listRefs(url, proxy: proxy).compactMap { $0.name.hasPrefix("refs/tags/") ? RemoteTag(name: String($0.name.dropFirst(10)), commit: $0.commit) : nil }
    }

    /// Lists a remote's branches and tags (`refs/heads/…`, `refs/tags/…`) with the commit each
    /// points to (annotated tags peeled), without cloning it.
    public static func listRefs(_ url: String, proxy: String? = nil) throws(GitError) -> [RemoteTag] {
        try ensureInitialised()
        let actual = rewrite(url)
        var remote: OpaquePointer?
        guard git_remote_create_detached(&remote, actual) == 0, let remote else {
            throw GitError.last("reaching \(url)")
        }
        defer { git_remote_free(remote) }
        var callbacks = git_remote_callbacks()
        git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
        let through = Proxy(proxy)
        guard git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, &through.options, nil) == 0 else {
            throw GitError.last("listing the tags of \(url)")
        }
        defer { git_remote_disconnect(remote) }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        guard git_remote_ls(&heads, &count, remote) == 0, let heads else {
            throw GitError.last("listing the tags of \(url)")
        }
        var direct: [String: String] = [:]
        var peeled: [String: String] = [:]
        for i in 0..<count {
            guard let head = heads[i]?.pointee else { continue }
            let name = String(cString: head.name)
            guard name.hasPrefix("refs/tags/") || name.hasPrefix("refs/heads/") else { continue }
            var oid = head.oid
            let sha = oidString(&oid)
            if name.hasSuffix("^{}") {
                peeled[String(name.dropLast(3))] = sha
            } else {
                direct[name] = sha
            }
        }
        return direct.keys.sorted().map { RemoteTag(name: $0, commit: peeled[$0] ?? direct[$0]!) }
    }

    /// Fetches one ref (a tag, a branch, or a commit SHA) of `url` into a new repository at
    /// `directory` and checks it out. Returns the commit checked out.
    public static func checkout(_ url: String, ref: String, into directory: String, proxy: String? = nil) throws(GitError) -> String {
        try withNewRepository(directory, remote: url) { (repo, remote) throws(GitError) -> String in
            try checkout(url, ref: ref, repo: repo, remote: remote, proxy: Proxy(proxy))
        }
    }

    /// A new repository at `directory` with an anonymous remote for `url` (its `insteadOf`
    /// applied), both freed when `body` returns: where every fetch tack makes starts.
    static func withNewRepository<T>(_ directory: String, remote url: String, _ body: (OpaquePointer, OpaquePointer) throws(GitError) -> T) throws(GitError) -> T {
        try ensureInitialised()
        var repo: OpaquePointer?
        guard git_repository_init(&repo, directory, 0) == 0, let repo else {
            throw GitError.last("creating a repository in \(directory)")
        }
        defer { git_repository_free(repo) }
        var remote: OpaquePointer?
        guard git_remote_create_anonymous(&remote, repo, rewrite(url)) == 0, let remote else {
            throw GitError.last("reaching \(url)")
        }
        defer { git_remote_free(remote) }
        return try body(repo, remote)
    }

    static func checkout(_ url: String, ref: String, repo: OpaquePointer, remote: OpaquePointer, proxy: Proxy) throws(GitError) -> String {
        let isSHA = ref.count == 40 && ref.allSatisfy(\.isHexDigit)
        var options = git_fetch_options()
        git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.proxy_opts = proxy.options
        if isSHA {
            // Servers need not serve a bare commit; every branch and tag is reachable to all.
            let specs = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"]
            guard withStrArray(specs, { git_remote_fetch(remote, $0, &options, nil) }) == 0 else {
                throw GitError.last("fetching \(url)")
            }
            return try checkoutCommit(repo, spec: ref, url: url)
        }
        let refspec = ref.hasPrefix("refs/") ? "+\(ref):\(ref)" : "+refs/tags/\(ref):refs/tags/\(ref)"
        let fetched: Int32 = withStrArray([refspec]) { specs in git_remote_fetch(remote, specs, &options, nil) }
        if fetched != 0 {
            // Not a tag: try it as a branch.
            guard !isSHA, !ref.hasPrefix("refs/") else { throw GitError.last("fetching \(ref) from \(url)") }
            let branch = "+refs/heads/\(ref):refs/heads/\(ref)"
            let again: Int32 = withStrArray([branch]) { specs in git_remote_fetch(remote, specs, &options, nil) }
            guard again == 0 else {
                // Neither fetched: say whether the repository or the ref is what is missing.
                guard git_remote_connect(remote, GIT_DIRECTION_FETCH, nil, &proxy.options, nil) == 0 else {
                    throw GitError.last("cannot reach the repository \(url)")
                }
                git_remote_disconnect(remote)
                throw GitError(message: "\(url) has no tag or branch `\(ref)`")
            }
            return try checkoutCommit(repo, spec: "refs/heads/\(ref)", url: url)
        }
        return try checkoutCommit(repo, spec: isSHA ? ref : (ref.hasPrefix("refs/") ? ref : "refs/tags/\(ref)"), url: url)
    }

    static func checkoutCommit(_ repo: OpaquePointer, spec: String, url: String) throws(GitError) -> String {
        var object: OpaquePointer?
        guard git_revparse_single(&object, repo, spec + "^{commit}") == 0, let object else {
            throw GitError.last("finding \(spec) in \(url)")
        }
        defer { git_object_free(object) }
        var checkout = git_checkout_options()
        git_checkout_options_init(&checkout, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
        checkout.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
        guard git_checkout_tree(repo, object, &checkout) == 0 else { throw GitError.last("checking out \(spec)") }
        guard let oid = git_object_id(object) else { throw GitError.last("reading \(spec)") }
        guard git_repository_set_head_detached(repo, oid) == 0 else { throw GitError.last("checking out \(spec)") }
        var copy = oid.pointee
        return oidString(&copy)
    }

    static func oidString(_ oid: inout git_oid) -> String {
        var buf = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buf, buf.count, &oid)
        return String(cString: buf)
    }

    static func withStrArray<T>(_ strings: [String], _ body: (UnsafePointer<git_strarray>) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buf in
            var array = git_strarray(strings: buf.baseAddress, count: buf.count)
            return body(&array)
        }
    }
}

extension GitConfig {
    /// `url.<base>.insteadOf` rewriting, longest prefix first.
    public func rewrite(_ url: String) -> String {
        var best: (prefix: String, base: String)?
        var iterator: OpaquePointer?
        guard git_config_iterator_glob_new(&iterator, handle, "^url\\..*\\.insteadof$") == 0, let iterator else { return url }
        defer { git_config_iterator_free(iterator) }
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let e = entry {
            let name = String(cString: e.pointee.name)  // url.<base>.insteadof
            let prefix = String(cString: e.pointee.value)
            let base = String(name.dropFirst(4).dropLast(10))
            if url.hasPrefix(prefix), prefix.count > (best?.prefix.count ?? -1) { best = (prefix, base) }
        }
        guard let best else { return url }
        return best.base + url.dropFirst(best.prefix.count)
    }
}

extension Git {
    /// Clones `url` (its default branch) into `directory`, honouring `insteadOf`.
    public static func clone(_ url: String, into directory: String, proxy: String? = nil) throws(GitError) {
        try ensureInitialised()
        var repo: OpaquePointer?
        var options = git_clone_options()
        git_clone_options_init(&options, UInt32(GIT_CLONE_OPTIONS_VERSION))
        let through = Proxy(proxy)
        options.fetch_opts.proxy_opts = through.options
        let cloned = git_clone(&repo, rewrite(url), directory, &options)
        withExtendedLifetime(through) {}
        guard cloned == 0, let repo else {
            throw GitError.last("cloning \(url)")
        }
        git_repository_free(repo)
    }
}

/// Where a locked commit must come from: what tack fetches to check that a commit a lock names
/// is one the pin's source really published.
public enum CommitOrigin: Sendable, Equatable {
    /// A `ref:` pin's branch or tag (`main`, `v2-beta`) or full ref name (`refs/heads/main`).
    case ref(String)
    /// An asdf plugin's default branch, or any of its tags (a release).
    case defaultBranchOrTags
}

extension Git {
    /// Whether `text` is a full commit id (40 hex digits): what a lock may name as a commit.
    public static func isCommitID(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
    }

    /// Fetches what `origin` names from `url` into a new repository at `directory`, checks that
    /// `commit` (a full commit id) is one of those refs' commits or an ancestor of one, and
    /// checks it out when `checkout` is set. A commit the origin does not reach (a pull
    /// request's head, another branch, a commit that was never pushed) is refused, so a lock
    /// cannot choose code its pin's source never published there.
    public static func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool, proxy: String? = nil) throws(GitError) {
        guard isCommitID(commit) else { throw GitError(message: "`\(commit)` is not a full commit id") }
        try withNewRepository(directory, remote: url) { (repo, remote) throws(GitError) in
            try fetch(url, commit: commit, reachableFrom: origin, repo: repo, remote: remote, checkout: checkout, proxy: proxy)
        }
    }

    static func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, repo: OpaquePointer, remote: OpaquePointer, checkout: Bool, proxy: String?) throws(GitError) {
        let through = Proxy(proxy)
        let (specs, described) = try fetchSpecs(url, origin: origin, remote: remote, proxy: through, proxyURL: proxy)
        var options = git_fetch_options()
        git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
        options.proxy_opts = through.options
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        guard withStrArray(specs, { git_remote_fetch(remote, $0, &options, nil) }) == 0 else {
            throw GitError.last("fetching \(url)")
        }
        var wanted = git_oid()
        guard git_oid_fromstr(&wanted, commit.lowercased()) == 0 else { throw GitError(message: "`\(commit)` is not a full commit id") }
        guard try fetchedRefsReach(&wanted, repo: repo, url: url) else {
            throw GitError(message: "commit \(commit.lowercased()) is not on \(described) of \(url)")
        }
        if checkout { _ = try checkoutCommit(repo, spec: commit.lowercased(), url: url) }
    }

    /// The refspecs that fetch what `origin` allows (into `refs/tack/`), and how to name it.
    static func fetchSpecs(_ url: String, origin: CommitOrigin, remote: OpaquePointer, proxy: Proxy, proxyURL: String?) throws(GitError) -> ([String], String) {
        switch origin {
        case .ref(let ref):
            if ref.hasPrefix("refs/") { return (["+\(ref):refs/tack/0"], "`\(ref)`") }
            let refs = try listRefs(url, proxy: proxyURL)
            if refs.contains(where: { $0.name == "refs/tags/\(ref)" }) { return (["+refs/tags/\(ref):refs/tack/0"], "`\(ref)`") }
            if refs.contains(where: { $0.name == "refs/heads/\(ref)" }) { return (["+refs/heads/\(ref):refs/tack/0"], "`\(ref)`") }
            throw GitError(message: "\(url) has no branch or tag `\(ref)`")
        case .defaultBranchOrTags:
            var callbacks = git_remote_callbacks()
            git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
            guard git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, &proxy.options, nil) == 0 else {
                throw GitError.last("reaching \(url)")
            }
            var buf = git_buf()
            let found = git_remote_default_branch(&buf, remote)
            let branch = found == 0 && buf.ptr != nil ? String(cString: buf.ptr) : nil
            git_buf_dispose(&buf)
            git_remote_disconnect(remote)
            guard let branch, branch.hasPrefix("refs/heads/") else { throw GitError(message: "\(url) names no default branch") }
            return (["+\(branch):refs/tack/0", "+refs/tags/*:refs/tack/tags/*"], "its default branch (\(branch.dropFirst(11))) or a tag")
        }
    }

    /// Whether `wanted` is one of the fetched refs' commits (under `refs/tack/`) or an
    /// ancestor of one.
    static func fetchedRefsReach(_ wanted: inout git_oid, repo: OpaquePointer, url: String) throws(GitError) -> Bool {
        var names = git_strarray()
        guard git_reference_list(&names, repo) == 0 else { throw GitError.last("reading what was fetched from \(url)") }
        defer { git_strarray_dispose(&names) }
        for i in 0..<names.count {
            guard let cName = names.strings[i] else { continue }
            let name = String(cString: cName)
            guard name.hasPrefix("refs/tack/") else { continue }
            var object: OpaquePointer?
            guard git_revparse_single(&object, repo, name + "^{commit}") == 0, let object else { continue }
            defer { git_object_free(object) }
            guard let tip = git_object_id(object) else { continue }
            if git_oid_equal(tip, &wanted) != 0 || git_graph_descendant_of(repo, tip, &wanted) == 1 { return true }
        }
        return false
    }
}

extension Git {
    /// A bare copy of `url` at `directory`: every branch and tag under its own name, and HEAD
    /// on the remote's default branch, so the copy answers listings, checkouts and fetches as
    /// the remote would (`git clone --mirror`, branches and tags only). A copy already there
    /// is brought up to date.
    public static func mirror(_ url: String, into directory: String, proxy: String? = nil) throws(GitError) {
        try ensureInitialised()
        var repo: OpaquePointer?
        let opened = git_repository_open_bare(&repo, directory) == 0 ? true : git_repository_init(&repo, directory, 1) == 0
        guard opened, let repo else { throw GitError.last("creating a repository in \(directory)") }
        defer { git_repository_free(repo) }
        var remote: OpaquePointer?
        guard git_remote_create_anonymous(&remote, repo, rewrite(url)) == 0, let remote else {
            throw GitError.last("reaching \(url)")
        }
        defer { git_remote_free(remote) }
        let through = Proxy(proxy)
        var callbacks = git_remote_callbacks()
        git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
        guard git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, &through.options, nil) == 0 else {
            throw GitError.last("reaching \(url)")
        }
        var buf = git_buf()
        let branch = git_remote_default_branch(&buf, remote) == 0 && buf.ptr != nil ? String(cString: buf.ptr) : nil
        git_buf_dispose(&buf)
        git_remote_disconnect(remote)
        var options = git_fetch_options()
        git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
        options.proxy_opts = through.options
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.prune = GIT_FETCH_PRUNE
        let specs = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]
        guard withStrArray(specs, { git_remote_fetch(remote, $0, &options, nil) }) == 0 else {
            throw GitError.last("fetching \(url)")
        }
        withExtendedLifetime(through) {}
        if let branch, branch.hasPrefix("refs/heads/") {
            guard git_repository_set_head(repo, branch) == 0 else { throw GitError.last("setting HEAD of \(directory) to \(branch)") }
        }
    }
}
