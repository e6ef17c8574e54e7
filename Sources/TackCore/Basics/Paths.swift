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
    public static func dirname(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "." }
        return i == path.startIndex ? "/" : String(path[..<i])
    }

    public static func basename(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: i)...])
    }

    public static func join(_ base: String, _ name: String) -> String {
        if name.hasPrefix("/") { return normalize(name) }
        return normalize(base == "/" ? "/" + name : base + "/" + name)
    }

    /// `name` inside the normalised directory `dir`, without normalising again: the resolver
    /// builds dozens of these per run, on the hot path.
    public static func child(_ dir: String, _ name: String) -> String {
        dir == "/" ? "/" + name : dir + "/" + name
    }

    /// Removes `.`, `..` and repeated slashes lexically.
    public static func normalize(_ path: String) -> String {
        var out: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = out.popLast(); continue }
            out.append(part)
        }
        return "/" + out.joined(separator: "/")
    }

    /// `~/x` for paths under `home`, for messages people read.
    public static func abbreviate(_ path: String, home: String?) -> String {
        guard let home, home.count > 1, path.hasPrefix(home) else { return path }
        let rest = path.dropFirst(home.count)
        if rest.isEmpty { return "~" }
        return rest.first == "/" ? "~" + rest : path
    }
}
