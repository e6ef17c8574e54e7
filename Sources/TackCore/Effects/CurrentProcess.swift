#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// The running process, read without Foundation.
public enum CurrentProcess {
    /// The process environment. With `relevantOnly`, just the variables tack's resolution reads
    /// (`TACK_*`, `XDG_*`, HOME, PATH, PWD, NO_COLOR, TERM): the hot commands never pass the
    /// dictionary on (a shim execs with the real environment), and building it for every
    /// variable is a large part of their cost.
    public static func environment(relevantOnly: Bool = false) -> [String: String] {
        if let scope = ProcessScope.current { return scope.environment }
        var env: [String: String] = [:]
        #if canImport(Darwin)
        guard var p = _NSGetEnviron()?.pointee else { return env }
        #else
        var p = environ
        #endif
        while let entry = p.pointee {
            if relevantOnly && !isRelevant(entry) {
                p += 1
                continue
            }
            // The name ends at the first `=` byte, as libc and the lean reader take it (a
            // Character search would pass over an `=` that a combining mark follows).
            let length = Int(strlen(entry))
            // (Int8 and UInt8 may alias each other.)
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: length)
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                add(String(decoding: bytes[..<eq], as: UTF8.self), String(decoding: bytes[(eq + 1)...], as: UTF8.self), to: &env)
            }
            p += 1
        }
        return env
    }

    /// One variable into the environment as tack holds it: the first of a name wins. But a
    /// String key is compared by Characters, so another spelling that Unicode counts as equal
    /// (`TAC\u{212A}_HOME`, with a Kelvin sign) would take the place of `TACK_HOME`, which
    /// getenv and the lean reader, reading bytes, never take it for: a name in plain ASCII
    /// wins over such a spelling, wherever each comes.
    static func add(_ name: String, _ value: String, to env: inout [String: String]) {
        guard let i = env.index(forKey: name) else {
            env[name] = value
            return
        }
        let held = env[i].key
        if name.utf8.allSatisfy({ $0 < 0x80 }), !held.utf8.elementsEqual(name.utf8) {
            env.remove(at: i)
            env[name] = value
        }
    }

    /// The real user this process runs as (0: root).
    public static var userID: UInt32 { UInt32(getuid()) }

    /// One variable of the process environment, nil when unset: the one place outside the
    /// Embedded `tack` (whose `LeanContext` reads its own) that reads it.
    public static func variable(_ name: String) -> String? {
        if let scope = ProcessScope.current { return scope.variable(name) }
        return getenv(name).map { String(cString: $0) }
    }

    /// The working directory; `$PWD` when it names the same directory (it keeps the symlinks
    /// the user typed, as shells do).
    public static func workingDirectory() -> String? {
        if let scope = ProcessScope.current { return scope.cwd }
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buf, buf.count) != nil else { return nil }
        let real = String(cString: buf)
        if let pwd = variable("PWD"), pwd.hasPrefix("/"), pwd != real {
            var a = stat(), b = stat()
            if stat(pwd, &a) == 0, stat(real, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { return pwd }
        }
        return real
    }

    public static func settings(relevantOnly: Bool = false, backends: BackendCatalog) -> Settings? {
        guard let cwd = workingDirectory() else { return nil }
        var settings = Settings(environment: environment(relevantOnly: relevantOnly), cwd: cwd, fs: LocalFileSystem(), backends: backends)
        settings.trace = .standardError
        return settings
    }

    static func isRelevant(_ entry: UnsafeMutablePointer<CChar>) -> Bool {
        func starts(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { p in
                for i in 0..<p.count where UInt8(bitPattern: entry[i]) != p[i] { return false }
                return true
            }
        }
        return starts("TACK_") || starts("XDG_") || starts("HOME=") || starts("PATH=") || starts("PWD=")
            || starts("NO_COLOR=") || starts("TERM=")
    }

    /// The absolute path of this executable.
    public static func executablePath() -> String? {
        if let scope = ProcessScope.current { return scope.executable }
        #if canImport(Darwin)
        var size: UInt32 = 4096
        var buf = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buf, &size) == 0 else { return nil }
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(buf, &resolved) != nil else { return String(cString: buf) }
        return String(cString: resolved)
        #else
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        buf[n] = 0
        return String(cString: buf)
        #endif
    }

    public static func isTerminal(_ fd: Int32) -> Bool { ProcessScope.current == nil && isatty(fd) == 1 }

    /// Where temporary files go: `$TMPDIR` when it is an absolute path, else `/tmp`.
    public static var temporaryDirectory: String {
        guard let t = variable("TMPDIR"), t.hasPrefix("/") else { return "/tmp" }
        return Paths.normalize(t)
    }

    /// The processors online (at least 1).
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
