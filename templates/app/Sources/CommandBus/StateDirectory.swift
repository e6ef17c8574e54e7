import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory an app keeps its journal and snapshots in, held by one instance at a time.
///
/// Opening it takes an exclusive lock (`flock` on `.lock` inside it) before anything else is
/// touched, temporaries included: a second opener, in this process or another, gets
/// `StateDirectoryError.inUse` instead of compacting a journal the first one is appending to.
/// Then every temporary a killed instance left (a snapshot's, a compacted journal's) is removed.
/// The lock goes when `close()` is called or the process ends, however it ends.
///
/// All of the directory's file work (journal appends and their fsyncs, snapshot writes,
/// compaction) runs in order on its one I/O queue, never on Swift's cooperative thread pool.
public final class StateDirectory: Sendable {
    public let url: URL
    /// The queue every write to this directory runs on, one at a time.
    public let io: DispatchQueue
    let lock: Mutex<Int32>

    public init(_ url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = url.appendingPathComponent(".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.Failure(what: "open", path: path, code: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            closeFile(fd)
            if code == EWOULDBLOCK { throw StateDirectoryError.inUse(url.path) }
            throw DurableFile.Failure(what: "lock", path: path, code: code)
        }
        lock = Mutex(fd)
        io = DispatchQueue(label: "StateDirectory.io")
        // Held now: what a killed instance left half-written (a snapshot's or a compacted
        // journal's temporary, `.NAME.UUID.tmp`) is nobody's, and goes.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where StateDirectory.isTemporary(name) {
            unlink(url.appendingPathComponent(name).path)
        }
    }

    /// `.NAME.UUID.tmp`, as `DurableFile.replace` names its temporaries.
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: ".") else { return false }
        return UUID(uuidString: String(stem[stem.index(after: dot)...])) != nil
    }

    /// The file `name` in the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Returns once the writes queued so far have run.
    public func waitForWrites() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in io.async { done.resume() } }
    }

    /// Waits for the directory's queued writes, then lets another instance open it.
    public func close() async {
        await waitForWrites()
        release()
    }

    var isOpen: Bool { lock.withLock { $0 >= 0 } }

    func release() {
        lock.withLock { fd in
            if fd >= 0 { closeFile(fd) }
            fd = -1
        }
    }

    deinit { release() }
}

public enum StateDirectoryError: Error, Equatable, CustomStringConvertible {
    case inUse(String)

    public var description: String {
        switch self {
        case .inUse(let path): return "\(path) is in use by another instance of the app (its .lock is held); close that one first"
        }
    }
}
