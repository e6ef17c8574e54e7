import Foundation
import TackCore

/// Runs programs as `ChildProcess` starts them (their own process group, stopped with
/// everything they started on an interrupt): argument arrays, output captured to a file (no
/// pipe to fill up), the executable found on the given PATH.
public struct ChildProcessRunner: ProcessRunner {
    /// Where each program run, and with `-v` each line it prints, is said.
    let trace: Trace

    public init(trace: Trace = .off) { self.trace = trace }

    public func run(_ executable: String, _ arguments: [String], directory: String, environment: [String: String],
                    output lines: (@Sendable (String) -> Void)?) async throws(TackError) -> ProcessOutput {
        guard let path = ExecutableSearch(environment: environment).find(executable) else {
            throw TackError(executable.contains("/") ? "cannot run \(executable): not an executable file" : "`\(executable)` is not on PATH")
        }
        trace("running \(([path] + arguments).map(ShellQuote.posixIfNeeded).joined(separator: " ")) in \(directory)")
        let log = Paths.child(CurrentProcess.temporaryDirectory, "tack-\(UUID().uuidString).log")
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TackError("cannot run \(path): cannot write \(log): \(String(cString: strerror(errno)))") }
        // Kept when an interrupt stopped the program: the message says where it is.
        defer { if !RunningChildren.shared.isStopping { try? LocalFileSystem().remove(log) } }
        let pid: pid_t
        do { pid = try ChildProcess.start(path, arguments, directory: directory, environment: environment, output: fd, error: fd) } catch {
            close(fd)
            throw error
        }
        close(fd)
        RunningChildren.shared.describe(pid, label: ([Paths.basename(path)] + arguments.prefix(1)).joined(separator: " "), log: log)
        // The log is followed while the program runs, for progress lines; with -v each line
        // of it is also said as it comes.
        let name = Paths.basename(path)
        let verbose = trace.isOn
        let sink: (@Sendable (String) -> Void)?
        if verbose {
            let trace = trace
            sink = { @Sendable line in
                lines?(line)
                trace("  \(name)| \(line)")
            }
        } else {
            sink = lines
        }
        let scope = ProcessScope.current
        let follower = sink.map { sink in Task.detached { await ProcessScope.$current.withValue(scope) { await Self.follow(log, sink) } } }
        let status = await ChildProcess.wait(pid)
        follower?.cancel()
        // Stopped by an interrupt: no failure to report (the interrupt says what happened).
        if RunningChildren.shared.isStopping { throw TackError("interrupted") }
        if verbose, let sink { await Self.drain(log, sink, after: follower) }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return ProcessOutput(status: status, output: output)
    }

    /// After `follower` (which may stop between reads) ends, the lines it did not hand on.
    static func drain(_ path: String, _ lines: @Sendable (String) -> Void, after follower: Task<UInt64, Never>?) async {
        let offset = await follower?.value ?? 0
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) { lines(String(line)) }
    }

    /// Hands each new complete line of `path` to `lines`, twice a second, until cancelled;
    /// returns how far it read.
    @discardableResult
    static func follow(_ path: String, _ lines: @Sendable (String) -> Void) async -> UInt64 {
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
        return offset - UInt64(partial.count)
    }

}
