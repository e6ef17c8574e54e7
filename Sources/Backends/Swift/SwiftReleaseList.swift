import Foundation
import TackCore

/// swift.org's lists (or a mirror's, `TACK_SWIFT_MIRROR`): the releases with the platforms and
/// Swift SDKs each is published for, and a branch's snapshots.
struct SwiftReleaseList {
    let downloader: Downloader
    let http: any HTTPClient
    /// Where the lists are read: swift.org's site, or the mirror.
    let siteURL: String
    /// What to check when a list is not JSON (`swift.org`, or `TACK_SWIFT_MIRROR`).
    let source: String

    struct Release {
        var version: Version
        var tag: String
        /// Platform identifiers with the architectures each is built for.
        var platforms: [String: [String]]
        /// The Swift SDKs published with it (`static-linux`), each with the SHA-256 the list gives.
        var sdks: [String: String] = [:]
    }

    func releases() async throws(TackError) -> [Release] {
        let url = siteURL + "/api/v1/install/releases.json"
        let body = try await getJSON(url, what: "the Swift releases")
        guard let list = body as? [[String: Any]] else { throw TackError("\(url) is not swift.org's release list (expected a JSON array of releases)") }
        var out: [Release] = []
        for entry in list {
            guard let name = entry["name"] as? String, let v = Version(name), case .release? = SwiftToolchain.name(v) else { continue }
            let tag = (entry["tag"] as? String).flatMap { $0.hasPrefix("swift-") && Version(word: $0) != nil ? $0 : nil } ?? SwiftToolchain.releaseTag(v)
            var platforms: [String: [String]] = [:]
            var sdks: [String: String] = [:]
            for p in entry["platforms"] as? [[String: Any]] ?? [] {
                // `{"name": "Static SDK", "platform": "static-sdk", "checksum": "…"}`: an SDK, not a platform.
                if let listing = p["platform"] as? String, let sdk = SwiftSDK.listed(as: listing) {
                    if let sum = p["checksum"] as? String, Checksum.isSHA256(sum) { sdks[sdk.name] = sum.lowercased() }
                    continue
                }
                guard let pname = p["name"] as? String else { continue }
                let id = (p["dir"] as? String).map { SwiftPlatform.identifier(String($0.prefix { $0 != "-" })) } ?? SwiftPlatform.identifier(releaseName: pname)
                guard SwiftPlatform.isValidIdentifier(id) else { continue }
                platforms[id] = (p["archs"] as? [String]) ?? ["x86_64"]
            }
            // Every release has a macOS package (the list names Xcode, not a platform).
            platforms["macos"] = ["universal"]
            out.append(Release(version: v, tag: tag, platforms: platforms, sdks: sdks))
        }
        return out.sorted { $0.version < $1.version }
    }

    /// The snapshots of `branch` for a platform and architecture, each with its tag.
    func snapshots(branch: String, identifier: String, arch: String) async throws(TackError) -> [AvailableVersion] {
        let url = siteURL + "/api/v1/install/dev/\(branch)/\(identifier).json"
        let body = try await getJSON(url, what: "the \(branch) snapshots for \(identifier)")
        guard let byArch = body as? [String: Any] else { throw TackError("\(url) is not a swift.org snapshot list (expected a JSON object of architectures)") }
        var found: [Version: AvailableVersion] = [:]
        for entry in byArch[arch] as? [[String: Any]] ?? [] {
            guard let dir = entry["dir"] as? String, let v = SwiftToolchain.snapshotVersion(dir: dir) else { continue }
            found[v] = AvailableVersion(version: v, fields: ["tag": .string(dir)])
        }
        return found.values.sorted { $0.version < $1.version }
    }

    func getJSON(_ url: String, what: String) async throws(TackError) -> Any {
        let bytes: [UInt8]
        do { bytes = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url) } } catch {
            throw TackError("cannot list \(what) from \(url): \(error.message)")
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            throw TackError("\(url) did not answer with JSON; is \(source) right?")
        }
        return json
    }
}
