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

    /// The cached directory `name`, made first by `make` (given an empty directory to fill)
    /// when this run has not made it yet: its path, to copy from.
    static func tree(_ name: String, make: (String) throws -> Void) throws -> String {
        try lock.withLock { () throws -> String in
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path) { return path }
            try? FileManager.default.removeItem(atPath: path + ".tmp")
            try FileManager.default.createDirectory(atPath: path + ".tmp", withIntermediateDirectories: true)
            try make(path + ".tmp")
            try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
            return path
        }
    }

    /// Copies `source` to `destination`, a file replacing a file and a directory merged into
    /// a directory.
    static func merge(_ source: String, into destination: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            return
        }
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: source) {
            try merge(source + "/" + entry, into: destination + "/" + entry)
        }
    }
}
