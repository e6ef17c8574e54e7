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
    public static let formatVersion: StaticString = "tack-snapshot 7"

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
        guard fstat(fd, &st) == 0, st.st_size > 0, st.st_size <= sizeLimit else { return nil }
        let size = Int(st.st_size)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: size + 1)
        var got = 0
        while got < size {
            let n = read(fd, base + got, size - got)
            if n < 0 && lean_errno() == EINTR { continue }
            guard n > 0 else {
                base.deallocate()
                return nil
            }
            got += n
        }
        base[size] = 0
        guard let parsed = parse(base: base, count: size, context: context) else {
            base.deallocate()
            return nil
        }
        return parsed
    }

    /// Frees the bytes and the index (a process that reads one snapshot and exits need not).
    public func deallocate() {
        base.deallocate()
        lines.deallocate()
    }

    init(base: UnsafeMutablePointer<UInt8>, count: Int, lines: UnsafeMutablePointer<Int>, lineCount: Int) {
        self.base = base
        self.count = count
        self.lines = lines
        self.lineCount = lineCount
    }

    /// A snapshot just made (`Snapshot.encode`'s bytes), read without the checks.
    public init?(made bytes: [UInt8]) {
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        bytes.withUnsafeBufferPointer { b in
            if let source = b.baseAddress { base.initialize(from: source, count: b.count) }
        }
        base[bytes.count] = 0
        guard let parsed = LeanSnapshot.parse(base: base, count: bytes.count, context: nil) else {
            base.deallocate()
            return nil
        }
        self = parsed
    }

    /// Checks and indexes the bytes; `context` nil skips the checks (a snapshot just made).
    public static func parse(base: UnsafeMutablePointer<UInt8>, count: Int, context: LeanContext?) -> LeanSnapshot? {
        var newlines = 0
        for i in 0..<count where base[i] == 0x0A { newlines += 1 }
        let lines = UnsafeMutablePointer<Int>.allocate(capacity: newlines + 1)
        var indexed = false
        defer { if !indexed { lines.deallocate() } }
        var lineCount = 0
        var start = 0
        var lineNumber = 0
        // The last line (`end`) was read: a snapshot without it was cut short, and nothing may
        // follow it.
        var ended = false
        // Checked against the context, when there is one: a snapshot without them is no
        // snapshot of this directory and environment.
        var sawCwd = false, sawEnv = false
        while start < count {
            var end = start
            var tabs = 0
            while end < count {
                // One comparison for the common byte; newline, tab and NUL are below it.
                let byte = base[end]
                if byte <= 0x0A {
                    if byte == 0x0A { break }
                    if byte == 0x09 {
                        base[end] = 0
                        tabs += 1
                    } else if byte == 0 {
                        // Never written (fields end at a NUL here): not a snapshot.
                        return nil
                    }
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
            if ended { return nil }
            let field1 = line + strlen(line) + 1
            switch tag(line) {
            case .cwd:
                if let context, tabs != 1 || !equals(field1, context.cwd) { return nil }
                sawCwd = true
            case .env:
                if let context, tabs != 1 || !equals(field1, context.environmentKey) { return nil }
                sawEnv = true
            case .probe:
                guard tabs == 2 else { return nil }
                if context != nil, !probeHolds(key: field1, path: field1 + strlen(field1) + 1) { return nil }
            case .absent:
                guard tabs >= 3 else { return nil }
                if context != nil, !absenceHolds(key: field1, directory: field1 + strlen(field1) + 1, names: tabs - 2) { return nil }
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
            case .end:
                guard tabs == 0 else { return nil }
                ended = true
            case .unknown:
                return nil
            }
        }
        guard ended, context == nil || (sawCwd && sawEnv) else { return nil }
        indexed = true
        return LeanSnapshot(base: base, count: count, lines: lines, lineCount: lineCount)
    }

    public enum Tag { case cwd, env, probe, absent, bin, missing, setenv, untrusted, digest, row, uptodate, answer, end, unknown }

    static func tag(_ p: UnsafeMutablePointer<UInt8>) -> Tag {
        if equals(p, "probe") { return .probe }
        if equals(p, "absent") { return .absent }
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
        if equals(p, "end") { return .end }
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
        // `-`: nothing at all, not even a link that leads nowhere (one look, links not
        // followed); `~`: a link that leads nowhere (`Snapshot.probeHolds`).
        if key[0] == UInt8(ascii: "-") && key[1] == 0 { return !linkOrFileExists(path) }
        let exists = path.withMemoryRebound(to: CChar.self, capacity: 1) { stat($0, &st) == 0 }
        if key[0] == UInt8(ascii: "~") && key[1] == 0 { return !exists && linkOrFileExists(path) }
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

    /// Whether the `count` names (NUL-separated, after `directory`) the walk found missing in
    /// `directory` are all still missing: the directory still has the stat key recorded, or
    /// none of the names is there now (`Snapshot.absenceHolds`).
    static func absenceHolds(key: UnsafeMutablePointer<UInt8>, directory: UnsafeMutablePointer<UInt8>, names count: Int) -> Bool {
        if probeHolds(key: key, path: directory) { return true }
        let dirLength = strlen(directory)
        var name = directory + dirLength + 1
        var path = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<count {
            let nameLength = strlen(name)
            // The directory, a `/` unless it is `/` itself, the name.
            let slash = dirLength == 1 && directory[0] == UInt8(ascii: "/") ? 0 : 1
            guard dirLength + slash + nameLength < path.count else { return false }
            for i in 0..<dirLength { path[i] = directory[i] }
            if slash == 1 { path[dirLength] = UInt8(ascii: "/") }
            for i in 0..<nameLength { path[dirLength + slash + i] = name[i] }
            path[dirLength + slash + nameLength] = 0
            let exists = path.withUnsafeMutableBufferPointer { b in b.baseAddress.map { linkOrFileExists($0) } ?? true }
            if exists { return false }
            name += nameLength + 1
        }
        return true
    }

    /// Whether anything is at `path`, a link that leads nowhere included (`lstat`).
    static func linkOrFileExists(_ path: UnsafeMutablePointer<UInt8>) -> Bool {
        var st = stat()
        return path.withMemoryRebound(to: CChar.self, capacity: 1) { lstat($0, &st) == 0 }
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

    /// The largest snapshot read (`Snapshot.sizeLimit` in TackCore): a project pinning a
    /// thousand tools makes one of about a mebibyte.
    public static let sizeLimit = 32 << 20
}
