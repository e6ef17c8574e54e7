extension Snapshot {
    /// A new snapshot of this directory from a full resolution, and the files the resolution
    /// left out (for the caller to say). What `tack-front` does when the snapshot does not
    /// hold, and the `tack` executable too (`refreshQuietly`), so both write the same one.
    /// `executable` is `tack-front`'s path: an upgrade of tack makes every snapshot stale.
    public static func resolved(settings given: Settings, executable: String?) throws(TackError) -> (Snapshot, [IgnoredFile]) {
        // The environment is checked as every command checks it (a relative TACK_HOME, a HOME
        // that is no directory): said, never answered with "not installed".
        _ = try given.requireStore()
        // What the resolution reads is keyed from that one read.
        var settings = given
        let reads = RememberingFileSystem(given.fs)
        settings.fs = reads
        var resolver = Resolver(settings)
        resolver.vouched = recordedAbsences(settings: given)
        let resolution = try resolver.resolve()
        // The locks are read once, and each install's record once, for the rows and for
        // whether an install has anything to do.
        let locks = try resolution.readLocks(settings: settings)
        let rows = resolution.current(settings: settings, locks: locks)
        // Before the snapshot is made: it keys what this reads too (a version file's installs).
        let upToDate = !resolution.pins.isEmpty && UpToDate.check(resolution, settings: settings, locks: locks, rows: rows)
        var snapshot = Snapshot.make(settings: settings, resolution: resolution, rows: rows, executable: executable, reads: reads)
        snapshot.answers = CurrentReport.answers(rows, home: settings.home)
        snapshot.upToDate = upToDate
        // A project found up to date is a known one (prune keeps its tools), though it may
        // never install anything itself: a snapshot that says so lets `tack install` end in
        // `tack` alone, so the project is remembered here.
        if snapshot.upToDate, let root = resolution.projectRoot { settings.store?.rememberProject(root) }
        return (snapshot, resolution.ignored)
    }

    /// Resolves, and saves the new snapshot, when that needs nothing said: no error and no
    /// file left out to warn about. The `tack` executable's cold path: it answers from what
    /// this returns (`encode`d, as the lean reader reads it), even when the snapshot cannot be
    /// saved yet (`racy`), as `tack-front` answers from its own. Nil when there is something to
    /// say, or the snapshot cannot be encoded: the caller hands the command to `tack-front`,
    /// which resolves again and says it.
    public static func refreshQuietly(settings: Settings, executable: String?) -> [UInt8]? {
        guard let (snapshot, ignored) = try? resolved(settings: settings, executable: executable), ignored.isEmpty,
              let bytes = snapshot.encode()
        else { return nil }
        snapshot.save(settings: settings, encoded: bytes)
        return bytes
    }
}
