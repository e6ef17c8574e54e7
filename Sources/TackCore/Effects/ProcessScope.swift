/// A process run inside this one: while a command runs in-process (`Tack.main(arguments:scope:)`,
/// the tests' harness), what `CurrentProcess` and `Output` answer — its environment, working
/// directory and executable, never a terminal — and where its output goes. Bound to the task
/// that runs the command (a task-local, inherited by its child tasks and carried onto the
/// threads `OffPool` starts), so commands running at once each see their own. Outside one,
/// the real process answers.
public final class ProcessScope: @unchecked Sendable {
    #if hasFeature(Embedded)
    /// Embedded Swift (the `tack` executable) has no task-locals, and runs no command in-process.
    public static var current: ProcessScope? { nil }
    #else
    @TaskLocal public static var current: ProcessScope?
    #endif

    public var environment: [String: String] { mutex.locked { variables } }
    public let cwd: String
    /// The executable the command believes it is (`tack-cli` beside `tack`, for shims).
    public let executable: String?
    private let mutex = PThreadMutex()
    private var variables: [String: String]
    private var out: [UInt8] = []
    private var err: [UInt8] = []
    private var said: [TackError] = []

    public init(environment: [String: String], cwd: String, executable: String?) {
        self.variables = environment
        self.cwd = cwd
        self.executable = executable
    }

    /// Sets a variable of the scope's environment (`-q` sets TACK_QUIET, as it does for a
    /// process), before the command reads its settings.
    public func set(_ name: String, _ value: String) { mutex.locked { variables[name] = value } }

    func variable(_ name: String) -> String? { mutex.locked { variables[name] } }

    func write(_ fd: Int32, _ bytes: [UInt8]) {
        mutex.locked { if fd == 1 { out += bytes } else { err += bytes } }
    }

    /// An error the command said (`tack: …`), kept with its case for tests to match.
    public func failed(_ error: TackError) { mutex.locked { said.append(error) } }

    /// The errors the command said, in order.
    public var failures: [TackError] { mutex.locked { said } }

    /// What the command wrote to its standard output and error.
    public var standardOutput: String { mutex.locked { String(decoding: out, as: UTF8.self) } }
    public var standardError: String { mutex.locked { String(decoding: err, as: UTF8.self) } }
}
