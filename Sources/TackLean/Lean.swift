import CLean

/// The hot path's reader of the resolution snapshot, for shims, `tack exec` and `tack hook-env`.
///
/// It does the same checks as `Snapshot.load` (the directory, the steering environment, every
/// probed file's stat key) straight on C strings and one byte buffer: no dictionaries, no
/// arrays of structs, no Strings until a value is used. Every type a Swift program touches for
/// the first time costs a metadata lookup, and on this path those lookups were most of the time.
/// Anything unusual (a path that is not already normal, a missing snapshot) returns nil and the
/// caller takes the full path, which is always correct.
public struct LeanSnapshot {
    /// The first line of a snapshot (`Snapshot.formatVersion` in TackCore; a test keeps them equal).
    public static let formatVersion: StaticString = "tack-snapshot 5"

    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    /// Offsets of the lines the hot path reads after validation (bin, missing, setenv, untrusted, digest).
    let lines: UnsafeMutablePointer<Int>
    let lineCount: Int

    /// The snapshot for the current process, if one exists and nothing it depends on changed.
    public static func current() -> LeanSnapshot? {
        guard let context = LeanContext.current(), let path = context.snapshotPath() else { return nil }
        return load(path: path, context: context)
    }

    public static func load(path: [UInt8], context: LeanContext) -> LeanSnapshot? {
        let fd = path.withUnsafeBufferPointer { p in p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { lean_open_read($0) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0, st.st_size < 1 << 20 else { return nil }
        let size = Int(st.st_size)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: size + 1)
        var got = 0
        while got < size {
            let n = read(fd, base + got, size - got)
            if n < 0 && lean_errno() == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        base[size] = 0
        return parse(base: base, count: size, context: context)
    }

    /// Checks and indexes the bytes; `context` nil skips the checks (a snapshot just made).
    public static func parse(base: UnsafeMutablePointer<UInt8>, count: Int, context: LeanContext?) -> LeanSnapshot? {
        var newlines = 0
        for i in 0..<count where base[i] == 0x0A { newlines += 1 }
        let lines = UnsafeMutablePointer<Int>.allocate(capacity: newlines + 1)
        var lineCount = 0
        var start = 0
        var lineNumber = 0
        while start < count {
            var end = start
            var tabs = 0
            while end < count && base[end] != 0x0A {
                if base[end] == 0x09 {
                    base[end] = 0
                    tabs += 1
                }
                end += 1
            }
            base[end] = 0
            let line = base + start
            defer {
                start = end + 1
                lineNumber += 1
            }
            if lineNumber == 0 {
                guard equals(line, formatVersion) else { return nil }
                continue
            }
            let field1 = line + strlen(line) + 1
            switch tag(line) {
            case .cwd:
                if let context, tabs != 1 || !equals(field1, context.cwd) { return nil }
            case .env:
                if let context, tabs != 1 || !equals(field1, context.environmentKey) { return nil }
            case .probe:
                guard tabs == 2 else { return nil }
                if context != nil, !probeHolds(key: field1, path: field1 + strlen(field1) + 1) { return nil }
            case .bin, .missing, .untrusted, .digest:
                guard tabs == 1 else { return nil }
                lines[lineCount] = start
                lineCount += 1
            case .uptodate:
                guard tabs == 0 else { return nil }
                lines[lineCount] = start
                lineCount += 1
            case .setenv, .answer:
                guard tabs == 2 else { return nil }
                lines[lineCount] = start
                lineCount += 1
            case .row:
                continue
            case .unknown:
                return nil
            }
        }
        return LeanSnapshot(base: base, count: count, lines: lines, lineCount: lineCount)
    }

    public enum Tag { case cwd, env, probe, bin, missing, setenv, untrusted, digest, row, uptodate, answer, unknown }

    static func tag(_ p: UnsafeMutablePointer<UInt8>) -> Tag {
        if equals(p, "probe") { return .probe }
        if equals(p, "bin") { return .bin }
        if equals(p, "row") { return .row }
        if equals(p, "setenv") { return .setenv }
        if equals(p, "cwd") { return .cwd }
        if equals(p, "env") { return .env }
        if equals(p, "missing") { return .missing }
        if equals(p, "untrusted") { return .untrusted }
        if equals(p, "digest") { return .digest }
        if equals(p, "answer") { return .answer }
        if equals(p, "uptodate") { return .uptodate }
        return .unknown
    }

    /// Calls `body` with the fields of each line tagged `tag`, in order, until it returns false.
    public func forEach(_ tag: Tag, _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Bool) {
        for i in 0..<lineCount {
            let line = base + lines[i]
            guard LeanSnapshot.tag(line) == tag else { continue }
            let f1 = line + LeanSnapshot.strlen(line) + 1
            let f2 = tag == .setenv || tag == .answer ? f1 + LeanSnapshot.strlen(f1) + 1 : f1
            if !body(f1, f2) { return }
        }
    }

    public var digest: UnsafeMutablePointer<UInt8>? {
        var d: UnsafeMutablePointer<UInt8>?
        forEach(.digest) { f, _ in
            d = f
            return false
        }
        return d
    }

    public var hasUntrusted: Bool {
        var any = false
        forEach(.untrusted) { _, _ in
            any = true
            return false
        }
        return any
    }

    /// `tack install` has nothing to do here.
    public var isUpToDate: Bool {
        var any = false
        forEach(.uptodate) { _, _ in
            any = true
            return false
        }
        return any
    }

    /// The stored stdout of the command whose arguments, joined by spaces, are `key`, decoded.
    public func answer(_ key: [UInt8]) -> [UInt8]? {
        var found: [UInt8]?
        forEach(.answer) { k, v in
            guard LeanSnapshot.equals(k, key) else { return true }
            var out: [UInt8] = []
            var i = 0
            while v[i] != 0 {
                if v[i] == UInt8(ascii: "%"), let hi = LeanSnapshot.hexDigit(v[i + 1]), let lo = LeanSnapshot.hexDigit(v[i + 2]) {
                    out.append(hi << 4 | lo)
                    i += 3
                } else {
                    out.append(v[i])
                    i += 1
                }
            }
            found = out
            return false
        }
        return found
    }

    static func hexDigit(_ c: UInt8) -> UInt8? {
        if c >= 0x30 && c <= 0x39 { return c - 0x30 }
        if c >= 0x41 && c <= 0x46 { return c - 0x41 + 10 }
        return nil
    }

    public var hasMissing: Bool {
        var any = false
        forEach(.missing) { _, _ in
            any = true
            return false
        }
        return any
    }

    public func isMissing(_ tool: UnsafePointer<CChar>) -> Bool {
        var missing = false
        forEach(.missing) { f, _ in
            missing = strcmp(UnsafeRawPointer(f).assumingMemoryBound(to: CChar.self), tool) == 0
            return !missing
        }
        return missing
    }

    // MARK: Byte helpers

    static func strlen(_ p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        while p[n] != 0 { n += 1 }
        return n
    }

    static func equals(_ p: UnsafeMutablePointer<UInt8>, _ s: StaticString) -> Bool {
        s.withUTF8Buffer { b in
            for i in 0..<b.count where p[i] != b[i] { return false }
            return p[b.count] == 0
        }
    }

    static func equals(_ p: UnsafeMutablePointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count where p[i] != b[i] { return false }
            return p[b.count] == 0
        }
    }

    /// Whether the file at `path` still has the stat key recorded (`-`: still absent), or —
    /// for a small file recorded with its content's fingerprint (`KEY=HEX`) — still the same
    /// bytes: a `touch`, a checkout or an editor's save that changes nothing keeps the snapshot.
    static func probeHolds(key: UnsafeMutablePointer<UInt8>, path: UnsafeMutablePointer<UInt8>) -> Bool {
        var st = stat()
        let exists = path.withMemoryRebound(to: CChar.self, capacity: 1) { stat($0, &st) == 0 }
        if key[0] == UInt8(ascii: "-") && key[1] == 0 { return !exists }
        guard exists else { return false }
        var fingerprint: UnsafeMutablePointer<UInt8>?
        var i = 0
        while key[i] != 0 {
            if key[i] == UInt8(ascii: "=") {
                fingerprint = key + i + 1
                break
            }
            i += 1
        }
        var t: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { lean_times(&st, $0.baseAddress!.assumingMemoryBound(to: Int64.self)) }
        let m = (t.0, t.1), c = (t.2, t.3)
        // `ino:size:msec.mnsec:csec.cnsec`, as Snapshot.statKey writes it.
        var p = key
        func number(_ expected: Int64, then separator: UInt8) -> Bool {
            guard let value = decimal(&p, then: separator) else { return false }
            return value == expected
        }
        let last: UInt8 = fingerprint == nil ? 0 : UInt8(ascii: "=")
        if number(Int64(bitPattern: UInt64(st.st_ino)), then: UInt8(ascii: ":")) && number(Int64(st.st_size), then: UInt8(ascii: ":"))
            && number(m.0, then: UInt8(ascii: ".")) && number(m.1, then: UInt8(ascii: ":"))
            && number(c.0, then: UInt8(ascii: ".")) && number(c.1, then: last) {
            return true
        }
        guard let fingerprint else { return false }
        return contentHolds(key: key, fingerprint: fingerprint, path: path, size: Int64(st.st_size))
    }

    /// Whether the file at `path` (now `size` bytes) has the size `key` records and the
    /// content whose fingerprint follows its `=`.
    static func contentHolds(key: UnsafeMutablePointer<UInt8>, fingerprint: UnsafeMutablePointer<UInt8>, path: UnsafeMutablePointer<UInt8>, size: Int64) -> Bool {
        guard size <= contentLimit else { return false }
        // The recorded size: the key's second number.
        var p = key
        while p[0] != 0 && p[0] != UInt8(ascii: ":") { p += 1 }
        guard p[0] == UInt8(ascii: ":") else { return false }
        p += 1
        guard decimal(&p, then: UInt8(ascii: ":")) == size else { return false }
        var expected: UInt64 = 0
        var q = fingerprint
        var digits = 0
        while q[0] != 0 {
            let d = q[0]
            let v: UInt8
            if d >= 0x30 && d <= 0x39 { v = d - 0x30 } else if d >= 0x61 && d <= 0x66 { v = d - 0x61 + 10 } else { return false }
            expected = expected << 4 | UInt64(v)
            q += 1
            digits += 1
        }
        guard digits > 0, digits <= 16 else { return false }
        var actual: UInt64 = 0
        let read = path.withMemoryRebound(to: CChar.self, capacity: 1) { lean_content_fingerprint($0, contentLimit, &actual) }
        return read == size && actual == expected
    }

    /// The decimal number (optionally negative) at `p`, which must end at `separator`; `p`
    /// moves past the separator (not past a NUL). Nil when there is none.
    static func decimal(_ p: inout UnsafeMutablePointer<UInt8>, then separator: UInt8) -> Int64? {
        var negative = false
        if p[0] == UInt8(ascii: "-") {
            negative = true
            p += 1
        }
        var value: Int64 = 0
        var digits = 0
        while p[0] >= 0x30 && p[0] <= 0x39 {
            value = value &* 10 &+ Int64(p[0] - 0x30)
            p += 1
            digits += 1
        }
        guard digits > 0, p[0] == separator else { return nil }
        if separator != 0 { p += 1 }
        return negative ? -value : value
    }

    /// Files up to this size are recorded with their content's fingerprint
    /// (`Snapshot.contentLimit` in TackCore).
    public static let contentLimit: Int64 = 65536
}

/// What locates a snapshot, read from the process without building dictionaries: the working
/// directory, `$TACK_HOME`, and the environment that steers resolution, exactly as
/// `Settings` and `Snapshot.environmentKey` compute them.
public struct LeanContext {
    public var cwd: [UInt8]
    public var tackHome: [UInt8]
    public var environmentKey: [UInt8]

    public static func current() -> LeanContext? {
        guard let cwd = workingDirectory(), let home = tackHome() else { return nil }
        return LeanContext(cwd: cwd, tackHome: home, environmentKey: environmentKey())
    }

    /// `<TACK_HOME>/state/snapshots/<fnv of cwd NUL key>`, NUL-terminated.
    public func snapshotPath() -> [UInt8]? {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in cwd { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        h = (h ^ 0) &* 0x100_0000_01b3
        for b in environmentKey { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        var path = tackHome
        path += Array("/state/snapshots/".utf8)
        path += LeanContext.hex(h)
        path.append(0)
        return path
    }

    static func hex(_ value: UInt64) -> [UInt8] {
        if value == 0 { return [0x30] }
        var out: [UInt8] = []
        var v = value
        while v > 0 {
            let d = UInt8(v & 0xf)
            out.append(d < 10 ? 0x30 + d : 0x57 + d)
            v >>= 4
        }
        return out.reversed()
    }

    public static func bytes(_ p: UnsafePointer<CChar>) -> [UInt8] {
        let n = Glibc_strlen(p)
        return p.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
    }

    static func variable(_ name: StaticString) -> [UInt8]? {
        guard let v = name.withUTF8Buffer({ b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { getenv($0) } }) else { return nil }
        let value = bytes(v)
        return value.isEmpty ? nil : value
    }

    /// `Settings.isFrozen`: TACK_FROZEN is 1, true or yes, in any case.
    public static var isFrozenByEnvironment: Bool {
        guard let v = variable("TACK_FROZEN") else { return false }
        let lower = v.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return lower == Array("1".utf8) || lower == Array("true".utf8) || lower == Array("yes".utf8)
    }

    /// An absolute path with no `.`, `..` or empty components and no trailing slash: what
    /// `Paths.normalize` would return unchanged.
    static func isNormal(_ p: [UInt8]) -> Bool {
        guard p.first == UInt8(ascii: "/") else { return false }
        if p.count == 1 { return true }
        guard p.last != UInt8(ascii: "/") else { return false }
        var componentStart = 1
        for i in 1...p.count where i == p.count || p[i] == UInt8(ascii: "/") {
            let length = i - componentStart
            if length == 0 { return false }
            if p[componentStart] == UInt8(ascii: ".") && (length == 1 || (length == 2 && p[componentStart + 1] == UInt8(ascii: "."))) { return false }
            componentStart = i + 1
        }
        return true
    }

    /// As `CurrentProcess.workingDirectory`: `$PWD` when it names the same directory.
    static func workingDirectory() -> [UInt8]? {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buf, buf.count) != nil else { return nil }
        var result = buf.withUnsafeBufferPointer { bytes($0.baseAddress!) }
        if let pwd = getenv("PWD"), pwd[0] == CChar(UInt8(ascii: "/")) {
            let p = bytes(pwd)
            if p != result {
                var a = stat(), b = stat()
                if stat(pwd, &a) == 0, stat(&buf, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { result = p }
            }
        }
        return isNormal(result) ? result : nil
    }

    /// As `Settings.tackHome`, for values that are already normal absolute paths.
    static func tackHome() -> [UInt8]? {
        if let h = variable("TACK_HOME") { return isNormal(h) ? h : nil }
        // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
        if let x = variable("XDG_DATA_HOME"), x.first == UInt8(ascii: "/") { return isNormal(x) ? (x.count == 1 ? [] : x) + Array("/tack".utf8) : nil }
        if let home = variable("HOME") { return isNormal(home) ? (home.count == 1 ? [] : home) + Array("/.local/share/tack".utf8) : nil }
        return nil
    }

    /// `Snapshot.environmentKey`: `K=V` for HOME, TACK_HOME, TACK_PLATFORM, XDG_CONFIG_HOME, XDG_DATA_HOME and
    /// every `TACK_*_VERSION`, sorted by name, joined by U+0001; the first of duplicate names wins.
    public static func environmentKey() -> [UInt8] {
        var out: [UInt8] = []
        var last: UnsafeMutablePointer<CChar>?
        while true {
            var best: UnsafeMutablePointer<CChar>?
            guard var p = lean_environ() else { return out }
            while let entry = p.pointee {
                p += 1
                guard relevant(entry), last.map({ compareKeys(entry, $0) > 0 }) ?? true else { continue }
                if best.map({ compareKeys(entry, $0) < 0 }) ?? true { best = entry }
            }
            guard let chosen = best else { return out }
            if !out.isEmpty { out.append(1) }
            out += bytes(chosen)
            last = chosen
        }
    }

    /// Compares the names (before `=`) of two environment entries.
    static func compareKeys(_ a: UnsafeMutablePointer<CChar>, _ b: UnsafeMutablePointer<CChar>) -> Int {
        var i = 0
        while true {
            let x = a[i] == 0x3D ? 0 : UInt8(bitPattern: a[i]), y = b[i] == 0x3D ? 0 : UInt8(bitPattern: b[i])
            if x != y { return x < y ? -1 : 1 }
            if x == 0 { return 0 }
            i += 1
        }
    }

    static func relevant(_ entry: UnsafeMutablePointer<CChar>) -> Bool {
        var eq = 0
        while entry[eq] != 0 && entry[eq] != 0x3D { eq += 1 }
        guard entry[eq] == 0x3D else { return false }
        func keyIs(_ s: StaticString) -> Bool {
            s.withUTF8Buffer { b in b.count == eq && (0..<eq).allSatisfy { UInt8(bitPattern: entry[$0]) == b[$0] } }
        }
        if keyIs("HOME") || keyIs("TACK_HOME") || keyIs("TACK_PLATFORM") || keyIs("XDG_CONFIG_HOME") || keyIs("XDG_DATA_HOME") { return true }
        // hasPrefix("TACK_") && hasSuffix("_VERSION"), which may overlap.
        guard eq >= 8 else { return false }
        let prefix: StaticString = "TACK_", suffix: StaticString = "_VERSION"
        let p = prefix.withUTF8Buffer { b in (0..<b.count).allSatisfy { UInt8(bitPattern: entry[$0]) == b[$0] } }
        let s = suffix.withUTF8Buffer { b in (0..<b.count).allSatisfy { UInt8(bitPattern: entry[eq - b.count + $0]) == b[$0] } }
        return p && s
    }
}

@inline(__always) func Glibc_strlen(_ p: UnsafePointer<CChar>) -> Int { Int(strlen(p)) }
