import Foundation
import TackCore

/// Runs programs with Foundation's Process: argument arrays, output captured to a file (no
/// pipe to fill up), the executable found on the given PATH.
public struct FoundationProcessRunner: ProcessRunner {
    public init() {}

    public func run(_ executable: String, _ arguments: [String], directory: String, environment: [String: String],
                    output lines: (@Sendable (String) -> Void)?) async throws(TackError) -> ProcessOutput {
        let path = try Self.locate(executable, path: environment["PATH"] ?? "/usr/bin:/bin")
        Output.verbose("running \(([path] + arguments).map(Self.quoted).joined(separator: " ")) in \(directory)")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tack-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        do {
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            process.standardOutput = handle
            process.standardError = handle
            // The log is followed while the program runs, for progress lines.
            let follower = lines.map { lines in Task.detached { await Self.follow(log.path, lines) } }
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do {
                    try process.run()
                    RunningChildren.shared.add(process.processIdentifier)
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
            RunningChildren.shared.remove(process.processIdentifier)
            follower?.cancel()
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return ProcessOutput(status: status, output: output)
        } catch {
            throw TackError("cannot run \(path): \(error.localizedDescription)")
        }
    }

    /// Hands each new complete line of `path` to `lines`, twice a second, until cancelled.
    static func follow(_ path: String, _ lines: @Sendable (String) -> Void) async {
        var offset: UInt64 = 0
        var partial: [UInt8] = []
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 500_000_000)
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { continue }
            offset += UInt64(data.count)
            partial += data
            // SwiftPM redraws its `[n/m]` line with carriage returns at a terminal, new lines
            // otherwise: both end a line here.
            while let end = partial.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                lines(String(decoding: partial[..<end], as: UTF8.self))
                partial.removeSubrange(...end)
            }
        }
    }

    static func quoted(_ word: String) -> String {
        word.isEmpty || word.contains(where: { " \"'$\\".contains($0) }) ? "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" : word
    }

    static func locate(_ executable: String, path: String) throws(TackError) -> String {
        if executable.contains("/") { return executable }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TackError("`\(executable)` is not on PATH")
    }
}

/// The programs tack is running now, so that an interrupted tack stops them too instead of
/// leaving a build writing into a directory it is about to remove.
public final class RunningChildren: @unchecked Sendable {
    public static let shared = RunningChildren()
    private let lock = NSLock()
    private var pids: Set<Int32> = []

    func add(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
    func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }

    /// Sends `signal` to every running child and its process group.
    public func signalAll(_ signal: Int32) {
        for pid in lock.withLock({ pids }) where pid > 0 {
            kill(-pid, signal)
            kill(pid, signal)
        }
    }
}
