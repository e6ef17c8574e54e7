import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TackCore

/// HTTP through URLSession (libcurl on Linux): the body streamed into a file and hashed as it
/// arrives, a body shorter than its Content-Length reported as truncated.
public struct URLSessionHTTPClient: HTTPClient {
    let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) { self.timeout = timeout }

    public func download(_ url: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(HTTPFailure) -> String {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased() else {
            throw HTTPFailure(status: 400, message: "`\(url)` is not a URL")
        }
        // Said without credentials or a query (a signed URL's token).
        Output.verbose("fetching \(scheme)://\(u.host ?? "")\(u.port.map { ":\($0)" } ?? "")\(u.path)")
        if scheme == "file" { return try copyFile(u.path, to: destination) }
        guard scheme == "https" || scheme == "http" else { throw HTTPFailure(status: 400, message: "tack downloads only https, http and file URLs, not `\(url)`") }
        guard FileManager.default.createFile(atPath: destination, contents: nil), let out = FileHandle(forWritingAtPath: destination) else {
            throw HTTPFailure(status: 0, message: "cannot write \(destination)")
        }
        defer { try? out.close() }
        let delegate = StreamingDelegate(out: out, destination: destination, progress: progress)
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: config, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: u)
        request.setValue("tack/\(TackVersion.current)", forHTTPHeaderField: "User-Agent")
        let result: Result<String, HTTPFailure> = await withCheckedContinuation { continuation in
            delegate.finish = { continuation.resume(returning: $0) }
            session.dataTask(with: request).resume()
        }
        return try result.get()
    }

    public func get(_ url: String) async throws(HTTPFailure) -> [UInt8] {
        let path = NSTemporaryDirectory() + "tack-get-\(UUID().uuidString)"
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
        var hasher = SHA256()
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw HTTPFailure(status: 0, message: "cannot read \(path): \(describe(error))")
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            do { try out.write(contentsOf: chunk) } catch {
                throw HTTPFailure(status: 0, message: "cannot write \(destination): \(describe(error))")
            }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let out: FileHandle
    let destination: String
    let progress: @Sendable (Int64, Int64?) -> Void
    var finish: ((Result<String, HTTPFailure>) -> Void)?
    var hasher = SHA256()
    var received: Int64 = 0
    var expected: Int64?
    var failure: HTTPFailure?

    init(out: FileHandle, destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.out = out
        self.destination = destination
        self.progress = progress
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            // The caller names the URL it asked for; a redirect's target is news.
            let redirected = response.url != dataTask.originalRequest?.url ? response.url?.absoluteString : nil
            failure = HTTPFailure(status: http.statusCode, message: "\(redirected.map { "redirected to \($0), which" } ?? "the server") answered \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))")
            completionHandler(.cancel)
            return
        }
        expected = response.expectedContentLength > 0 ? response.expectedContentLength : nil
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        hasher.update(data: data)
        do { try out.write(contentsOf: data) } catch {
            // A full disk, a quota: stop the transfer and say where and why (the caller removes
            // the partial file). Not worth retrying.
            failure = HTTPFailure(status: 0, message: "cannot write \(destination): \(describe(error))")
            dataTask.cancel()
            return
        }
        received += Int64(data.count)
        progress(received, expected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let result: Result<String, HTTPFailure>
        if let failure {
            result = .failure(failure)
        } else if let error {
            result = .failure(HTTPFailure(status: nil, message: error.localizedDescription))
        } else if let expected, received != expected {
            result = .failure(HTTPFailure(status: nil, message: "the download was cut short: \(received) of \(expected) bytes"))
        } else {
            result = .success(hasher.finalize().map { String(format: "%02x", $0) }.joined())
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
