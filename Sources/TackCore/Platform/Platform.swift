#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// The machine tools are installed for: `linux-x86_64`, `darwin-arm64`, …
public struct Platform: Sendable, Hashable, CustomStringConvertible {
    /// `linux` or `darwin`.
    public var os: String
    /// `x86_64` or `arm64`.
    public var arch: String
    public init(os: String, arch: String) {
        self.os = os
        self.arch = arch
    }
    public var description: String { "\(os)-\(arch)" }

    /// `os-arch`: lowercase letters and digits, one `-`, then letters, digits and `_`.
    public static func isValidKey(_ key: String) -> Bool {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return parts[0].utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
            && parts[1].utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    public static let supported = [
        Platform(os: "linux", arch: "x86_64"), Platform(os: "linux", arch: "arm64"),
        Platform(os: "darwin", arch: "x86_64"), Platform(os: "darwin", arch: "arm64"),
    ]

    /// `os-arch` as a user writes it: `linux` or `darwin` (`macos`), then `x86_64` (`amd64`)
    /// or `arm64` (`aarch64`).
    public init?(key: String) {
        let parts = key.lowercased().split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "linux": os = "linux"
        case "darwin", "macos": os = "darwin"
        default: return nil
        }
        switch parts[1] {
        case "x86_64", "amd64": arch = "x86_64"
        case "arm64", "aarch64": arch = "arm64"
        default: return nil
        }
    }

    /// The platform tack installs for: this machine's, unless `TACK_PLATFORM` names another —
    /// to lock or verify another platform's downloads (tests set it; nothing installed for
    /// another platform is meant to run here).
    public static var current: Platform {
        if let forced = CurrentProcess.variable("TACK_PLATFORM"), let p = Platform(key: forced) { return p }
        return machine
    }

    /// This machine's platform, asked of the kernel once a process (every pinned tool's
    /// install record asks).
    public static let machine: Platform = {
        var u = utsname()
        uname(&u)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let os = field(u.sysname).lowercased()
        let machine = field(u.machine)
        return Platform(os: os == "darwin" ? "darwin" : "linux", arch: machine == "aarch64" || machine == "arm64" ? "arm64" : machine)
    }()

    /// `{version}`, `{os}`, `{arch}` and `{triple}` replaced, and `{NAME}` for each of `extra`
    /// (a locked `build`, say).
    public func render(_ template: String, version: String, extra: [String: String] = [:]) -> String {
        var out = template.replacing("{version}", with: version).replacing("{os}", with: os).replacing("{arch}", with: arch)
            .replacing("{triple}", with: triple)
        for (name, value) in extra { out = out.replacing("{\(name)}", with: value) }
        return out
    }

    /// The target triple release assets are named by (Rust's, which python-build-standalone,
    /// ripgrep and others use): `x86_64-unknown-linux-gnu`, `aarch64-apple-darwin`.
    public var triple: String {
        let cpu = arch == "arm64" ? "aarch64" : arch
        return os == "darwin" ? "\(cpu)-apple-darwin" : "\(cpu)-unknown-linux-gnu"
    }
}

extension String {
    func replacing(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard let first = target.first else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i] == first, self[i...].hasPrefix(target) {
                return i..<index(i, offsetBy: target.count)
            }
            i = index(after: i)
        }
        return nil
    }
}
