import CLean

/// Running a tool from a snapshot: finding the executable and preparing the environment,
/// on C strings (see `LeanSnapshot` for why).
public enum LeanRun {
    /// A NUL-terminated copy of a C string's bytes.
    public static func bytes(_ p: UnsafePointer<CChar>) -> [UInt8] {
        var out = LeanContext.bytes(p)
        out.append(0)
        return out
    }

    static func bytes(_ p: UnsafeMutablePointer<UInt8>) -> [UInt8] {
        p.withMemoryRebound(to: CChar.self, capacity: 1) { bytes(UnsafePointer($0)) }
    }

    /// `dir/command`, NUL-terminated.
    static func join(_ dir: UnsafePointer<CChar>, _ command: UnsafePointer<CChar>) -> [UInt8] {
        var out = LeanContext.bytes(dir)
        out.append(UInt8(ascii: "/"))
        out += LeanContext.bytes(command)
        out.append(0)
        return out
    }

    static func isExecutableFile(_ path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                var st = stat()
                return stat(p, &st) == 0 && lean_is_regular(&st) != 0 && access(p, X_OK) == 0
            }
        }
    }

    /// The command from the first bin directory that has it.
    public static func findInBins(_ snapshot: LeanSnapshot, _ command: UnsafePointer<CChar>) -> [UInt8]? {
        var found: [UInt8]?
        snapshot.forEach(.bin) { dir, _ in
            let candidate = dir.withMemoryRebound(to: CChar.self, capacity: 1) { join($0, command) }
            if isExecutableFile(candidate) { found = candidate }
            return found == nil
        }
        return found
    }

    /// The first `command` on `path` that is not a shim: the shims directory is skipped, and so
    /// is anything that is the same file as the shim (an alias of that directory), as
    /// `CommandSearch.searchPath` does.
    public static func searchPath(_ command: UnsafePointer<CChar>, path: UnsafePointer<CChar>?, shims: [UInt8]) -> [UInt8]? {
        guard let path else { return nil }
        var shimsStat = stat(), shimStat = stat()
        // This very program, or the `tack` beside it (or in ../../bin of an installation's
        // libexec), under the command's name (a copy of tack linked or named like a tool) is
        // never the next one: running it would only search again. As CommandSearch's `selves`.
        let selves = Self.selves()
        let haveShims = shims.withUnsafeBufferPointer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { stat($0, &shimsStat) == 0 } }
        let shim = shims.withUnsafeBufferPointer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { join($0, command) } }
        let haveShim = shim.withUnsafeBufferPointer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { stat($0, &shimStat) == 0 } }
        var entries = LeanContext.bytes(path)
        entries.append(0)
        var start = 0
        for i in 0..<entries.count where entries[i] == UInt8(ascii: ":") || entries[i] == 0 {
            defer { start = i + 1 }
            guard i > start else { continue }
            var dir = Array(entries[start..<i])
            dir.append(0)
            let candidate: [UInt8]? = dir.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { d -> [UInt8]? in
                    var st = stat()
                    if haveShims, stat(d, &st) == 0, st.st_dev == shimsStat.st_dev, st.st_ino == shimsStat.st_ino { return nil }
                    let c = join(d, command)
                    guard isExecutableFile(c) else { return nil }
                    if !selves.isEmpty {
                        let same = c.withUnsafeBufferPointer { cb in
                            cb.baseAddress!.withMemoryRebound(to: CChar.self, capacity: cb.count) {
                                stat($0, &st) == 0 && selves.contains { $0.device == UInt64(st.st_dev) && $0.inode == UInt64(st.st_ino) }
                            }
                        }
                        if same { return nil }
                    }
                    if haveShim {
                        let same = c.withUnsafeBufferPointer { cb in
                            cb.baseAddress!.withMemoryRebound(to: CChar.self, capacity: cb.count) { stat($0, &st) == 0 && st.st_dev == shimStat.st_dev && st.st_ino == shimStat.st_ino }
                        }
                        if same { return nil }
                    }
                    return c
                }
            }
            if let candidate { return candidate }
        }
        return nil
    }

    /// The real path of this program's own file; nil when the system does not say.
    public static func programPath() -> [UInt8]? {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard lean_self_path(&buf, buf.count) == 0 else { return nil }
        return LeanContext.bytes(buf.withUnsafeBufferPointer { $0.baseAddress! })
    }

    /// The directory of `path`, ending in `/` (`/usr/local/bin/`).
    public static func directory(of path: [UInt8]) -> [UInt8] {
        var dir = path
        while let last = dir.last, last != UInt8(ascii: "/") { dir.removeLast() }
        return dir
    }

    /// The files that are tack itself, as device and inode: this program, and the `tack`
    /// beside it or in `../../bin` (from `tack-front` in an installation's `libexec/tack`).
    /// `CommandSearch` and a shim's search of PATH both pass over them.
    public static func selves() -> [(device: UInt64, inode: UInt64)] {
        guard let me = programPath() else { return [] }
        let dir = directory(of: me)
        var out: [(device: UInt64, inode: UInt64)] = []
        for path in [me, dir + Array("tack".utf8), dir + Array("../../bin/tack".utf8)] {
            var st = stat()
            let found = (path + [0]).withUnsafeBufferPointer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { stat($0, &st) == 0 } }
            if found { out.append((UInt64(st.st_dev), UInt64(st.st_ino))) }
        }
        return out
    }

    /// What a shim does once a snapshot holds: the command from a pinned tool's bin directory
    /// (in the snapshot's environment), else the next one on PATH outside the shims. Returns
    /// when the snapshot says the command's tool is missing, or nothing provides it: the
    /// caller explains.
    public static func runShim(_ snapshot: LeanSnapshot, shims: [UInt8], name: UnsafePointer<CChar>,
                               arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                               warn: (UnsafePointer<CChar>) -> Void) {
        guard !snapshot.isMissing(name) else { return }
        runPinned(snapshot, name: name, arguments: arguments, warn: warn)
        if let exe = searchPath(name, path: getenv("PATH"), shims: shims) {
            execFallback(exe, name: name, arguments: arguments)
        }
    }

    /// The command from a pinned tool's bin directory, in the snapshot's environment; returns
    /// when no pinned tool has it.
    public static func runPinned(_ snapshot: LeanSnapshot, name: UnsafePointer<CChar>,
                                 arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                 warn: (UnsafePointer<CChar>) -> Void) {
        guard let exe = findInBins(snapshot, name) else { return }
        apply(snapshot, warn: warn)
        exec(exe, name: name, arguments: arguments)
    }

    /// What `tack exec` does once a snapshot holds and everything it pins is installed:
    /// the snapshot's environment, then `command` (`arguments[0]`) from PATH, or by its path.
    public static func runCommand(_ snapshot: LeanSnapshot, shims: [UInt8],
                                  arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                  warn: (UnsafePointer<CChar>) -> Void) -> Never {
        guard let program = arguments[0] else { exit(2) }
        apply(snapshot, warn: warn)
        let executable: [UInt8]
        if strchr(program, Int32(UInt8(ascii: "/"))) != nil {
            executable = bytes(UnsafePointer(program))
        } else if let found = searchPath(program, path: getenv("PATH"), shims: shims) {
            executable = found
        } else {
            error([String(cString: program), ": command not found"])
            exit(127)
        }
        exec(executable, name: program, arguments: arguments)
    }

    /// Puts the bin directories first on PATH, exports the trusted env, and warns once per
    /// untrusted manifest.
    public static func apply(_ snapshot: LeanSnapshot, warn: (UnsafePointer<CChar>) -> Void) {
        var path: [UInt8] = []
        snapshot.forEach(.bin) { dir, _ in
            if !path.isEmpty { path.append(UInt8(ascii: ":")) }
            path += LeanContext.bytes(UnsafePointer(dir.withMemoryRebound(to: CChar.self, capacity: 1) { $0 }))
            return true
        }
        if !path.isEmpty {
            if let old = getenv("PATH"), old[0] != 0 {
                path.append(UInt8(ascii: ":"))
                path += LeanContext.bytes(old)
            }
            path.append(0)
            path.withUnsafeBufferPointer { b in _ = b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { setenv("PATH", $0, 1) } }
        }
        snapshot.forEach(.setenv) { name, value in
            name.withMemoryRebound(to: CChar.self, capacity: 1) { n in
                _ = value.withMemoryRebound(to: CChar.self, capacity: 1) { v in setenv(n, v, 1) }
            }
            return true
        }
        snapshot.forEach(.untrusted) { file, _ in
            warn(file.withMemoryRebound(to: CChar.self, capacity: 1) { UnsafePointer($0) })
            return true
        }
    }

    /// The variable that counts a process's falls through to PATH: `<pid>:<count>`. An exec
    /// keeps the pid, so a chain of execs counts up, while a tool that runs the command again
    /// as a child starts from nothing.
    static let hopsVariable = "__TACK_SHIM_HOPS"
    public static let maxHops = 4

    /// A shim's fallback: runs the next `name` on PATH, unless this process has already fallen
    /// through `maxHops` times (a copy of tack named like the command, or shims that reach each
    /// other, would otherwise exec for ever).
    public static func execFallback(_ executable: [UInt8], name: UnsafePointer<CChar>, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        let pid = Int(getpid())
        var hops = 0
        if let value = getenv(hopsVariable) {
            let text = LeanContext.bytes(value)
            if let colon = text.firstIndex(of: UInt8(ascii: ":")), number(text[..<colon]) == pid {
                hops = number(text[(colon + 1)...]) ?? 0
            }
        }
        hops += 1
        if hops > maxHops {
            error([String(cString: name), ": the command found on PATH, ", String(decoding: executable.dropLast(), as: UTF8.self),
                   ", leads back to tack (a copy of tack named like the command, or shims that call each other); stopped after ",
                   digits(maxHops), " hops — remove it from PATH"])
            exit(126)
        }
        var value = Array(digits(pid).utf8) + [UInt8(ascii: ":")] + Array(digits(hops).utf8)
        value.append(0)
        value.withUnsafeBufferPointer { b in _ = b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { setenv(hopsVariable, $0, 1) } }
        exec(executable, name: name, arguments: arguments)
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 12 else { return nil }
        var n = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    static func digits(_ n: Int) -> String {
        var out: [UInt8] = []
        var v = n
        repeat {
            out.insert(UInt8(0x30 + v % 10), at: 0)
            v /= 10
        } while v > 0
        return String(decoding: out, as: UTF8.self)
    }

    /// Replaces this process with `executable`, `argv[0]` set to `name`.
    public static func exec(_ executable: [UInt8], name: UnsafePointer<CChar>, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
        arguments[0] = strdup(name)
        executable.withUnsafeBufferPointer { b in
            _ = b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { execv($0, arguments) }
        }
        let error = lean_errno()
        LeanRun.error(["cannot run ", String(decoding: executable.dropLast(), as: UTF8.self), ": ", String(cString: strerror(error))])
        exit(126)
    }

    /// `$TACK_HOME/shims`, NUL-terminated.
    public static func shims(_ context: LeanContext) -> [UInt8] {
        context.tackHome + Array("/shims".utf8) + [0]
    }

    /// `tack: <parts>` and a newline on stderr, in one write.
    public static func error(_ parts: [String]) {
        var line = Array("tack: ".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for p in parts {
            // Control characters from paths and names are escaped, never sent to the terminal.
            for b in p.utf8 {
                if b < 0x20 || b == 0x7F {
                    line += Array("\\u{".utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)], UInt8(ascii: "}")]
                } else {
                    line.append(b)
                }
            }
        }
        line.append(0x0A)
        _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress!, $0.count) }
    }
}
