import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program the way a shell would start it, for tests that run whole scripts: signals
/// unblocked and at their defaults (a child of the test process would otherwise inherit the
/// mask of whichever thread started it, and a server it starts could not be stopped by
/// SIGTERM), standard input from /dev/null, and its output into a file rather than a pipe, so
/// the test waits for the program itself, never for an orphan that still holds the pipe.
enum CleanProcess {
    /// Runs `executable` with `arguments` and the test's environment (plus `environment`);
    /// returns its exit status (128 + the signal when one ended it) and everything it wrote.
    static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        ProcessStartLog.note(executable, arguments)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let log = try Sandbox.OutputFile()
        let ending = try HarnessSpawn.run(executable, arguments, directory: FileManager.default.currentDirectoryPath, environment: env, input: nil,
                                          stdout: log.handle.fileDescriptor, stderr: log.handle.fileDescriptor)
        return (ending.shellStatus, log.text())
    }
}
