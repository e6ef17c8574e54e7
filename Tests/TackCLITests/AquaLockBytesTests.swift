@testable import Backends
import Foundation
import TackCore
import Testing
import YAML

/// A lock for four platforms of ten tools of aqua's registry, each publishing a checksum file:
/// only the checksum files are fetched, none of the forty assets. `bench/aqua-lock` runs this
/// with `TACK_BENCH_REPORT=1` to print the bytes.
@Suite(.ownThreads) struct AquaLockBytesTests {
    static let platforms = [Platform(os: "linux", arch: "x86_64"), Platform(os: "linux", arch: "arm64"),
                            Platform(os: "darwin", arch: "arm64"), Platform(os: "darwin", arch: "x86_64")]

    /// Ten packages of the fixture that download a release asset on all four platforms and
    /// name a SHA-256 checksum file in the same release.
    static func tenPackages() throws -> [AquaPackage] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: AquaBackendTests.registry)))
        let registry = try AquaRegistry(bytes, tag: "local", sha256: "", source: "fixture")
        let chosen = registry.packages.filter { p in
            guard p.type == "github_release", p.repository != nil, p.name.split(separator: "/").count == 2 else { return false }
            return platforms.allSatisfy { platform in
                guard let d = try? p.download(version: "v1.2.3", platform: platform), let c = d.checksum, c.algorithm == "sha256", c.fileFormat.isEmpty,
                      c.minisign == nil, c.cosign == nil, c.url.hasPrefix("https://github.com/") else { return false }
                return true
            }
        }
        return Array(chosen.sorted { $0.name < $1.name }.prefix(10))
    }

    @Test func aFourPlatformLockOfTenToolsFetchesOnlyTheChecksumFiles() throws {
        let packages = try Self.tenPackages()
        #expect(packages.count == 10, "\(packages.map(\.name))")
        let s = try Sandbox()
        var assetBytes = 0, assetPaths: [String] = []
        var manifest = "tools:\n"
        for (n, package) in packages.enumerated() {
            guard let repository = package.repository else { continue }
            var sums: [String: [String]] = [:]
            for platform in Self.platforms {
                let d = try package.download(version: "v1.2.3", platform: platform)
                let path = String(d.url.dropFirst("https://github.com/".count))
                // 64 KiB of its own per asset: what a lock must not download.
                var body = Data("\(package.name) \(platform)\n".utf8)
                body.append(Data(repeating: UInt8(n), count: (1 << 16) - body.count))
                try s.write("www/gh/" + path, body)
                assetBytes += body.count
                assetPaths.append(path)
                let checksumPath = String((d.checksum?.url ?? "").dropFirst("https://github.com/".count))
                sums[checksumPath, default: []].append("\(SHA256Digest.hex(Array(body)))  \(d.asset)")
            }
            for (path, lines) in sums { try s.write("www/gh/" + path, lines.joined(separator: "\n") + "\n") }
            try s.write("www/repos/\(repository)/releases/index.html", #"[{"tag_name": "v1.2.3"}]"#)
            manifest += "  t\(n): { aqua: \(package.name), version: 1.2.3 }\n"
        }
        manifest += "platforms: [linux-x86_64, linux-arm64, darwin-arm64, darwin-x86_64]\n"
        try s.write("app/tack.yml", manifest)
        let server = try FixtureServer(serving: s.root + "/www")
        let env = ["TACK_GITHUB_API": server.url("static"), "TACK_GITHUB_DOWNLOADS": server.url("static/gh"), "TACK_AQUA_REGISTRY": AquaBackendTests.registry]
        let r = try s.tack(["lock"], in: "app", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        var fetchedAssets = 0
        for path in assetPaths { fetchedAssets += try server.requests("static/gh/" + path) }
        #expect(fetchedAssets == 0, "a four-platform lock downloaded \(fetchedAssets) assets")
        // Each tool's checksum file once, not once per platform.
        let files = FileManager.default.enumerator(atPath: s.root + "/www/gh")?.allObjects as? [String] ?? []
        for file in files where !assetPaths.contains(file) && !file.hasSuffix("index.html") && FileManager.default.fileExists(atPath: s.root + "/www/gh/" + file) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: s.root + "/www/gh/" + file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            #expect(try server.requests("static/gh/" + file) == 1, "\(file)")
        }
        let lock = s.read("app/tack.lock") ?? ""
        #expect(lock.components(separatedBy: "registry-sha256:").count - 1 == 10)
        if ProcessInfo.processInfo.environment["TACK_BENCH_REPORT"] != nil {
            var checksumBytes = 0
            let files = FileManager.default.enumerator(atPath: s.root + "/www/gh")?.allObjects as? [String] ?? []
            for file in files where !assetPaths.contains(file) {
                let requested = try server.requests("static/gh/" + file)
                let size = (try? FileManager.default.attributesOfItem(atPath: s.root + "/www/gh/" + file)[.size] as? Int) ?? 0
                checksumBytes += requested * (size ?? 0)
            }
            print("aqua-lock: 10 tools × 4 platforms: fetched \(checksumBytes) bytes of checksum files; the 40 assets (\(assetBytes) bytes) were not downloaded")
        }
    }
}
