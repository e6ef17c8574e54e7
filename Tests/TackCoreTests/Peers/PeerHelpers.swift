import Testing
@testable import TackCore

/// What the peer suites share: a file read alone, and a directory resolved with some
/// versions installed, each in an in-memory file system.

/// The pins of one compatible file as `tool requirement[|alternative…]`, or the error.
func read(_ file: CompatibleFile, _ text: String) -> Result<[String], TackError> {
    do {
        let r = try file.parse(Array(text.utf8), path: "/p/\(file.rawValue)", backends: .standard)
        return .success(r.pins.map { pin in ([pin.requirement] + pin.alternatives).map(\.description).joined(separator: "|").prefixed(pin.name + " ") })
    } catch { return .failure(error) }
}

/// The words one pin of a file asks for, in order (`nil`: the file pins nothing; a thrown
/// error: it cannot be read).
func versions(_ file: CompatibleFile, _ text: String) throws -> [String]? {
    let r = try file.parse(Array(text.utf8), path: "/p/\(file.rawValue)", backends: .standard)
    guard let pin = r.pins.first else { return nil }
    return ([pin.requirement] + pin.alternatives).map(\.description)
}

/// The lines a file skipped (pyenv's warnings).
func skipped(_ file: CompatibleFile, _ text: String) throws -> [String] {
    try file.parse(Array(text.utf8), path: "/p/\(file.rawValue)", backends: .standard).skipped.map(\.message)
}

func isUnreadable(_ file: CompatibleFile, _ text: String) -> Bool {
    if case .failure = read(file, text) { return true }
    return false
}

/// A machine: files, installed versions (tool → versions), the environment; HOME is
/// /home/me and the store /home/me/.tack.
struct Machine {
    var files: [String: String] = [:]
    var installed: [String: [String]] = [:]
    var env: [String: String] = [:]

    func settings(in cwd: String) throws -> Settings {
        let fs = InMemoryFileSystem(files: files)
        try fs.createDirectory(cwd)
        var environment = ["HOME": "/home/me", "TACK_HOME": "/home/me/.tack"]
        environment.merge(env) { $1 }
        let store = Store(root: "/home/me/.tack", fs: fs, backends: .standard)
        for (tool, versions) in installed {
            for v in versions { try fs.createDirectory(store.toolDirectory(tool) + "/" + v) }
        }
        return Settings(environment: environment, cwd: cwd, fs: fs, backends: .standard)
    }

    func resolve(in cwd: String) throws -> Resolution { try Resolver(settings(in: cwd)).resolve() }

    /// What the directory pins for `tool`: `requirement (file:line)`.
    func pin(_ tool: String, in cwd: String) throws -> String? {
        guard let p = try resolve(in: cwd).pin(tool) else { return nil }
        return "\(p.request.requirement) (\(p.request.origin.describe(home: "/home/me")))"
    }

    /// The version `tack current` would show for `tool`.
    func current(_ tool: String, in cwd: String) throws -> String? {
        let settings = try settings(in: cwd)
        let r = try Resolver(settings).resolve()
        return try r.current(settings: settings).first { $0.tool == tool }?.version
    }
}

extension String {
    func prefixed(_ p: String) -> String { p + self }
}
