import Foundation
import TackCore

/// The programs tack is running now, so that an interrupted tack stops them, and everything
/// they started, before it removes what they were writing into.
public final class RunningChildren: @unchecked Sendable {
    public static let shared = RunningChildren()
    private let lock = NSLock()
    private var pids: Set<Int32> = []
    /// What each child is (`swift build`) and the file its output goes to, where its runner said.
    private var logs: [Int32: (label: String, log: String)] = [:]
    private var stopping = false

    func add(_ pid: Int32) throws(TackError) {
        // Nothing new starts once an interrupt is stopping what runs.
        let added = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            pids.insert(pid)
            return true
        }
        if !added { throw TackError("interrupted") }
    }
    func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }
    func describe(_ pid: Int32, label: String, log: String) { lock.withLock { logs[pid] = (label, log) } }
    func forget(_ pid: Int32) { lock.withLock { _ = logs.removeValue(forKey: pid) } }

    /// An interrupt is stopping every child: what they wrote is kept for the message.
    public var isStopping: Bool { lock.withLock { stopping } }

    /// Stops every running child and its descendants: `signal` (the one tack received, as a
    /// terminal would send it to a foreground job) to each one's process group and to each
    /// process; what is still alive `grace` seconds later gets SIGTERM (a shell's background
    /// jobs ignore SIGINT), and what outlives that, SIGKILL: the prompt is back within about
    /// a second and a half, whatever the children do. A build tool that puts its
    /// compilers in process groups of their own (SwiftPM does) cannot leave them running: the
    /// tree is read again before each round.
    /// Returns what each stopped child was, with the file its output went to.
    @discardableResult
    public func stopAll(_ signal: Int32, grace: Double = 0.5) -> [(label: String, log: String)] {
        let (roots, stopped) = lock.withLock { () -> (Set<Int32>, [(label: String, log: String)]) in
            stopping = true
            return (pids, pids.sorted().compactMap { logs[$0] })
        }
        guard !roots.isEmpty else { return stopped }
        var tree = roots
        let own = getpgrp()
        let rounds = signal == SIGTERM || signal == SIGKILL ? [SIGTERM, SIGKILL] : [signal, SIGTERM, SIGKILL]
        for sig in rounds {
            tree.formUnion(Self.descendants(of: tree))
            let living = tree.filter(Self.isAlive)
            if living.isEmpty { return stopped }
            for pid in living where pid > 1 {
                let group = getpgid(pid)
                if group > 1 && group != own { kill(-group, sig) }
                kill(pid, sig)
            }
            let deadline = Date().addingTimeInterval(sig == SIGKILL ? min(grace, 0.2) : grace)
            while Date() < deadline, tree.contains(where: Self.isAlive) { usleep(10_000) }
        }
        return stopped
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
