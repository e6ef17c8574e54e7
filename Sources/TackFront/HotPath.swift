import TackCore

/// What the hot commands need about this directory: from the snapshot when nothing it
/// depends on has changed, else from a full resolution (which then writes a new snapshot).
public enum HotPath {
    public static func resolve(settings: Settings) throws(TackError) -> (rows: [CurrentTool], pathRoots: [String: String]) {
        if let s = Snapshot.load(settings: settings) { return (s.rows, s.pathRoots) }
        let resolution = try Resolver(settings).resolve()
        let rows = try resolution.current(settings: settings)
        let snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: CurrentProcess.executablePath())
        snapshot.save(settings: settings)
        return (rows, snapshot.pathRoots)
    }
}
