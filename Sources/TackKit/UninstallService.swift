import TackCore

/// `tack uninstall tool@version`: every build of that version removed, atomically, and the
/// shims rebuilt — a tool still pinned here keeps its commands' shims, which then say it is
/// not installed and what to run, instead of the shell's "command not found".
public struct UninstallService: Sendable {
    public let context: Context

    public init(_ context: Context) { self.context = context }

    public func uninstall(_ tool: String, _ version: Version) throws(TackError) {
        let settings = context.settings
        let store = try settings.requireStore()
        var keep: Set<String> = []
        if let pin = try? Resolver(settings).resolve().pin(tool), pin.request.isLockable,
           let record = store.installedEntry(tool, version), record.recordsBinaries {
            keep = Set(record.binaries.map(Paths.basename))
        }
        try Remover(store: store).remove(tool, version)
        if let launcher = context.launcher() { _ = try? Shims.rebuild(store: store, front: launcher, keeping: keep) }
    }
}
