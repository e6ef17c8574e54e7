import CGit2

public struct GitError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// TLS failed: most often a certificate no trusted authority signed.
    public var isTLS = false
    public var description: String { message }

    public init(message: String, isTLS: Bool = false) {
        self.message = message
        self.isTLS = isTLS
    }

    /// The last libgit2 error, with what tack was doing.
    static func last(_ doing: String) -> GitError {
        if let e = git_error_last(), let m = e.pointee.message {
            return GitError(message: "\(doing): \(String(cString: m))", isTLS: e.pointee.klass == Int32(GIT_ERROR_SSL.rawValue))
        }
        return GitError(message: doing)
    }
}

/// libgit2, initialised once for the process.
public enum Git {
    private static let initialised: Bool = git_libgit2_init() > 0

    static func ensureInitialised() throws(GitError) {
        guard initialised else { throw GitError(message: "libgit2 failed to initialise") }
    }

    /// The certificate authorities libgit2's HTTPS trusts instead of the system's: a PEM file,
    /// a directory of them, or both (`SSL_CERT_FILE`, `TACK_CA_BUNDLE`, `SSL_CERT_DIR`). For
    /// the whole process, as libgit2 keeps it.
    public static func trustCertificates(file: String?, directory: String?) throws(GitError) {
        try ensureInitialised()
        guard file != nil || directory != nil else { return }
        guard tack_git_set_ssl_cert_locations(file, directory) == 0 else {
            throw GitError.last("trusting the certificate authorities in \(file ?? directory ?? "")")
        }
    }

    /// `1.5.1`, the version of the libgit2 tack is linked with.
    public static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        git_libgit2_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}

/// A git configuration: the user's (global, XDG and system files) or a repository's.
public final class GitConfig {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { git_config_free(handle) }

    /// The configuration git itself would use outside any repository.
    public static func user() throws(GitError) -> GitConfig {
        try Git.ensureInitialised()
        var out: OpaquePointer?
        guard git_config_open_default(&out) == 0, let out else { throw GitError.last("reading git configuration") }
        return GitConfig(out)
    }

    public func string(_ key: String) -> String? {
        var snapshot: OpaquePointer?
        guard git_config_snapshot(&snapshot, handle) == 0, let snapshot else { return nil }
        defer { git_config_free(snapshot) }
        var value: UnsafePointer<CChar>?
        guard git_config_get_string(&value, snapshot, key) == 0, let value else { return nil }
        return String(cString: value)
    }
}

public final class GitRepository {
    let handle: OpaquePointer
    public let path: String

    init(_ handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }
    deinit { git_repository_free(handle) }

    public static func open(_ path: String) throws(GitError) -> GitRepository {
        try Git.ensureInitialised()
        var out: OpaquePointer?
        guard git_repository_open(&out, path) == 0, let out else { throw GitError.last("opening the git repository at \(path)") }
        return GitRepository(out, path: path)
    }

    public func config() throws(GitError) -> GitConfig {
        var out: OpaquePointer?
        guard git_repository_config(&out, handle) == 0, let out else { throw GitError.last("reading \(path)/.git/config") }
        return GitConfig(out)
    }

    /// A new repository at `path` (its directory must exist), with `branch` as the initial branch.
    public static func create(_ path: String, branch: String = "main") throws(GitError) -> GitRepository {
        try Git.ensureInitialised()
        var options = git_repository_init_options()
        git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION))
        options.flags = UInt32(GIT_REPOSITORY_INIT_MKPATH.rawValue)
        var out: OpaquePointer?
        let status = branch.withCString { b -> Int32 in
            options.initial_head = b
            return git_repository_init_ext(&out, path, &options)
        }
        guard status == 0, let out else { throw GitError.last("creating a git repository in \(path)") }
        return GitRepository(out, path: path)
    }

    /// Stages every file in the work tree (as `git add -A`, honouring .gitignore) and commits
    /// it as the first commit, by `name` <`email`>. Returns the commit's SHA.
    public func commitAll(message: String, author: (name: String, email: String), committer: (name: String, email: String)) throws(GitError) -> String {
        var index: OpaquePointer?
        guard git_repository_index(&index, handle) == 0, let index else { throw GitError.last("opening the index of \(path)") }
        defer { git_index_free(index) }
        var all = git_strarray()
        guard git_index_add_all(index, &all, 0, nil, nil) == 0, git_index_write(index) == 0 else { throw GitError.last("adding the files of \(path)") }
        var tree = git_oid()
        guard git_index_write_tree(&tree, index) == 0 else { throw GitError.last("writing the tree of \(path)") }
        var treeObject: OpaquePointer?
        guard git_tree_lookup(&treeObject, handle, &tree) == 0, let treeObject else { throw GitError.last("reading the tree of \(path)") }
        defer { git_tree_free(treeObject) }
        var signature: UnsafeMutablePointer<git_signature>?
        guard git_signature_now(&signature, author.name, author.email) == 0, let signature else { throw GitError.last("making the signature \(author.name) <\(author.email)>") }
        defer { git_signature_free(signature) }
        var committerSignature: UnsafeMutablePointer<git_signature>?
        guard git_signature_now(&committerSignature, committer.name, committer.email) == 0, let committerSignature else {
            throw GitError.last("making the signature \(committer.name) <\(committer.email)>")
        }
        defer { git_signature_free(committerSignature) }
        var commit = git_oid()
        let parents: [OpaquePointer?] = []
        let status = parents.withUnsafeBufferPointer { p in
            git_commit_create(&commit, handle, "HEAD", signature, committerSignature, "UTF-8", message, treeObject, 0, UnsafeMutablePointer(mutating: p.baseAddress))
        }
        guard status == 0 else { throw GitError.last("committing in \(path)") }
        var buf = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buf, buf.count, &commit)
        return String(cString: buf)
    }

    /// Tracked files whose content differs from HEAD (changed, deleted, or with a new type),
    /// in the index or the work tree; untracked and ignored files are not counted.
    public func modifiedFiles() throws(GitError) -> [String] {
        var options = git_status_options()
        git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION))
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = 0
        var list: OpaquePointer?
        guard git_status_list_new(&list, handle, &options) == 0, let list else { throw GitError.last("reading the status of \(path)") }
        defer { git_status_list_free(list) }
        var out: [String] = []
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i) else { continue }
            let delta = entry.pointee.index_to_workdir ?? entry.pointee.head_to_index
            guard let delta, let p = delta.pointee.old_file.path ?? delta.pointee.new_file.path else { continue }
            out.append(String(cString: p))
        }
        return out.sorted()
    }

    /// The full SHA of HEAD.
    public func headCommit() throws(GitError) -> String {
        var oid = git_oid()
        guard git_reference_name_to_id(&oid, handle, "HEAD") == 0 else { throw GitError.last("reading HEAD of \(path)") }
        var buf = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buf, buf.count, &oid)
        return String(cString: buf)
    }
}
