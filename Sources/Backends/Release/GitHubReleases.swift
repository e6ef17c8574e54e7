import Foundation
import TackCore

/// A GitHub repository's releases, through GitHub's REST API (`TACK_GITHUB_API` stands in for
/// it: a GitHub Enterprise server, a mirror, a test's loopback server): the list of releases
/// with the version each tag names, and one release's assets with the SHA-256 GitHub gives
/// for each (`digest`), so a lock for another platform needs no download of that platform's
/// asset.
struct GitHubReleases: Sendable {
    let http: any HTTPClient
    let mirrors: DownloadMirrors
    /// Delays between attempts after a transient failure.
    var retryDelays: [Double] = [0.25, 0.5, 1, 2]
    /// At most this many pages of 100 releases are read (the newest first).
    var maxPages = 10

    struct Release: Equatable, Sendable {
        var tag: String
        /// The version the tag names (`1.9.5` of `v1.9.5`, `cli/v1.9.5`, `tool-1.9.5`), or nil.
        var version: Version?
        var prerelease = false
        var draft = false
        /// When it was published (seconds since 1970).
        var published: Int64?
        var assets: [Asset] = []
    }

    struct Asset: Equatable, Sendable {
        var name: String
        /// Where it downloads from (`browser_download_url`).
        var url: String
        /// Its SHA-256 as GitHub computed it on upload (lowercase hex), where GitHub says.
        var sha256: String?
    }

    /// Every published release, newest first (drafts are not): up to `maxPages` pages.
    func list(_ repository: String) async throws(TackError) -> [Release] {
        var out: [Release] = []
        for page in 1...max(1, maxPages) {
            let url = mirrors.apply("https://api.github.com/repos/\(repository)/releases?per_page=100&page=\(page)")
            let releases = try Self.releases(try await get(url, what: "releases of \(repository)"), from: url)
            out += releases.filter { !$0.draft }
            if releases.count < 100 { break }
        }
        return out
    }

    /// The newest release (GitHub's "latest": not a draft or prerelease).
    func latest(_ repository: String) async throws(TackError) -> Release {
        let url = mirrors.apply("https://api.github.com/repos/\(repository)/releases/latest")
        let body = try await get(url, what: "latest release of \(repository)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)), let release = Self.release(object) else {
            throw TackError("GitHub's answer for the latest release of \(repository) (\(Redact.url(url))) is not a release")
        }
        return release
    }

    /// The release of `tag`.
    func release(_ repository: String, tag: String) async throws(TackError) -> Release {
        let escaped = tag.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#%"))) ?? tag
        let url = mirrors.apply("https://api.github.com/repos/\(repository)/releases/tags/\(escaped)")
        let body = try await get(url, what: "release \(tag) of \(repository)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)), let release = Self.release(object) else {
            throw TackError("GitHub's answer for release \(tag) of \(repository) (\(Redact.url(url))) is not a release")
        }
        return release
    }

    func get(_ url: String, what: String) async throws(TackError) -> [UInt8] {
        let downloader = Downloader(http: http, retryDelays: retryDelays)
        do { return try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url) } } catch {
            if error.status == 404 { throw TackError("GitHub has no \(what) (\(Redact.url(url)) answered 404)") }
            throw TackError("cannot read \(what) from \(Redact.url(url)): \(error.message)")
        }
    }

    /// A page of the release list.
    static func releases(_ body: [UInt8], from url: String) throws(TackError) -> [Release] {
        guard let list = (try? JSONSerialization.jsonObject(with: Data(body))) as? [Any] else {
            throw TackError("GitHub's answer at \(Redact.url(url)) is not a list of releases")
        }
        return list.compactMap(release)
    }

    /// One release of GitHub's JSON; nil when it has no tag.
    static func release(_ object: Any) -> Release? {
        guard let r = object as? [String: Any], let tag = r["tag_name"] as? String, !tag.isEmpty else { return nil }
        var release = Release(tag: tag, version: Version(tag: tag))
        release.prerelease = r["prerelease"] as? Bool ?? false
        release.draft = r["draft"] as? Bool ?? false
        release.published = (r["published_at"] as? String).flatMap(ReleaseAge.timestamp)
        release.assets = (r["assets"] as? [Any] ?? []).compactMap { item in
            guard let a = item as? [String: Any], let name = a["name"] as? String, let url = a["browser_download_url"] as? String else { return nil }
            var sha256: String?
            if let digest = a["digest"] as? String, digest.hasPrefix("sha256:") {
                let hex = String(digest.dropFirst("sha256:".count)).lowercased()
                if Checksum.isSHA256(hex) { sha256 = hex }
            }
            return Asset(name: name, url: url, sha256: sha256)
        }
        return release
    }

}
