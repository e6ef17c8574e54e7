/// A Swift SDK that swift.org publishes beside a toolchain release (an SE-0387 bundle): the
/// Static Linux SDK (`static-linux`, fully static executables for any Linux, since 6.0) and
/// the WebAssembly SDK (`wasm`, since 6.2). An SDK works only with the toolchain of its exact
/// version, so tack installs it inside that toolchain's install (`swift-sdks/`), the one
/// directory that toolchain's SwiftPM commands read, and nowhere another toolchain looks.
public struct SwiftSDK: Sendable, Hashable {
    /// tack.yml's name of it: `static-linux`.
    public let name: String
    /// The `platform` swift.org's release list gives it, with its checksum (`static-sdk`).
    public let listing: String
    /// Its directory below a release's on the download host (`static-sdk`).
    public let directory: String
    /// What follows the release's tag in the bundle's name (`_static-linux-0.0.1`).
    public let suffix: String

    public static let all = [
        SwiftSDK(name: "static-linux", listing: "static-sdk", directory: "static-sdk", suffix: "_static-linux-0.0.1"),
        SwiftSDK(name: "wasm", listing: "wasm-sdk", directory: "wasm-sdk", suffix: "_wasm"),
    ]

    /// The SDK tack.yml calls `name`; nil for one tack does not know.
    public static func named(_ name: String) -> SwiftSDK? { all.first { $0.name == name } }

    /// The SDK swift.org's release list names `platform` (`static-sdk`).
    public static func listed(as platform: String) -> SwiftSDK? { all.first { $0.listing == platform } }

    /// Every name tack knows, for messages: `static-linux, wasm`.
    public static var names: String { all.map({ $0.name }).joined(separator: ", ") }

    /// The bundle's directory name: `swift-6.0.3-RELEASE_static-linux-0.0.1.artifactbundle`.
    public func bundle(tag: String) -> String { tag + suffix + ".artifactbundle" }

    /// The bundle archive of release `v` below the download host, derived from the version
    /// alone (a lock never chooses it):
    /// `swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE_static-linux-0.0.1.artifactbundle.tar.gz`.
    public func path(release v: Version) -> String {
        let tag = SwiftToolchain.releaseTag(v)
        return "\(SwiftToolchain.releaseDirectory(v))/\(directory)/\(tag)/\(bundle(tag: tag)).tar.gz"
    }

    /// Where a toolchain install keeps its SDKs.
    public static func directory(install: String) -> String { install + "/swift-sdks" }

    /// The file beside the bundles that records which archive an SDK was installed from: its
    /// SHA-256 and the fingerprint of the key that signed it (`SHA256 SIGNER`).
    public func record(install: String) -> String { Self.directory(install: install) + "/.\(name).installed" }

    /// What the toolchain install at `install` holds of this SDK of release `v`: the SHA-256
    /// of the archive it came from and its signer; nil when it is not there.
    public func installed(release v: Version, install: String, fs: any FileSystem) -> (sha256: String, signer: String)? {
        guard fs.isDirectory(Self.directory(install: install) + "/" + bundle(tag: SwiftToolchain.releaseTag(v))),
              let bytes = try? fs.read(record(install: install)) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard fields.count == 2, Checksum.isSHA256(fields[0]) else { return nil }
        return (fields[0].lowercased(), fields[1])
    }

    /// The SDKs a lock entry pins (its `options: { sdks: … }`), in order.
    public static func pinned(_ entry: LockedTool) -> [String] {
        LockedTool.words(entry.options["sdks"] ?? "")
    }

    /// The SDKs `entry` pins that the install at `install` lacks: not there, installed from
    /// another archive than the lock's, or not locked yet (the install learns its checksum).
    public static func missing(_ entry: LockedTool, install: String, fs: any FileSystem) -> [String] {
        let sums = entry.fieldMap(lockSHA256)
        return pinned(entry).filter { name in
            guard let sdk = named(name), let sum = sums[name],
                  let have = sdk.installed(release: entry.version, install: install, fs: fs) else { return true }
            return !Checksum.same(have.sha256, sum)
        }
    }

    /// The release a bundle in a `swift-sdks` directory was made for, from its name
    /// (`swift-6.0.2-RELEASE_static-linux-0.0.1.artifactbundle` → 6.0.2); nil for a bundle
    /// not named as swift.org names them.
    public static func release(ofBundle name: String) -> Version? {
        guard name.hasSuffix(".artifactbundle"), let underscore = name.firstIndex(of: "_") else { return nil }
        let tag = name[..<underscore]
        guard tag.hasPrefix("swift-"), tag.hasSuffix("-RELEASE") else { return nil }
        guard let v = Version(word: String(tag.dropFirst("swift-".count).dropLast("-RELEASE".count))),
              case .release? = SwiftToolchain.name(v), SwiftToolchain.releaseTag(v) == tag else { return nil }
        return v
    }

    /// Where SwiftPM keeps the SDKs `swift sdk install` installs for every toolchain of the
    /// user: `$XDG_CONFIG_HOME/swiftpm/swift-sdks`, `~/.swiftpm/swift-sdks`, and on macOS
    /// `~/Library/org.swift.swiftpm/swift-sdks`. tack's toolchains never read them.
    public static func userDirectories(home: String?, environment: [String: String]) -> [String] {
        var out: [String] = []
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { out.append(xdg + "/swiftpm/swift-sdks") }
        if let home {
            out.append(home + "/.swiftpm/swift-sdks")
            out.append(home + "/Library/org.swift.swiftpm/swift-sdks")
        }
        return out
    }

    /// tack.lock's fields of a toolchain's SDKs, each a map by SDK name: the archive's path
    /// below the download host, its SHA-256, and the key that signed it.
    public static let lockPath = "sdk-path"
    public static let lockSHA256 = "sdk-sha256"
    public static let lockSigner = "sdk-signed-by"
}
