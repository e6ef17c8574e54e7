/// Where the real implementations of tack's effects (the process runner, the HTTP client, git)
/// say what they do, for `-v`: each program run and its output, each URL fetched. They are
/// given one; they never print. `off` says nothing; tack-cli's writes `tack: …` lines to
/// stderr when TACK_VERBOSE is set.
public struct Trace: Sendable {
    /// Whether anything is said (so a caller need not build what would not be said).
    public let isOn: Bool
    private let sink: @Sendable (String) -> Void

    public init(isOn: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.isOn = isOn
        self.sink = sink
    }

    /// Says `message` (one line, without its newline).
    public func callAsFunction(_ message: @autoclosure () -> String) {
        if isOn { sink(message()) }
    }

    public static let off = Trace(isOn: false) { _ in }

    /// The process's own: on when TACK_VERBOSE is set (and TACK_QUIET is not), each line said
    /// on stderr as `tack: <line>` with its control characters shown, not acted on.
    public static var standardError: Trace {
        Trace(isOn: Output.isVerbose) { Output.verbose($0) }
    }
}
