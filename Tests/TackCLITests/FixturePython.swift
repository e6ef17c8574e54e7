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
            if let w = workers[interpreter], w.isAlive { return w }
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
    /// This side of the socket the worker reads requests from: written with `MSG_NOSIGNAL`,
    /// so a worker that died is an error here, never a SIGPIPE that ends the test run.
    let requests: Int32
    /// The read end of the pipe the worker answers on.
    let answers: Int32
    let lock = NSLock()
    var buffer: [UInt8] = []
    /// False once the worker ended or answered nonsense: the next call starts another.
    var alive = true
    private var keep: Pipe?

    var isAlive: Bool { lock.withLock { alive } }

    /// A worker replaced (it died or answered nonsense) gets end of input, and ends.
    deinit { close(requests) }

    private init(interpreter: String) throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Self.stream, 0, &pair) == 0 else {
            throw Failed(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pair[1], F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let fromWorker = Pipe()
        // Both of this process's ends close on exec: a child another test starts must not keep
        // the worker's input open (the worker ends when this process does).
        _ = fcntl(fromWorker.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromWorker.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [Self.worker]
        process.standardInput = theirs
        process.standardOutput = fromWorker
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            close(pair[0])
            throw error
        }
        try? theirs.close()
        try? fromWorker.fileHandleForWriting.close()
        requests = pair[0]
        answers = fromWorker.fileHandleForReading.fileDescriptor
        keep = fromWorker
    }

    private func call(_ arguments: [String], directory: String) throws -> Result {
        try lock.withLock {
            do {
                let request = Array(try JSONSerialization.data(withJSONObject: ["argv": arguments, "cwd": directory])) + [0x0A]
                try send(request)
                let line = try readLine()
                guard let answer = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let status = answer["status"] as? Int else { throw Failed(description: "the fixture worker answered \(String(decoding: line, as: UTF8.self))") }
                return Result(status: Int32(status), stdout: answer["stdout"] as? String ?? "", stderr: answer["stderr"] as? String ?? "")
            } catch {
                alive = false
                throw error
            }
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Self.write(requests, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failed(description: "the fixture worker is gone: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    #if canImport(Darwin)
    static let stream = SOCK_STREAM
    /// A write that never raises SIGPIPE (the socket has SO_NOSIGPIPE).
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.send(fd, bytes, count, 0) }
    #else
    static let stream = Int32(SOCK_STREAM.rawValue)
    /// A write that never raises SIGPIPE.
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL)) }
    #endif

    private func readLine() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return line
            }
            let n = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failed(description: "the fixture worker ended") }
            buffer += chunk[..<n]
        }
    }
}
