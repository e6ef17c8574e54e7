/// One of tack's own state files (`$TACK_HOME/state/trust`, `state/projects`): an entry a line,
/// read, changed and written back under an exclusive lock, so tack processes running at once
/// never lose each other's entries. Every read-modify-write of a state file goes through here.
///
/// A line holds no control character: a value with one (a directory named with a newline) is
/// refused, so no value can forge another line.
public struct StateFile: Sendable {
    public let path: String
    let fs: any FileSystem

    public init(_ path: String, fs: any FileSystem) {
        self.path = path
        self.fs = fs
    }

    /// Whether `value` can be one line of a state file: no control characters (a newline or a
    /// carriage return would start another entry).
    public static func isStorable(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
    }

    /// The entries as they are now (none when the file does not exist).
    public func lines() -> [String] {
        guard let bytes = try? fs.read(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// Reads the entries, lets `change` compute the new ones, and writes them atomically, all
    /// while holding the file's lock; returns what `change` returned beside the lines.
    @discardableResult
    public func update<T>(_ change: ([String]) throws(TackError) -> (lines: [String], result: T)) throws(TackError) -> T {
        let directory = Paths.dirname(path)
        do { try fs.createDirectory(directory) } catch { throw TackError.cannotWrite(path, error) }
        // The lock is an `flock` on a file beside it, released if the process dies.
        let lock = try fs.lock(at: path + ".lock")
        lock.lock()
        defer { lock.unlock() }
        let (new, result) = try change(lines())
        for line in new where !Self.isStorable(line) {
            throw TackError("cannot record \(Terminal.escapeControls(quoted(line))) in \(path): it holds a control character")
        }
        do { try fs.writeAtomically(path, Array(new.map { $0 + "\n" }.joined().utf8)) } catch {
            throw TackError.cannotWrite(path, error)
        }
        return result
    }
}
