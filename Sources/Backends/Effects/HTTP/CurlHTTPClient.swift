import Foundation
import BackendKinds
import TackCore

/// HTTP through libcurl: bodies streamed into a file and hashed as they arrive, a body
/// shorter than its Content-Length reported as truncated, a server that stalls or crawls given
/// up on (`TransferLimits`). Each exchange runs on a thread of its own, asleep while it waits.
/// Redirects are followed here, at most ten, and `Authorization` goes only to the scheme, host
/// and port it was meant for.
public struct CurlHTTPClient: HTTPClient, HTTPTransport {
    let limits: TransferLimits
    /// For a GitHub token (`GitHub.authorization`).
    let environment: [String: String]
    /// Where each request is said, for `-v`.
    let trace: Trace
    /// The proxy and certificate authorities the environment names.
    let network: NetworkSettings
    static let maximumRedirects = 10

    public init(limits: TransferLimits? = nil, environment: [String: String] = CurrentProcess.environment(), trace: Trace = .off) {
        self.environment = environment
        self.network = NetworkSettings(environment: environment)
        self.limits = limits ?? .from(environment: environment)
        self.trace = trace
    }

    public func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        try await download(url, to: destination, cap: nil, progress: progress)
    }

    /// `cap`: the most bytes to take, and what to say past it (a small document's limit).
    func download(_ url: String, to destination: String, cap: (bytes: Int64, message: String)?,
                  progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        guard let u = URLComponents(string: url), let scheme = u.scheme?.lowercased() else {
            throw HTTPFailure(.notAURL)
        }
        trace("fetching \(Redact.url(url))")
        if scheme == "file" { return try LocalCopy.copy(u.path, to: destination, cap: cap) }
        guard scheme == "https" || scheme == "http" else { throw HTTPFailure(.unsupportedScheme(scheme)) }
        var headers: [String: String] = [:]
        if let token = GitHub.authorization(for: url, environment: environment) { headers["Authorization"] = token }
        return try await download(HTTPRequest("GET", url, headers: headers), to: destination, cap: cap, progress: progress)
    }

    public func get(_ url: String, limit: DocumentLimit) async throws(HTTPFailure) -> [UInt8] {
        let path = Paths.child(CurrentProcess.temporaryDirectory, "tack-get-\(UUID().uuidString)")
        defer { try? LocalFileSystem().remove(path) }
        // Streamed to a file and stopped at the cap: never more than the cap in memory.
        let cap = limit.bytes(environment)
        _ = try await download(url, to: path, cap: (Int64(cap), limit.tooLarge(environment))) { _, _ in }
        return (try? LocalFileSystem().read(path, limit: cap)) ?? []
    }

    public func send(_ request: HTTPRequest, limit: Int) async throws(HTTPFailure) -> HTTPResponse {
        let answer = try await exchange(try checked(request), sink: { .memory(limit: limit) })
        return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body, url: answer.url)
    }

    public func download(_ request: HTTPRequest, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        try await download(request, to: destination, cap: nil, progress: progress)
    }

    func download(_ request: HTTPRequest, to destination: String, cap: (bytes: Int64, message: String)?,
                  progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        let request = try checked(request)
        guard let out = NewFile.open(destination) else {
            throw HTTPFailure(.cannotWrite(destination, detail: nil))
        }
        defer { try? out.close() }
        let answer = try await exchange(request, sink: {
            // Each hop starts the file afresh: only the final answer's body is kept.
            try? out.truncate(atOffset: 0)
            return .file(out, path: destination, cap: cap)
        }, progress: progress)
        if let sha256 = answer.sha256 { return sha256 }
        if let limit = GitHub.rateLimitProblem(status: answer.status, remaining: answer.headers["x-ratelimit-remaining"], withToken: request.headers["Authorization"] != nil) {
            throw HTTPFailure(.rateLimited(status: answer.status, advice: limit))
        }
        // The caller names the URL it asked for; a redirect's target is news.
        throw HTTPFailure(.answered(status: answer.status, redirectedTo: answer.url != request.url ? Redact.url(answer.url) : nil))
    }

    /// Only http and https go out.
    func checked(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPRequest {
        guard let scheme = URLComponents(string: request.url)?.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw HTTPFailure(.notHTTP(url: Redact.url(request.url)))
        }
        trace("\(request.method) \(Redact.url(request.url))")
        return request
    }

    struct FinalAnswer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var sha256: String?
        var url: String
    }

    /// `request` and the redirects it leads to, each hop on a thread of its own.
    func exchange(_ request: HTTPRequest, sink: () -> CurlTransfer.Sink, progress: @escaping @Sendable (Int64, Int64?) -> Void = { _, _ in }) async throws(HTTPFailure) -> FinalAnswer {
        var current = request
        for _ in 0...Self.maximumRedirects {
            let transfer = Handed(CurlTransfer(current, sink: sink(), limits: limits, network: network, progress: progress))
            let answer = try await OffPool.run(throwing: { () throws(HTTPFailure) -> Handed<CurlTransfer.Answer> in Handed(try transfer.value.run()) }).value
            guard let location = answer.location, [301, 302, 303, 307, 308].contains(answer.status) else {
                return FinalAnswer(status: answer.status, headers: answer.headers, body: answer.body, sha256: answer.sha256, url: current.url)
            }
            current = RedirectPolicy.follow(current, to: location, status: answer.status)
        }
        throw HTTPFailure(.tooManyRedirects(url: Redact.url(request.url), limit: Self.maximumRedirects))
    }
}
