import Foundation
import TackCore

/// The programs tack is running now, so that an interrupted tack stops them, and everything
/// they started, before it removes what they were writing into.
public final class RunningChildren: @unchecked Sendable {
    public static let shared = RunningChildren()
    private let lock = NSLock()
    private var pids: Set<Int32> = []

    func add(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
    func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }

    /// Stops every running child and its descendants: `signal` (the one tack received, as a
    /// terminal would send it to a foreground job) to each one's process group and to each
    /// process; what is still alive `grace` seconds later gets SIGTERM (a shell's background
    /// jobs ignore SIGINT), and what outlives that, SIGKILL. A build tool that puts its
    /// compilers in process groups of their own (SwiftPM does) cannot leave them running: the
    /// tree is read again before each round.
    public func stopAll(_ signal: Int32, grace: Double = 1) {
        let roots = lock.withLock { pids }
        guard !roots.isEmpty else { return }
        var tree = roots
        let own = getpgrp()
        let rounds = signal == SIGTERM || signal == SIGKILL ? [SIGTERM, SIGKILL] : [signal, SIGTERM, SIGKILL]
        for sig in rounds {
            tree.formUnion(Self.descendants(of: tree))
            let living = tree.filter(Self.isAlive)
            if living.isEmpty { return }
            for pid in living where pid > 1 {
                let group = getpgid(pid)
                if group > 1 && group != own { kill(-group, sig) }
                kill(pid, sig)
            }
            let deadline = Date().addingTimeInterval(grace)
            while Date() < deadline, tree.contains(where: Self.isAlive) { usleep(10_000) }
        }
    }

    /// Whether `pid` is a process that still runs (a zombie waiting to be reaped does not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return processState(pid) != "Z"
    }

    /// The state letter of `/proc/PID/stat` (`R`, `S`, `Z`…), or nil.
    static func processState(_ pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first?.first
    }

    /// Every descendant of `roots` that runs now, from /proc (empty where there is none).
    static func descendants(of roots: Set<Int32>) -> Set<Int32> {
        guard let entries = try? LocalFileSystem().list("/proc") else { return [] }
        var children: [Int32: [Int32]] = [:]
        for entry in entries {
            guard let pid = Int32(entry), let text = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var out: Set<Int32> = []
        var queue = Array(roots)
        while let next = queue.popLast() {
            for child in children[next] ?? [] where out.insert(child).inserted { queue.append(child) }
        }
        return out
    }
}
