import TackCore

/// `tack mirror`'s HTTP client: each URL is fetched (from its mirror, when a rule sends it
/// there) and what answered it is kept in the copy under the URL the backend asked for — the
/// publisher's, as tack.lock names it.
struct RecordingHTTPClient: HTTPClient {
    let base: any HTTPClient
    let mirrors: DownloadMirrors
    let copy: CopyWriter

    func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        let sum = try await base.download(mirrors.apply(url), to: destination, progress: progress)
        do { try copy.keep(url: url, file: destination, sum: sum) } catch { throw HTTPFailure(.notKept(error.message)) }
        return sum
    }

    func get(_ url: String, limit: DocumentLimit) async throws(HTTPFailure) -> [UInt8] {
        let bytes = try await base.get(mirrors.apply(url), limit: limit)
        do { try copy.keep(url: url, bytes: bytes) } catch { throw HTTPFailure(.notKept(error.message)) }
        return bytes
    }
}

/// `tack install --from`'s HTTP client: every URL answered from the copy, checked against its
/// index; one the copy lacks fails at once, naming it (never the network).
struct CarriedHTTPClient: HTTPClient {
    let copy: CopyReader
    /// The limits of documents fetched into memory (TACK_MAX_INDEX_BYTES).
    let environment: [String: String]

    func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        let result = copy.copy(url, to: destination)
        if case .success = result, let size = copy.file(for: url)?.blob.size { progress(Int64(size), Int64(size)) }
        return try result.get()
    }

    func get(_ url: String, limit: DocumentLimit) async throws(HTTPFailure) -> [UInt8] {
        if let size = copy.file(for: url)?.blob.size, size > limit.bytes(environment) {
            throw HTTPFailure(.overLimit(limit.tooLarge(environment)))
        }
        return try copy.bytes(url, limit: limit.bytes(environment) + 1).get()
    }
}
