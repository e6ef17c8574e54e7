#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// An error a user reads: one line saying what is wrong, where it came from, and what to do.
public struct TackError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The command line asked for something that cannot be (a name that clashes with a
    /// template's module), found only once the command ran: said as a usage error, exit 2.
    public var isUsage = false
    /// What went wrong as a case, where the area has one: what tests match, rather than the
    /// words (`message`, rendered from it in one place).
    public var cause: Cause?
    public init(_ message: String) { self.message = message }

    /// The areas whose errors are cases.
    public enum Cause: Sendable, Equatable {
        /// What a project file chose does not run or apply until it is trusted.
        case trust(TrustRefusal)
        /// What --frozen cannot check against tack.lock.
        case frozen(FrozenRefusal)
        /// A pin that has no version tack can lock or run.
        case resolution(ResolutionFailure)
        /// An install stopped on what it fetched.
        case install(InstallFailure)
        #if !hasFeature(Embedded)
        /// A download of `url` (redacted) failed, for `HTTPFailure.Reason`. (Not in the Embedded
        /// `tack`, which fetches nothing.)
        case fetch(url: String, HTTPFailure.Reason)
        #endif
    }

    /// A --frozen refusal, in its words (`FrozenRefusal.message`).
    public init(_ refusal: FrozenRefusal) {
        message = refusal.message
        cause = .frozen(refusal)
    }

    /// A trust refusal, in its words (`TrustRefusal.message`).
    public init(_ refusal: TrustRefusal, home: String?) {
        message = refusal.message(home: home)
        cause = .trust(refusal)
    }

    /// A usage error found while the command runs.
    public static func usage(_ message: String) -> TackError {
        var e = TackError(message)
        e.isUsage = true
        return e
    }

    /// `file:line:column: message`, the form editors and terminals make clickable.
    public static func at(_ file: String, _ line: Int, _ column: Int?, _ message: String) -> TackError {
        if let column { return TackError("\(file):\(line):\(column): \(message)") }
        return TackError("\(file):\(line): \(message)")
    }
    public var description: String { message }
}

extension TackError {
    /// Why the working directory cannot be read: removed under the shell, a path longer than
    /// PATH_MAX, or unreadable.
    public static var noWorkingDirectory: TackError {
        errno = 0
        if let long = getcwd(nil, 0) {
            let length = strlen(long)
            free(long)
            if length > Int(PATH_MAX) {
                return TackError("the current directory's path is \(length) bytes long, more than this system's PATH_MAX (\(PATH_MAX)), and tack works only in directories it can name — cd to a directory with a shorter path")
            }
        }
        switch errno {
        case ENOENT:
            return TackError("cannot read the current directory — it has been removed; cd to a directory that exists")
        case ENAMETOOLONG, ERANGE:
            return TackError("the current directory's path is longer than this system's PATH_MAX (\(PATH_MAX)), and tack works only in directories it can name — cd to a directory with a shorter path")
        case EACCES:
            return TackError("cannot read the current directory: permission denied on a directory above it — cd to a directory you can read")
        default:
            return TackError("cannot read the current directory — it may have been removed; cd to a directory that exists")
        }
    }

    /// A pinned tool (`jq`, `1.7.1`) that is not installed, and the file or variable that pins it.
    public static func notInstalled(_ tool: String, _ version: String, setBy: String) -> TackError {
        TackError(.notInstalled(tool: tool, version: version, setBy: setBy))
    }
}
