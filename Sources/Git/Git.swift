import CGit2

public struct GitError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    /// The last libgit2 error, with what tack was doing.
    static func last(_ doing: String) -> GitError {
        if let e = git_error_last(), let m = e.pointee.message {
            return GitError(message: "\(doing): \(String(cString: m))")
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

    /// The full SHA of HEAD.
    public func headCommit() throws(GitError) -> String {
        var oid = git_oid()
        guard git_reference_name_to_id(&oid, handle, "HEAD") == 0 else { throw GitError.last("reading HEAD of \(path)") }
        var buf = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buf, buf.count, &oid)
        return String(cString: buf)
    }
}
