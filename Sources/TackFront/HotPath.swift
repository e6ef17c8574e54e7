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
    public static func snapshot(settings: Settings) throws(TackError) -> Snapshot {
        if let s = Snapshot.load(settings: settings) { return s }
        let resolution = try Resolver(settings).resolve()
        IgnoredFiles.report(resolution.ignored, settings: settings)
        let rows = try resolution.current(settings: settings)
        var snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: CurrentProcess.executablePath())
        snapshot.answers = CurrentCommand.answers(rows, home: settings.home)
        snapshot.upToDate = !resolution.pins.isEmpty && UpToDate.check(resolution, settings: settings)
        // A project found up to date is a known one (prune keeps its tools), though it may
        // never install anything itself.
        if snapshot.upToDate, let root = resolution.projectRoot { settings.store?.rememberProject(root) }
        snapshot.save(settings: settings)
        return snapshot
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
            Output.error(RunEnvironment.untrustedWarning(path, home: getenv("HOME").map { String(cString: $0) }))
            return
        }
        RunEnvironment.warnUntrusted([path], settings: settings)
    }

    static func lean(_ snapshot: Snapshot) -> LeanSnapshot? {
        guard let bytes = snapshot.encode() else { return nil }
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        bytes.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: bytes.count) }
        base[bytes.count] = 0
        return LeanSnapshot.parse(base: base, count: bytes.count, context: nil)
    }
}
