/// The platforms swift.org builds toolchains for, and which one this machine is.
///
/// swift.org names a Linux platform three ways: `Ubuntu 22.04` in its release list,
/// `ubuntu2204` in its download directories (with `-aarch64` for ARM), and `ubuntu22.04` in
/// its archive names. macOS has one universal `.pkg` (directory `xcode`, archive `osx`).
public struct SwiftPlatform: Sendable, Hashable, CustomStringConvertible {
    /// swift.org's identifier: `ubuntu2204`, `debian12`, `amazonlinux2`, `ubi9`, `macos`.
    public var identifier: String
    /// `x86_64`, `aarch64`, or `universal` (macOS).
    public var arch: String

    public init(identifier: String, arch: String) {
        self.identifier = identifier
        self.arch = arch
    }

    public var isMacOS: Bool { identifier == "macos" }

    /// The download directory: `ubuntu2204`, `ubuntu2204-aarch64`, `xcode`.
    public var directory: String {
        if isMacOS { return "xcode" }
        return arch == "aarch64" ? identifier + "-aarch64" : identifier
    }

    /// The platform in archive names: `ubuntu22.04`, `ubuntu22.04-aarch64`, `osx`.
    public var archiveSuffix: String {
        if isMacOS { return "osx" }
        var name = identifier
        // Ubuntu keeps the dot of its version: ubuntu2204 → ubuntu22.04.
        if name.hasPrefix("ubuntu"), name.utf8.count == 10 {
            let b = Array(name.utf8)
            name = String(decoding: b[0..<8] + [0x2E] + b[8...], as: UTF8.self)
        }
        return arch == "aarch64" ? name + "-aarch64" : name
    }

    /// The archive's extension: `tar.gz`, or `pkg` on macOS.
    public var archiveExtension: String { isMacOS ? "pkg" : "tar.gz" }

    /// The key tack.lock records this platform's archive under: the archive suffix.
    public var description: String { archiveSuffix }

    /// Whether `s` can be a swift.org platform identifier (`ubuntu2204`, also written
    /// `ubuntu22.04`): lowercase letters, digits and at most one dot, 2 to 32 characters.
    public static func isValidIdentifier(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard (2...32).contains(b.count), let first = b.first, first >= 0x61 && first <= 0x7A else { return false }
        return b.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E } && b.filter { $0 == 0x2E }.count <= 1
    }

    /// The identifier of a name as written: `ubuntu22.04` → `ubuntu2204`.
    public static func identifier(_ s: String) -> String { s.filter { $0 != "." } }

    /// The identifier of a platform as swift.org's release list names it: `Ubuntu 22.04` →
    /// `ubuntu2204`, `Red Hat Universal Base Image 9` → `ubi9`, `Amazon Linux 2` → `amazonlinux2`.
    public static func identifier(releaseName name: String) -> String {
        let lower = name.lowercased()
        if let rest = lower.droppingPrefix("red hat universal base image") {
            return "ubi" + rest.filter { $0 != " " }
        }
        return lower.filter { $0 != " " && $0 != "." }
    }

    /// The swift.org platform this machine installs: macOS's package, the pin's `platform:`,
    /// else the first this Linux distribution (its /etc/os-release text) maps to; nil when it
    /// maps to none.
    public static func forMachine(_ platform: Platform, osRelease: String, chosen: String?) -> SwiftPlatform? {
        let arch = arch(of: platform)
        if platform.os == "darwin" { return SwiftPlatform(identifier: "macos", arch: arch) }
        return (chosen ?? candidates(osRelease: osRelease).first).map { SwiftPlatform(identifier: $0, arch: arch) }
    }

    /// The machine's architecture as swift.org names it.
    public static func arch(of platform: Platform) -> String {
        if platform.os == "darwin" { return "universal" }
        return platform.arch == "arm64" ? "aarch64" : platform.arch
    }

    /// The swift.org identifiers this Linux distribution can use, best first, from the text of
    /// /etc/os-release: `ID=ubuntu VERSION_ID=22.04` → `ubuntu2204`; derivatives by their
    /// `ID_LIKE` and Ubuntu codename (Linux Mint, Pop!_OS); RHEL and its rebuilds → `ubi9`.
    public static func candidates(osRelease text: String) -> [String] {
        let fields = BuildPlatform.parse(text)
        let id = (fields["ID"] ?? "").lowercased()
        let version = fields["VERSION_ID"] ?? ""
        let major = String(version.prefix { $0 != "." })
        let like = (fields["ID_LIKE"] ?? "").lowercased().split(separator: " ").map(String.init)
        var out: [String] = []
        switch id {
        case "ubuntu", "debian", "fedora": out.append(id + (id == "ubuntu" ? version.filter { $0 != "." } : major))
        case "amzn": out.append("amazonlinux" + major)
        case "rhel", "centos", "rocky", "almalinux", "ol": out.append("ubi" + major)
        default: break
        }
        let codenames = ["focal": "ubuntu2004", "jammy": "ubuntu2204", "noble": "ubuntu2404", "bookworm": "debian12", "trixie": "debian13"]
        if let codename = fields["UBUNTU_CODENAME"].flatMap({ codenames[$0] }) { out.append(codename) }
        if like.contains("debian"), let codename = fields["VERSION_CODENAME"].flatMap({ codenames[$0] }) { out.append(codename) }
        if like.contains("rhel") || like.contains("centos"), !major.isEmpty { out.append("ubi" + major) }
        var seen = Set<String>()
        return out.filter { isValidIdentifier($0) && seen.insert($0).inserted }
    }

    /// The system packages a toolchain needs on this platform (what swift.org's install
    /// guide and swiftly list), with the package manager that installs them; nil when tack
    /// does not know the platform's list.
    public var systemPackages: (manager: PackageManager, packages: [String])? {
        switch identifier {
        case "ubuntu2004":
            return (.apt, ["binutils", "git", "gnupg2", "libc6-dev", "libcurl4-openssl-dev", "libedit2", "libgcc-9-dev", "libpython3.8",
                           "libsqlite3-0", "libstdc++-9-dev", "libxml2-dev", "libz3-dev", "pkg-config", "tzdata", "unzip", "zlib1g-dev"])
        case "ubuntu2204":
            return (.apt, ["binutils", "git", "gnupg2", "libc6-dev", "libcurl4-openssl-dev", "libedit2", "libgcc-11-dev", "libpython3-dev",
                           "libsqlite3-0", "libstdc++-11-dev", "libxml2-dev", "libz3-dev", "pkg-config", "tzdata", "unzip", "zlib1g-dev"])
        case "ubuntu2404":
            return (.apt, ["binutils", "git", "gnupg2", "libc6-dev", "libcurl4-openssl-dev", "libedit2", "libgcc-13-dev", "libncurses-dev",
                           "libpython3-dev", "libsqlite3-0", "libstdc++-13-dev", "libxml2-dev", "libz3-dev", "pkg-config", "tzdata", "unzip", "zlib1g-dev"])
        case "debian12":
            return (.apt, ["binutils-gold", "gcc", "git", "libcurl4-openssl-dev", "libedit-dev", "libicu-dev", "libncurses-dev", "libpython3-dev",
                           "libsqlite3-dev", "libstdc++-12-dev", "libxml2-dev", "pkg-config", "tzdata", "uuid-dev"])
        case "fedora39", "ubi9":
            return (.dnf, ["binutils", "gcc", "git", "libcurl-devel", "libedit-devel", "libicu-devel", "libstdc++-devel", "libstdc++-static",
                           "libuuid-devel", "libxml2-devel", "python3-devel", "sqlite-devel", "unzip"])
        case "amazonlinux2":
            return (.dnf, ["binutils", "gcc", "git", "glibc-static", "gzip", "libbsd", "libcurl-devel", "libedit", "libicu", "libsqlite",
                           "libstdc++-static", "libuuid", "libxml2-devel", "tar", "tzdata", "unzip", "zlib-devel"])
        default:
            return nil
        }
    }
}
