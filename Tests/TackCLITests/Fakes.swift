import Foundation
import TackCore

/// An HTTP client that answers from a dictionary, recording what was asked: backend unit
/// tests run without a server.
final class FakeHTTPClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private let bodies: [String: [UInt8]]
    private var asked: [String] = []

    init(_ bodies: [String: String]) {
        self.bodies = bodies.mapValues { Array($0.utf8) }
    }

    var requests: [String] { lock.withLock { asked } }

    func get(_ url: String, limit: DocumentLimit) async throws(HTTPFailure) -> [UInt8] {
        lock.withLock { asked.append(url) }
        guard let body = bodies[url] else { throw HTTPFailure(.answered(status: 404, redirectedTo: nil)) }
        return body
    }

    func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        let body = try await get(url)
        guard FileManager.default.createFile(atPath: destination, contents: Data(body)) else {
            throw HTTPFailure(.cannotWrite(destination, detail: nil))
        }
        progress(Int64(body.count), Int64(body.count))
        return SHA256Digest.hex(body)
    }
}

/// A process runner that answers with what `answer` says, recording every call; lines of the
/// answer go to the `output` callback as a running program's would.
final class FakeProcessRunner: ProcessRunner, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[String]] = []
    let answer: @Sendable (String, [String]) -> ProcessOutput

    init(_ answer: @escaping @Sendable (String, [String]) -> ProcessOutput) {
        self.answer = answer
    }

    var calls: [[String]] { lock.withLock { recorded } }

    func run(_ executable: String, _ arguments: [String], directory: String, environment: [String: String],
             output: (@Sendable (String) -> Void)?) async throws(TackError) -> ProcessOutput {
        lock.withLock { recorded.append([executable] + arguments) }
        let out = answer(executable, arguments)
        if let output { for line in out.output.split(separator: "\n") { output(String(line)) } }
        return out
    }
}
