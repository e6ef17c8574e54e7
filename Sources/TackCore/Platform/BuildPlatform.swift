#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// What a native build links against on this machine, for the team cache's key: os and arch,
/// and on Linux the distribution (its ID and VERSION_ID) and the C library and its version;
/// on macOS the major OS version.
public enum BuildPlatform {
    /// `os`, `arch`, `distribution`, `libc`.
    public static func fields(platform: Platform = .current, osRelease: String, libc: String?) -> [String: String] {
        var out = ["os": platform.os, "arch": platform.arch]
        if platform.os == "linux" {
            let release = parse(osRelease)
            let id = release["ID"] ?? "linux"
            out["distribution"] = id + (release["VERSION_ID"].map { "-" + $0 } ?? "")
        }
        if let libc { out["libc"] = libc }
        return out
    }

    /// The fields of this machine (reads /etc/os-release and asks the C library its version).
    public static func current(fs: any FileSystem) -> [String: String] {
        let text = (try? fs.read("/etc/os-release")).map { String(decoding: $0, as: UTF8.self) }
            ?? (try? fs.read("/usr/lib/os-release")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return fields(osRelease: text, libc: libcVersion())
    }

    /// `glibc-2.36`, `musl`, or on macOS `darwin-24` (the kernel's major version, which moves
    /// with the OS's).
    public static func libcVersion() -> String? {
        #if canImport(Glibc)
        // `glibc 2.36`; musl has no answer.
        var buffer = [CChar](repeating: 0, count: 64)
        let n = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
        guard n > 0, n <= buffer.count else { return "musl" }
        let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.replacing(" ", with: "-")
        #elseif canImport(Darwin)
        var u = utsname()
        uname(&u)
        let release = withUnsafeBytes(of: u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "darwin-" + (release.split(separator: ".").first.map(String.init) ?? release)
        #else
        return nil
        #endif
    }

    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            var value = String(line[line.index(after: eq)...]).trimmingSpaces
            if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f { value = String(value.dropFirst().dropLast()) }
            fields[String(line[..<eq]).trimmingSpaces] = value
        }
        return fields
    }
}
