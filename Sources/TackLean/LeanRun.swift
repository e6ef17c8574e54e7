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
    /// `Which.searchPath` does.
    public static func searchPath(_ command: UnsafePointer<CChar>, path: UnsafePointer<CChar>?, shims: [UInt8]) -> [UInt8]? {
        guard let path else { return nil }
        var shimsStat = stat(), shimStat = stat()
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
        for p in parts { line += Array(p.utf8) }
        line.append(0x0A)
        _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress!, $0.count) }
    }
}
