import Foundation

/// Fixture files made once per test run and copied where each test wants them (an archive
/// fixtures.py makes, a gem `gem build` makes: each a Python or Ruby start otherwise), kept in
/// one directory that goes when the run ends.
enum FixtureCache {
    private static let lock = NSLock()

    static let directory: String = {
        atexit { try? FileManager.default.removeItem(atPath: FixtureCache.path(for: getpid())) }
        return path(for: getpid())
    }()

    static func path(for pid: Int32) -> String { FileManager.default.temporaryDirectory.path + "/tack-fixtures-\(pid)" }

    /// Copies the cached file `name` to `destination`, made first by `make` (given the path to
    /// write) when this run has not made it yet.
    static func copy(_ name: String, to destination: String, make: (String) throws -> Void) throws {
        let made = try lock.withLock { () throws -> String in
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path) { return path }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try make(path + ".tmp")
            try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
            return path
        }
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: made, toPath: destination)
    }
}
