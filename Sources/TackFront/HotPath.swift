#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore
import TackLean

/// What the hot commands need about this directory: from the snapshot when nothing it
/// depends on has changed, else from a full resolution (which then writes a new snapshot).
public enum HotPath {
    /// `stale`: the caller has just found the snapshot does not hold (with the lean reader),
    /// so it is not read and checked a second time.
    public static func snapshot(settings: Settings, stale: Bool = false) throws(TackError) -> Snapshot {
        if !stale, let s = Snapshot.load(settings: settings) { return s }
        let (snapshot, ignored) = try make(settings: settings)
        IgnoredFiles.report(ignored, settings: settings)
        snapshot.save(settings: settings)
        return snapshot
    }

    /// A new snapshot of this directory, from a full resolution, and the files it left out
    /// (for the caller to say).
    static func make(settings: Settings) throws(TackError) -> (Snapshot, [IgnoredFile]) {
        try Snapshot.resolved(settings: settings, executable: CurrentProcess.executablePath())
    }

    /// Leaves a snapshot that holds for this directory after a command changed what is pinned,
    /// locked, trusted or installed, so the next shim, `current` or prompt takes the hot path.
    /// A snapshot whose files changed in the file system clock's current tick cannot be saved
    /// yet (`Snapshot.racy`): it waits for the next tick (until the clock passes the change,
    /// half a tick on average, or 5 ms when the cause is another), up to three times.
    /// Never fails and never prints: without it the next run resolves, which is only slower.
    public static func refresh(settings: Settings) {
        for _ in 0..<3 {
            if Snapshot.load(settings: settings) != nil { return }
            guard let (snapshot, _) = try? make(settings: settings) else { return }
            guard snapshot.racy else {
                snapshot.save(settings: settings)
                return
            }
            waitForTick(after: snapshot.racyUntil)
        }
    }

    /// Sleeps until the file system clock is past `changed` (polled every quarter of a
    /// millisecond, for at most 10 ms), or 5 ms when there is no such time.
    static func waitForTick(after changed: Int64?) {
        guard let changed else {
            var tick = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&tick, nil)
            return
        }
        for _ in 0..<40 where Snapshot.fileSystemNanoseconds() <= changed {
            var pause = timespec(tv_sec: 0, tv_nsec: 250_000)
            nanosleep(&pause, nil)
        }
    }

    public static func resolve(settings: Settings) throws(TackError) -> (rows: [CurrentTool], pathRoots: [String: String]) {
        let s = try snapshot(settings: settings)
        return (s.rows, s.pathRoots)
    }

    /// The snapshot in the form the lean hot path reads (nil for the rare directory whose
    /// paths or env hold a tab or newline, which the snapshot format cannot store).
    /// Prints the warning for a manifest whose env was left out.
    static func warnUntrusted(_ file: UnsafePointer<CChar>) {
        let path = String(cString: file)
        guard let settings = CurrentProcess.settings(relevantOnly: true) else {
            Output.error(RunEnvironment.untrustedWarning(path, home: CurrentProcess.variable("HOME")))
            return
        }
        RunEnvironment.untrustedWarningsToSay([path], settings: settings).forEach(Output.error)
    }

    static func lean(_ snapshot: Snapshot) -> LeanSnapshot? { snapshot.encode().flatMap { LeanSnapshot(made: $0) } }
}
