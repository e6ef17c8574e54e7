/// An error a user reads: one line saying what is wrong, where it came from, and what to do.
public struct TackError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// `file:line:column: message`, the form editors and terminals make clickable.
    public static func at(_ file: String, _ line: Int, _ column: Int?, _ message: String) -> TackError {
        if let column { return TackError("\(file):\(line):\(column): \(message)") }
        return TackError("\(file):\(line): \(message)")
    }
    public var description: String { message }
}

extension TackError {
    /// The working directory is gone (removed under the shell, or unreadable).
    public static let noWorkingDirectory = TackError(
        "cannot read the current directory — it may have been removed; cd to a directory that exists")

    /// A pinned tool (`jq 1.7.1`) that is not installed, and the file or variable that pins it.
    public static func notInstalled(_ what: String, setBy: String) -> TackError {
        TackError("\(what) is not installed (set by \(setBy)) — run `tack install`")
    }
}
