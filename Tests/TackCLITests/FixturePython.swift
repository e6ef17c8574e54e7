import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The tests' one-shot fixture programs (fixtures.py's archives and wheels, sigstore.py's
/// signatures, `-c` programs) run in one long-lived interpreter per Python (Fixtures/worker.py)
/// rather than a Python start each: several hundred starts of about 0.1 s of CPU in a run.
/// Servers keep processes of their own (`FixtureServer`).
final class FixturePython: @unchecked Sendable {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let worker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/worker.py").path

    private static let registry = NSLock()
    nonisolated(unsafe) private static var workers: [String: FixturePython] = [:]

    /// Runs `arguments` (a script and its arguments, or `-c`, the code and its arguments) as
    /// `interpreter` would, in `directory`.
    static func run(_ arguments: [String], interpreter: String = FixtureServer.python, in directory: String = "/") throws -> Result {
        let worker = try registry.withLock { () throws -> FixturePython in
            if let w = workers[interpreter], w.process.isRunning { return w }
            let w = try FixturePython(interpreter: interpreter)
            workers[interpreter] = w
            return w
        }
        return try worker.call(arguments, directory: directory)
    }

    /// As `run`, failing unless the program succeeds; its standard output.
    @discardableResult
    static func check(_ arguments: [String], interpreter: String = FixtureServer.python, in directory: String = "/") throws -> String {
        let r = try run(arguments, interpreter: interpreter, in: directory)
        guard r.status == 0 else { throw Failed(description: "\(arguments.prefix(2).joined(separator: " ")) failed (\(r.status)): \(r.stderr)") }
        return r.stdout
    }

    struct Failed: Error, CustomStringConvertible { var description: String }

    let process = Process()
    let input: FileHandle
    let output: Int32
    let lock = NSLock()
    var buffer: [UInt8] = []

    private init(interpreter: String) throws {
        let toWorker = Pipe(), fromWorker = Pipe()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [Self.worker]
        process.standardInput = toWorker
        process.standardOutput = fromWorker
        process.standardError = FileHandle.nullDevice
        try process.run()
        input = toWorker.fileHandleForWriting
        output = fromWorker.fileHandleForReading.fileDescriptor
        // The pipes' other ends stay open in this process only as long as these handles live.
        keep = (toWorker, fromWorker)
    }
    private var keep: (Pipe, Pipe)?

    private func call(_ arguments: [String], directory: String) throws -> Result {
        try lock.withLock {
            let request = try JSONSerialization.data(withJSONObject: ["argv": arguments, "cwd": directory]) + Data("\n".utf8)
            do { try input.write(contentsOf: request) } catch { throw Failed(description: "the fixture worker is gone: \(error)") }
            let line = try readLine()
            guard let answer = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let status = answer["status"] as? Int else { throw Failed(description: "the fixture worker answered \(String(decoding: line, as: UTF8.self))") }
            return Result(status: Int32(status), stdout: answer["stdout"] as? String ?? "", stderr: answer["stderr"] as? String ?? "")
        }
    }

    private func readLine() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return line
            }
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failed(description: "the fixture worker ended") }
            buffer += chunk[..<n]
        }
    }
}
