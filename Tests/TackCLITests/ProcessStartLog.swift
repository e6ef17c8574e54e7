import Foundation
import TackCore
import Testing

/// Which tests start a built binary rather than running a command in-process: with
/// `TACK_TEST_PROCESS_LOG=FILE`, each such start writes the test's name to FILE, a line each
/// (`sort -u FILE | wc -l` against the run's test count gives the share run in-process).
/// Counted: `tack` and its shims, `tack-front` and `tack-cli` started by the harness, and
/// programs (a shell, `env`) given one of those in their arguments or their input.
enum ProcessStartLog {
    /// The running test's name: `Test.current`, or on an `OffPool` thread (which carries no
    /// task-locals) the name its caller handed over with `during`.
    static var currentTest: String? {
        Test.current.map { "\($0.id)" } ?? Thread.current.threadDictionary[key] as? String
    }
    private static let key = "tack.ProcessStartLog.test"

    /// Runs `body` on this thread as part of `test`.
    static func during<T>(_ test: String?, _ body: () throws -> T) rethrows -> T {
        let before = Thread.current.threadDictionary[key]
        Thread.current.threadDictionary[key] = test
        defer { Thread.current.threadDictionary[key] = before }
        return try body()
    }

    static func note(_ program: String, _ arguments: [String] = []) {
        guard let log = ProcessInfo.processInfo.environment["TACK_TEST_PROCESS_LOG"], let test = currentTest,
              let binaries = try? URL(fileURLWithPath: Sandbox.binary()).deletingLastPathComponent().path else { return }
        let real = URL(fileURLWithPath: program).resolvingSymlinksInPath().path
        let isTack = (real.hasPrefix(binaries + "/") && Paths.basename(real).hasPrefix("tack")) || program.contains("/shims/")
            || arguments.contains { $0.contains(binaries + "/tack") || $0.contains("/shims/") }
        guard isTack else { return }
        let fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let line = Array("\(test)\n".utf8)
        _ = line.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    }
}
