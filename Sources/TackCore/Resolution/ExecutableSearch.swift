#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Finding a program by name on a PATH, one rule for every caller (the backends' `ruby`, `uv`
/// and `python3`, the process runner, credential helpers, bootstrap's `sudo`, and a shim's
/// next command): each non-empty directory in order, relative ones taken from `directory`;
/// the first regular file there this process may execute; directories in `skipping` (tack's
/// shims) passed over, and any candidate `accept` refuses. A name with a slash is a path.
public struct ExecutableSearch: Sendable {
    /// The PATH a process gets when its environment has none.
    public static let defaultPath = "/usr/bin:/bin"

    public var directories: [String]
    public var skipping: Set<String>

    /// `path` is a PATH value (nil: the default). When `directory` is given, relative entries
    /// are resolved against it and every entry is normalised (so `skipping` matches
    /// `/a/shims/` and `/a/./shims` alike).
    public init(path: String?, skipping: Set<String> = [], directory: String? = nil) {
        let entries = (path ?? Self.defaultPath).split(separator: ":").map(String.init)
        directories = entries.map { entry in
            guard let directory else { return entry }
            return Paths.normalize(entry.hasPrefix("/") ? entry : Paths.join(directory, entry))
        }
        self.skipping = skipping
    }

    /// The search an environment's PATH gives.
    public init(environment: [String: String], skipping: Set<String> = [], directory: String? = nil) {
        self.init(path: environment["PATH"], skipping: skipping, directory: directory)
    }

    /// The first `name` on the path that `accept` takes, or nil.
    public func find(_ name: String, accept: (String) -> Bool = { _ in true }) -> String? {
        if name.contains("/") { return Self.isExecutable(name) && accept(name) ? name : nil }
        guard !name.isEmpty else { return nil }
        for dir in directories where !dir.isEmpty && !skipping.contains(dir) {
            let candidate = Paths.child(dir, name)
            if Self.isExecutable(candidate) && accept(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` (links followed) is a regular file this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { return false }
        return access(path, X_OK) == 0
    }
}
