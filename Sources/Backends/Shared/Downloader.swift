import Foundation
import TackCore

/// Downloads into the cache: streamed to a partial file, its SHA-256 checked, then renamed to
/// its checksum, so a cached file is never partial and an interrupted download leaves nothing
/// that looks complete. Transient failures (a server error, a timeout, a cut connection) are
/// retried from the start.
struct Downloader: Sendable {
    let http: any HTTPClient
    /// Delays between attempts after a transient failure.
    let retryDelays: [Double]
    var fs: any FileSystem = LocalFileSystem()

    /// The download of `url` in `cache/downloads` (keyed by URL and checksum,
    /// `DownloadCacheName`), fetched and checked against `expected` first when it is not there:
    /// a pinned checksum is always checked against the bytes of this URL, never answered by a
    /// file another URL brought. `expected.from` says where the checksum came from, `platform`
    /// which platform's file it is, for the mismatch message.
    func fetch(_ url: String, expected checked: (sum: String, from: ChecksumOrigin)?, tool: String, platform: String, cache: String, offline: Bool,
               report: @escaping @Sendable (InstallPhase) -> Void) async throws(TackError) -> (path: String, sum: String) {
        let downloads = cache + "/downloads"
        let expected = checked?.sum
        do { try fs.createDirectory(downloads) } catch { throw TackError("cannot create \(downloads): \(error)") }
        if let expected, Checksum.isSHA256(expected) {
            let cached = downloads + "/" + DownloadCacheName.name(url: url, sum: expected)
            if fs.info(cached) != nil { return (cached, expected.lowercased()) }
        }
        if offline {
            throw TackError("TACK_OFFLINE is set, and \(url) is not in the download cache — unset TACK_OFFLINE to download \(tool)")
        }
        let partial = downloads + "/.partial-\(getpid())-\(UUID().uuidString)"
        defer { try? fs.remove(partial) }
        let sum: String
        do {
            sum = try await withRetries { () async throws(HTTPFailure) -> String in
                try await http.download(url, to: partial) { received, total in report(.downloading(received: received, total: total)) }
            }
        } catch {
            let next = error.status == 404 || error.status == 410
                ? "check the URL (is this version published there?), then try again"
                : "try again; if it keeps failing, check the URL and your network"
            var failure = TackError("cannot download \(tool) from \(url): \(error.message) — nothing was installed; \(next)")
            failure.cause = .fetch(url: Redact.url(url), error.reason)
            throw failure
        }
        if let checked, !Checksum.same(sum, checked.sum) {
            throw TackError(.checksumMismatch(tool: tool, platform: platform, expected: checked.sum, actual: sum, origin: checked.from))
        }
        let file = downloads + "/" + DownloadCacheName.name(url: url, sum: sum)
        if rename(partial, file) != 0 && fs.info(file) == nil {
            throw TackError("cannot move the download of \(tool) into \(downloads): \(String(cString: strerror(errno)))")
        }
        return (file, sum)
    }

    /// `body`, tried again after each delay while it fails with a transient error.
    func withRetries<T>(_ body: () async throws(HTTPFailure) -> T) async throws(HTTPFailure) -> T {
        var attempt = 0
        while true {
            do { return try await body() } catch {
                guard error.isTransient, attempt < retryDelays.count else { throw error }
                try? await Task.sleep(nanoseconds: UInt64(retryDelays[attempt] * 1_000_000_000))
                attempt += 1
            }
        }
    }
}
