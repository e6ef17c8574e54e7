/// The result of running a program to completion.
public struct ProcessOutput: Sendable, Equatable {
    public var status: Int32
    /// stdout and stderr, interleaved as the program wrote them.
    public var output: String
    public init(status: Int32, output: String) {
        self.status = status
        self.output = output
    }

    /// The last `n` lines, for error messages.
    public func tail(_ n: Int = 40) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(n).joined(separator: "\n")
    }

    /// The last `n` lines, and what to set when they say a certificate was not trusted
    /// (`NetworkSettings.certificateHint`) — for a child that reached the network.
    public func tail(_ n: Int, network environment: [String: String]) -> String {
        tail(n) + (NetworkSettings(environment: environment).certificateHint(output).map { "\n" + $0 } ?? "")
    }
}

extension ProcessRunner {
    /// Runs a program whose failure is the command's (a package manager): its output when it
    /// exits 0, else one error saying what it was doing, which program failed and how, and
    /// the last `lines` of what it said (with what to set when it did not trust a certificate).
    public func runChecked(_ program: String, _ arguments: [String], doing what: String, directory: String, environment: [String: String],
                           lines: Int = 20) async throws(TackError) -> ProcessOutput {
        let out = try await run(program, arguments, directory: directory, environment: environment, output: nil)
        guard out.status == 0 else {
            throw TackError("cannot \(what): \(Paths.basename(program)) failed (exit \(out.status)):\n\(out.tail(lines, network: environment))")
        }
        return out
    }
}

/// Runs programs with argument arrays (never a shell string), so tests can substitute one.
public protocol ProcessRunner: Sendable {
    /// Runs to completion; `output`, when given, hears each line as the program writes it
    /// (at least once a second while it runs), for progress.
    func run(_ executable: String, _ arguments: [String], directory: String, environment: [String: String],
             output: (@Sendable (String) -> Void)?) async throws(TackError) -> ProcessOutput
}

extension ProcessRunner {
    public func run(_ executable: String, _ arguments: [String], directory: String, environment: [String: String]) async throws(TackError) -> ProcessOutput {
        try await run(executable, arguments, directory: directory, environment: environment, output: nil)
    }
}
