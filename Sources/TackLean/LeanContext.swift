import CLean

/// What locates a snapshot, read from the process without building dictionaries: the working
/// directory, `$TACK_HOME`, and the environment that steers resolution, exactly as
/// `Settings` and `Snapshot.environmentKey` compute them.
public struct LeanContext {
    public var cwd: [UInt8]
    public var tackHome: [UInt8]
    public var environmentKey: [UInt8]

    /// Nil also where no snapshot can be keyed (`environmentKey`).
    public static func current() -> LeanContext? {
        guard let cwd = workingDirectory(), let home = tackHome(), let key = environmentKey() else { return nil }
        return LeanContext(cwd: cwd, tackHome: home, environmentKey: key)
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

    /// The variable's value, nil when unset or empty.
    static func variable(_ name: StaticString) -> [UInt8]? {
        exactVariable(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The variable's value as the process has it (empty when set empty).
    public static func exactVariable(_ name: StaticString) -> [UInt8]? {
        name.withUTF8Buffer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { getenv($0) } }.map { bytes(UnsafePointer($0)) }
    }

    /// The variable `name` (its bytes) as the process has it.
    public static func exactVariable(_ name: [UInt8]) -> [UInt8]? {
        var z = name
        z.append(0)
        return z.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { getenv($0) }.map { bytes(UnsafePointer($0)) }
        }
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
    /// Nil when one of them holds U+0001 itself, which would make two environments one key: no
    /// snapshot is read or written there (both readers).
    public static func environmentKey() -> [UInt8]? {
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
            let entry = bytes(chosen)
            if entry.contains(1) { return nil }
            out += entry
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
