#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Backends
import Dispatch
import Foundation
import TackCore

/// SIGINT, SIGTERM and SIGHUP while tack works: stop what it started, remove this process's
/// unfinished installs and downloads, and exit as a shell expects (128 + the signal).
enum Interrupts {
    private static let queue = DispatchQueue(label: "tack.signals")
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    /// Directories a command is making that an interrupt must not leave behind.
    nonisolated(unsafe) private static var scratch: [String] = []
    nonisolated(unsafe) private static var stopping = false
    /// What to put back if the process is interrupted, by key: a project file's bytes as they
    /// were before this command wrote it (first write wins), or a command's own undo.
    nonisolated(unsafe) private static var undos: [(key: String, undo: @Sendable () -> Void)] = []
    private static let scratchLock = NSLock()

    /// Whether a signal is being handled: the process is about to exit with its status, so
    /// the main thread must not exit (or report a failure the cleanup caused) first.
    static var isStopping: Bool { scratchLock.withLock { stopping } }

    /// Waits for the signal handler's exit.
    static func park() -> Never {
        while true { sleep(60) }
    }

    /// Writes a project file (tack.yml, tack.lock) so that an interrupt puts it back: the first
    /// write of `path` remembers what was there (or that nothing was), and a write never
    /// starts once the process is stopping (the handler restores under the same lock, after
    /// any write in progress).
    static func write(_ path: String, _ bytes: [UInt8], fs: any FileSystem) throws(TackError) {
        scratchLock.lock()
        defer { scratchLock.unlock() }
        if stopping { throw TackError("interrupted; \(path) was left as it was") }
        if !undos.contains(where: { $0.key == path }) {
            let existed = fs.info(path) != nil
            let original: [UInt8]? = existed ? try? fs.read(path) : nil
            undos.append((path, {
                if let original { try? fs.writeAtomically(path, original) } else if !existed { try? fs.remove(path) }
            }))
        }
        do { try fs.writeAtomically(path, bytes) } catch { throw TackError.cannotWrite(path, error) }
    }

    /// Runs `undo` if the process is interrupted before the command ends (or `settled`).
    static func undoOnInterrupt(_ key: String, _ undo: @escaping @Sendable () -> Void) {
        scratchLock.withLock { undos.append((key, undo)) }
    }

    /// The command finished: what it wrote stays.
    static func settled() { scratchLock.withLock { undos.removeAll() } }

    /// Removes `path` if the process is interrupted before `keep(path)`.
    static func removeOnInterrupt(_ path: String) { scratchLock.withLock { scratch.append(path) } }
    static func keep(_ path: String) { scratchLock.withLock { scratch.removeAll { $0 == path } } }

    static func install(store: @escaping @Sendable () -> Store?) {
        for sig in [SIGINT, SIGTERM, SIGHUP] where !StartState.captured.ignored.contains(sig) {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                scratchLock.withLock { stopping = true }
                // The children first (their whole trees, then SIGKILL for what outlives a
                // grace period), so nothing writes into what is removed next.
                let stopped = RunningChildren.shared.stopAll(sig)
                if let store = store() { removeUnfinished(store) }
                for path in scratchLock.withLock({ scratch }) { removeWhileInUse(path) }
                // The project's files as they were before this command, newest change first.
                scratchLock.withLock { for entry in undos.reversed() { entry.undo() } }
                Output.err("\n")
                var message = "interrupted (\(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP")); nothing half-installed was kept"
                if !stopped.isEmpty {
                    message += "; what was running: " + stopped.map { "\($0.label) (its output: \($0.log))" }.joined(separator: ", ")
                }
                Output.error(message)
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes `paths` (leftovers' names already) by `rm -rf` in a process group of its own,
    /// which outlives this process (`ChildProcess.startDetached`); what it does not get to, the
    /// next install or `tack prune` does.
    static func removeInTheBackground(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        if !ChildProcess.startDetached("/bin/rm", ["-rf", "--"] + paths) { for path in paths { removeWhileInUse(path) } }
    }

    /// Removes a directory another thread may still be writing into (libgit2 making a
    /// repository recreates its path): renamed away first, so writes by path fail rather than
    /// land in it, then removed; again after a moment if it came back.
    static func removeWhileInUse(_ path: String) {
        let fs = LocalFileSystem()
        for round in 0..<4 {
            if round > 0 { usleep(25_000) }
            guard fs.info(path) != nil || fs.isBrokenLink(path) else { continue }
            let doomed = path + ".interrupted-\(round)"
            let target = rename(path, doomed) == 0 ? doomed : path
            for _ in 0..<3 where fs.info(target) != nil { try? fs.remove(target) }
        }
    }

    /// This process's temporary install directories, the builds it was making in place, and
    /// partial downloads: each renamed at once to a leftover's name (`.tmp-…-PID`, which the
    /// next install and `tack prune` remove, and nothing reads as installed), an install a
    /// rebuild moved aside put back, and the leftovers removed by a process of their own, so
    /// the prompt is back without waiting for a build tree to be deleted.
    static func removeUnfinished(_ store: Store) {
        let fs = store.fs
        let pid = getpid()
        var doomed: [String] = []
        for tool in (try? fs.list(store.installs)) ?? [] {
            let dir = store.installs + "/" + tool
            for entry in (try? fs.list(dir)) ?? [] {
                if entry.hasPrefix(".tmp-") && entry.hasSuffix("-\(pid)") {
                    // The installer's own clean-up may be removing it at this moment: renamed
                    // away first, so the two removals never race each other into leaving half of it.
                    let away = dir + "/" + entry + ".interrupted"
                    doomed.append(rename(dir + "/" + entry, away) == 0 ? away : dir + "/" + entry)
                    continue
                }
                // A version this process was building in place (it holds the version's lock,
                // and the directory has no record yet): a leftover now.
                if !entry.hasPrefix("."), fs.info(dir + "/" + entry + "/" + Store.installRecordFile) == nil,
                   fs.lockHolder(at: store.state + "/locks/\(tool)@\(entry).lock")?.pid == pid {
                    let away = dir + "/.tmp-\(entry)-inplace-\(pid)"
                    if rename(dir + "/" + entry, away) == 0 { doomed.append(away) }
                }
            }
            // An install a rebuild moved aside comes back where its rebuild did not finish.
            for entry in (try? fs.list(dir)) ?? [] where entry.hasPrefix(".old-") && entry.hasSuffix("-\(pid)") {
                let version = String(entry.dropFirst(5).dropLast("-\(pid)".count))
                if fs.info(dir + "/" + version + "/" + Store.installRecordFile) == nil, fs.info(dir + "/" + version) == nil {
                    _ = rename(dir + "/" + entry, dir + "/" + version)
                }
            }
        }
        removeInTheBackground(doomed)
        let downloads = store.cache + "/downloads"
        for entry in (try? fs.list(downloads)) ?? [] where entry.hasPrefix(".partial-\(pid)-") {
            try? fs.remove(downloads + "/" + entry)
        }
    }
}
