#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// What an interrupted or killed tack left in the store: temporary install directories
/// (`installs/TOOL/.tmp-VERSION-PID`, `.old-VERSION-PID`), a version built in place that has no
/// record yet, partial downloads
/// (`cache/downloads/.partial-PID-…`), half-made Python environments
/// (`cache/pip-envs/.tmp-PID-…`), asdf plugin checkouts (`cache/asdf-plugins/.tmp-KEY-PID-…`)
/// and lock scratch directories (`cache/.lock-PID-…`), whose process is gone. `tack doctor`
/// names them and `tack prune` removes them; a running tack's own are never touched.
public enum Leftovers {
    /// Each leftover's path, sorted; `isRunning` says whether a process id is alive.
    public static func find(in store: Store, isRunning: (Int32) -> Bool = Leftovers.isRunning) -> [String] {
        let fs = store.fs
        var out: [String] = []
        func scan(_ dir: String, _ pid: (String) -> Int32?) {
            // Never through a link out of the store.
            guard fs.linkTarget(dir) == nil, fs.linkTarget(Paths.dirname(dir)) == nil else { return }
            for entry in (try? fs.list(dir)) ?? [] {
                guard let p = pid(entry), !isRunning(p) else { continue }
                out.append(dir + "/" + entry)
            }
        }
        for tool in store.installedTools() {
            let dir = store.installs + "/" + tool
            scan(dir) { entry in
                guard entry.hasPrefix(".tmp-") || entry.hasPrefix(".old-") else { return nil }
                return entry.split(separator: "-").last.flatMap { Int32($0) }
            }
            // A build made in place (`installs/TOOL/VERSION` before its record is written) by
            // a process that is gone: the version's lock names it.
            for entry in (try? fs.list(dir)) ?? [] where !entry.hasPrefix(".") && fs.isDirectory(dir + "/" + entry)
                && fs.info(dir + "/" + entry + "/" + Store.installRecordFile) == nil {
                guard let holder = fs.lockHolder(at: store.state + "/locks/\(tool)@\(entry).lock"), !isRunning(holder.pid) else { continue }
                out.append(dir + "/" + entry)
            }
        }
        scan(store.cache + "/downloads") { field(after: ".partial-", in: $0, index: 0) }
        scan(store.cache + "/pip-envs") { field(after: ".tmp-", in: $0, index: 0) }
        scan(store.cache + "/asdf-plugins") { field(after: ".tmp-", in: $0, index: 1) }
        scan(store.cache) { field(after: ".lock-", in: $0, index: 0) }
        return out.sorted()
    }

    /// The process id at `index` among the `-`-separated fields after `prefix`.
    static func field(after prefix: String, in entry: String, index: Int) -> Int32? {
        guard entry.hasPrefix(prefix) else { return nil }
        let fields = entry.dropFirst(prefix.count).split(separator: "-")
        guard fields.count > index, let pid = Int32(fields[index]), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process with this id runs (one this user may not signal counts as running).
    public static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
