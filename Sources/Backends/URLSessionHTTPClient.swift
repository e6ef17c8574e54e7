import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TackCore

/// HTTP through URLSession (libcurl on Linux): the body streamed into a file and hashed as it
/// arrives, a body shorter than its Content-Length reported as truncated.
public struct URLSessionHTTPClient: HTTPClient {
    /// How long a transfer may stall or crawl (every request and download is watched).
    let limits: TransferLimits

    public init(limits: TransferLimits = .from(environment: ProcessInfo.processInfo.environment)) { self.limits = limits }

    public func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased() else {
            throw HTTPFailure(status: 400, message: "`\(url)` is not a URL")
        }
        Output.verbose("fetching \(Redact.url(url))")
        if scheme == "file" { return try copyFile(u.path, to: destination) }
        guard scheme == "https" || scheme == "http" else { throw HTTPFailure(status: 400, message: "tack downloads only https, http and file URLs, not `\(url)`") }
        var request = URLRequest(url: u)
        request.setValue("tack/\(TackVersion.current)", forHTTPHeaderField: "User-Agent")
        if let token = GitHub.authorization(for: url, environment: ProcessInfo.processInfo.environment) {
            request.setValue(token, forHTTPHeaderField: "Authorization")
        }
        return try await stream(request, to: destination, progress: progress)
    }

    /// The body of a 2xx answer to `request`, streamed into `destination` and hashed.
    func stream(_ request: URLRequest, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        guard FileManager.default.createFile(atPath: destination, contents: nil), let out = FileHandle(forWritingAtPath: destination) else {
            throw HTTPFailure(status: 0, message: "cannot write \(destination)")
        }
        defer { try? out.close() }
        let watch = TransferWatch(limits: limits, url: request.url)
        let delegate = StreamingDelegate(out: out, destination: destination, watch: watch, progress: progress)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<String, HTTPFailure> = await withCheckedContinuation { continuation in
            delegate.finish = { continuation.resume(returning: $0) }
            let task = session.dataTask(with: request)
            watch.watch(task)
            task.resume()
        }
        return try result.get()
    }

    var configuration: URLSessionConfiguration {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = limits.idle
        config.httpCookieStorage = nil
        config.urlCredentialStorage = nil
        return config
    }

    public func get(_ url: String) async throws(HTTPFailure) -> [UInt8] {
        let path = Paths.child(CurrentProcess.temporaryDirectory, "tack-get-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try await download(url, to: path) { _, _ in }
        return (FileManager.default.contents(atPath: path).map { [UInt8]($0) }) ?? []
    }

    func copyFile(_ path: String, to destination: String) throws(HTTPFailure) -> String {
        guard let input = FileHandle(forReadingAtPath: path) else { throw HTTPFailure(status: 404, message: "\(path) does not exist") }
        defer { try? input.close() }
        FileManager.default.createFile(atPath: destination, contents: nil)
        guard let out = FileHandle(forWritingAtPath: destination) else { throw HTTPFailure(status: 0, message: "cannot write \(destination)") }
        defer { try? out.close() }
        let hasher = Digest(.sha256)
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw HTTPFailure(status: 0, message: "cannot read \(path): \(describe(error))")
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { hasher.update($0) }
            do { try out.write(contentsOf: chunk) } catch {
                throw HTTPFailure(status: 0, message: "cannot write \(destination): \(describe(error))")
            }
        }
        return Hashing.hex(hasher.finalize())
    }
}

private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let out: FileHandle
    let destination: String
    let watch: TransferWatch
    let progress: @Sendable (Int64, Int64?) -> Void
    var finish: ((Result<String, HTTPFailure>) -> Void)?
    let hasher = Digest(.sha256)
    var received: Int64 = 0
    var expected: Int64?
    var failure: HTTPFailure?

    init(out: FileHandle, destination: String, watch: TransferWatch, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.out = out
        self.destination = destination
        self.watch = watch
        self.progress = progress
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            // The caller names the URL it asked for; a redirect's target is news.
            let redirected = response.url != dataTask.originalRequest?.url ? response.url?.absoluteString : nil
            if let limit = GitHub.rateLimitProblem(status: http.statusCode, remaining: http.value(forHTTPHeaderField: "X-RateLimit-Remaining"),
                                                   withToken: dataTask.originalRequest?.value(forHTTPHeaderField: "Authorization") != nil) {
                failure = HTTPFailure(status: http.statusCode, message: limit)
                completionHandler(.cancel)
                return
            }
            failure = HTTPFailure(status: http.statusCode, message: "\(redirected.map { "redirected to \($0), which" } ?? "the server") answered \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))")
            completionHandler(.cancel)
            return
        }
        expected = response.expectedContentLength > 0 ? response.expectedContentLength : nil
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(RedirectPolicy.follow(request, from: task.originalRequest))
    }

    /// A 401 is the caller's to answer (a registry's challenge), not URLSession's: on Linux
    /// URLSession takes a Basic challenge for itself, so it is refused here and reported as
    /// the 401 it was.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        failure = HTTPFailure(status: 401, message: "the server answered 401 Unauthorized")
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        data.withUnsafeBytes { hasher.update($0) }
        do { try out.write(contentsOf: data) } catch {
            // A full disk, a quota: stop the transfer and say where and why (the caller removes
            // the partial file). Not worth retrying.
            failure = HTTPFailure(status: 0, message: "cannot write \(destination): \(describe(error))")
            dataTask.cancel()
            return
        }
        received += Int64(data.count)
        watch.progressed(Int64(data.count))
        progress(received, expected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        watch.stop()
        let result: Result<String, HTTPFailure>
        if let stalled = watch.failure {
            result = .failure(stalled)
        } else if let failure {
            result = .failure(failure)
        } else if let error {
            result = .failure(HTTPFailure(status: nil, message: error.localizedDescription))
        } else if let expected, received != expected {
            result = .failure(HTTPFailure(status: nil, message: "the download was cut short: \(received) of \(expected) bytes"))
        } else {
            result = .success(Hashing.hex(hasher.finalize()))
        }
        finish?(result)
        finish = nil
    }
}

/// `No space left on device`, not Foundation's wrapping of it.
func describe(_ error: any Error) -> String {
    let ns = error as NSError
    if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(posix.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return error.localizedDescription
}

/// A redirect keeps `Authorization` only to the same scheme, host and port: a registry's blob
/// redirect to a storage bucket must not carry the registry's credentials.
enum RedirectPolicy {
    static func follow(_ next: URLRequest, from original: URLRequest?) -> URLRequest {
        var next = next
        let a = original?.url
        let b = next.url
        if a?.host?.lowercased() != b?.host?.lowercased() || a?.port != b?.port || a?.scheme?.lowercased() != b?.scheme?.lowercased() {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return next
    }
}

extension URLSessionHTTPClient: HTTPTransport {
    public func send(_ request: HTTPRequest, limit: Int) async throws(HTTPFailure) -> HTTPResponse {
        let urlRequest = try makeRequest(request)
        let watch = TransferWatch(limits: limits, url: urlRequest.url)
        let delegate = CollectingDelegate(limit: limit, watch: watch)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<HTTPResponse, HTTPFailure> = await withCheckedContinuation { continuation in
            delegate.finish = { continuation.resume(returning: $0) }
            let task: URLSessionTask
            switch request.body {
            case .file(let path): task = session.uploadTask(with: urlRequest, fromFile: URL(fileURLWithPath: path))
            case .bytes(let bytes): task = session.uploadTask(with: urlRequest, from: Data(bytes))
            case .none: task = session.dataTask(with: urlRequest)
            }
            watch.watch(task)
            task.resume()
        }
        return try result.get()
    }

    public func download(_ request: HTTPRequest, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        try await stream(try makeRequest(request), to: destination, progress: progress)
    }

    func makeRequest(_ request: HTTPRequest) throws(HTTPFailure) -> URLRequest {
        guard let u = URL(string: request.url), let scheme = u.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw HTTPFailure(status: 400, message: "`\(Redact.url(request.url))` is not an http or https URL")
        }
        Output.verbose("\(request.method) \(Redact.url(request.url))")
        var r = URLRequest(url: u)
        r.httpMethod = request.method
        r.setValue("tack/\(TackVersion.current)", forHTTPHeaderField: "User-Agent")
        for (k, v) in request.headers { r.setValue(v, forHTTPHeaderField: k) }
        return r
    }
}

/// A URL as it may be shown: no user or password, no query (a signed URL's token).
public enum Redact {
    public static func url(_ text: String) -> String {
        guard let u = URLComponents(string: text), let scheme = u.scheme, let host = u.host else { return "the URL" }
        return "\(scheme)://\(host)\(u.port.map { ":\($0)" } ?? "")\(u.path)"
    }
}

private final class CollectingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let limit: Int
    let watch: TransferWatch
    var finish: ((Result<HTTPResponse, HTTPFailure>) -> Void)?
    var response = HTTPResponse(status: 0)
    var failure: HTTPFailure?
    /// The 401 URLSession would have answered itself.
    var challenged: HTTPResponse?

    init(limit: Int, watch: TransferWatch) {
        self.limit = limit
        self.watch = watch
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        watch.progressed(bytesSent)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(RedirectPolicy.follow(request, from: task.originalRequest))
    }

    /// A 401 is the caller's to answer (a registry's challenge), not URLSession's: on Linux
    /// URLSession takes a Basic challenge for itself, so it is refused here and returned as
    /// the 401 it was, with its challenge.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let space = challenge.protectionSpace
        let scheme = space.authenticationMethod == NSURLAuthenticationMethodHTTPDigest ? "Digest" : "Basic"
        var answer = HTTPResponse(status: 401, url: task.originalRequest?.url?.absoluteString ?? "")
        answer.headers["www-authenticate"] = "\(scheme) realm=\"\(space.realm ?? "")\""
        challenged = answer
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse {
            self.response.status = http.statusCode
            self.response.url = http.url?.absoluteString ?? ""
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { self.response.headers[k.lowercased()] = v }
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        guard response.body.count + data.count <= limit else {
            failure = HTTPFailure(status: nil, message: "the answer is larger than \(limit) bytes")
            dataTask.cancel()
            return
        }
        response.body += data
        watch.progressed(Int64(data.count))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        watch.stop()
        if let stalled = watch.failure { finish?(.failure(stalled)) }
        else if let challenged { finish?(.success(challenged)) }
        else if let failure { finish?(.failure(failure)) }
        else if let error { finish?(.failure(HTTPFailure(status: nil, message: error.localizedDescription))) }
        else { finish?(.success(response)) }
        finish = nil
    }
}
