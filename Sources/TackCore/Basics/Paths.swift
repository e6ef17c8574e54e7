#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Path arithmetic on absolute, normalised strings.
public enum Paths {
    /// Split at the last `/` byte, as the file system splits (a `/` that a combining mark
    /// follows is still a separator), without walking the string's characters.
    public static func dirname(_ path: String) -> String {
        let bytes = path.utf8
        guard let i = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return i == bytes.startIndex ? "/" : String(decoding: bytes[..<i], as: UTF8.self)
    }

    public static func basename(_ path: String) -> String {
        let bytes = path.utf8
        guard let i = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: bytes[bytes.index(after: i)...], as: UTF8.self)
    }

    public static func join(_ base: String, _ name: String) -> String {
        if name.hasPrefix("/") { return normalize(name) }
        return normalize(base == "/" ? "/" + name : base + "/" + name)
    }

    /// `name` inside the normalised directory `dir`, without normalising again: the resolver
    /// builds dozens of these per run, on the hot path.
    public static func child(_ dir: String, _ name: String) -> String {
        var dir = dir, name = name
        let root = dir.utf8.count == 1 && dir.utf8.first == UInt8(ascii: "/")
        let count = (root ? 0 : dir.utf8.count) + 1 + name.utf8.count
        // One allocation, the bytes copied in: a resolution builds a dozen for every tool.
        return dir.withUTF8 { d in
            name.withUTF8 { n in
                String(unsafeUninitializedCapacity: count) { out in
                    guard let o = out.baseAddress else { return 0 }  // never: count is at least 1
                    var at = 0
                    if !root, let base = d.baseAddress {
                        UnsafeMutableRawPointer(o).copyMemory(from: base, byteCount: d.count)
                        at = d.count
                    }
                    o[at] = UInt8(ascii: "/")
                    if let base = n.baseAddress { UnsafeMutableRawPointer(o + at + 1).copyMemory(from: base, byteCount: n.count) }
                    return count
                }
            }
        }
    }

    /// Removes `.`, `..` and repeated slashes lexically.
    public static func normalize(_ path: String) -> String {
        // Most paths are normal already (a resolution asks for hundreds).
        if isNormal(path) { return path }
        var out: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = out.popLast(); continue }
            out.append(part)
        }
        return "/" + out.joined(separator: "/")
    }

    /// Whether `normalize` would return `path` as it is: absolute, with no empty, `.` or `..`
    /// component and no `/` at the end (but `/` itself).
    static func isNormal(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var bytes = path.utf8.makeIterator()
        guard bytes.next() == slash else { return false }
        var length = 0, dots = 0, components = 0
        while true {
            let c = bytes.next()
            if c == nil || c == slash {
                // The component that just ended: empty, `.` or `..` is not normal.
                if length == 0 { return c == nil && components == 0 }
                if dots == length && length <= 2 { return false }
                components += 1
                guard c != nil else { return true }
                length = 0
                dots = 0
            } else {
                length += 1
                if c == dot { dots += 1 }
            }
        }
    }

    /// `~/x` for paths under `home`, for messages people read.
    public static func abbreviate(_ path: String, home: String?) -> String {
        guard let home, home.count > 1, path.hasPrefix(home) else { return path }
        let rest = path.dropFirst(home.count)
        if rest.isEmpty { return "~" }
        return rest.first == "/" ? "~" + rest : path
    }
}
