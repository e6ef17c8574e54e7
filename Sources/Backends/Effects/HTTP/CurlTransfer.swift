import CCurl
import Foundation
import TackCore

/// One HTTP exchange through libcurl's easy interface, run to its end on the calling thread
/// (`CurlHTTPClient` runs it with `OffPool`). It follows no redirect itself: it reports the
/// 3xx and where it points, so the client decides what the next request carries. While it
/// waits for the server it sleeps in `poll`; a `TransferWatch` ends it when the server stalls
/// or crawls.
final class CurlTransfer {
    /// Where the body goes.
    enum Sink {
        /// Kept in memory, up to `limit` bytes (more ends the exchange).
        case memory(limit: Int)
        /// Written to an open file and hashed, when the status is 2xx; any other status ends
        /// the exchange as soon as its headers are in, keeping a little of its body.
        case file(FileHandle, path: String, cap: (bytes: Int64, message: String)? = nil)
    }

    struct Answer {
        var status: Int
        /// Header names lowercased; the last value of a repeated header.
        var headers: [String: String]
        var body: [UInt8]
        /// The SHA-256 (hex) of a 2xx body written to a file.
        var sha256: String?
        /// Where a 3xx points, as an absolute URL.
        var location: String?
    }

    let request: HTTPRequest
    let sink: Sink
    let watch: TransferWatch
    let progress: @Sendable (Int64, Int64?) -> Void
    /// The proxy and certificate authorities the environment names.
    let network: NetworkSettings
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []
    private let hasher = Digest(.sha256)
    private var received: Int64 = 0
    private var expected: Int64?
    /// Why the exchange was ended from here (a full disk, an answer over its limit).
    private var stopped: HTTPFailure?
    private var upload: FileHandle?
    /// The body of an answer that is not for the file was cut short on purpose.
    private var refused = false

    init(_ request: HTTPRequest, sink: Sink, limits: TransferLimits, network: NetworkSettings = NetworkSettings(environment: [:]),
         progress: @escaping @Sendable (Int64, Int64?) -> Void = { _, _ in }) {
        self.request = request
        self.network = network
        self.sink = sink
        self.watch = TransferWatch(limits: limits, host: URLComponents(string: request.url)?.host ?? "")
        self.progress = progress
    }

    /// Sends the request and reads the answer, whatever its status; throws only when there is
    /// no whole answer (no connection, a stall, a cut, a write that failed).
    func run() throws(HTTPFailure) -> Answer {
        CurlTransfer.initializeOnce
        guard let curl = curl_easy_init() else { throw HTTPFailure(.cannotStart) }
        defer { curl_easy_cleanup(curl) }
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code: CURLcode = try errorText.withUnsafeMutableBufferPointer { buffer throws(HTTPFailure) -> CURLcode in
            tack_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            headerList = configure(curl, context: context)
            try attachBody(curl)
            defer { try? upload?.close() }
            return request.url.withCString { url in
                tack_curl_set_pointer(curl, CURLOPT_URL, url)
                return curl_easy_perform(curl)
            }
        }
        return try finish(curl, code, detail: String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Sets everything but the URL and the body; returns the header list to free after.
    private func configure(_ curl: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) -> UnsafeMutablePointer<curl_slist>? {
        tack_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        // The proxy as the context's environment says (an empty one: none, whatever the
        // process's own variables say), decided per URL with NO_PROXY's rules.
        (network.proxy(for: request.url) ?? "").withCString { _ = tack_curl_set_pointer(curl, CURLOPT_PROXY, $0) }
        if let file = network.caFile { file.withCString { _ = tack_curl_set_pointer(curl, CURLOPT_CAINFO, $0) } }
        if let directory = network.caDirectory { directory.withCString { _ = tack_curl_set_pointer(curl, CURLOPT_CAPATH, $0) } }
        tack_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        tack_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(watch.limits.idle * 1000))
        "http,https".withCString { _ = tack_curl_set_pointer(curl, CURLOPT_PROTOCOLS_STR, $0) }
        tack_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
        tack_curl_set_data_function(curl, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().received(UnsafeRawBufferPointer(start: buffer, count: size * count))
        })
        tack_curl_set_pointer(curl, CURLOPT_HEADERDATA, context)
        tack_curl_set_data_function(curl, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().header(UnsafeRawBufferPointer(start: buffer, count: size * count))
            return size * count
        })
        tack_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
        tack_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context)
        tack_curl_set_progress_function(curl, { context, _, _, _, uploaded in
            guard let context else { return 1 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().tick(uploaded: uploaded)
        })
        switch request.method {
        case "GET": break
        case "HEAD": tack_curl_set_long(curl, CURLOPT_NOBODY, 1)
        default: request.method.withCString { _ = tack_curl_set_pointer(curl, CURLOPT_CUSTOMREQUEST, $0) }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        var lines = ["User-Agent: tack/\(TackVersion.current)", "Expect:"]
        // A body given whole is sent as it is, not as the form libcurl would call it.
        if case .bytes = request.body, !request.headers.keys.contains(where: { $0.lowercased() == "content-type" }) { lines.append("Content-Type:") }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            if case .none = request.body {} else if name.lowercased() == "content-length" { continue }
            lines.append("\(name): \(value)")
        }
        for line in lines where !line.contains("\r") && !line.contains("\n") { list = curl_slist_append(list, line) }
        tack_curl_set_pointer(curl, CURLOPT_HTTPHEADER, list)
        return list
    }

    /// A request body: bytes given whole, or a file read as it is sent.
    private func attachBody(_ curl: UnsafeMutableRawPointer) throws(HTTPFailure) {
        switch request.body {
        case .none:
            break
        case .bytes(let bytes):
            // Copied by libcurl (the size first): the array need not outlive this call.
            tack_curl_set_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            (bytes.isEmpty ? [0] : bytes).withUnsafeBytes { _ = tack_curl_set_pointer(curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { throw HTTPFailure(.cannotRead(path, detail: nil)) }
            upload = handle
            let size = (try? handle.seekToEnd()).map { Int64($0) } ?? 0
            try? handle.seek(toOffset: 0)
            tack_curl_set_long(curl, CURLOPT_UPLOAD, 1)
            tack_curl_set_offset(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(size))
            tack_curl_set_pointer(curl, CURLOPT_READDATA, Unmanaged.passUnretained(self).toOpaque())
            tack_curl_set_data_function(curl, CURLOPT_READFUNCTION, { buffer, size, count, context in
                guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().send(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            })
        }
    }

    // MARK: libcurl's callbacks

    /// A header line; a status line starts a new answer (after a 100 Continue).
    private func header(_ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers[name] = value
        if name == "content-length", let n = Int64(value), n > 0 { expected = n }
    }

    /// Body bytes; returning fewer than given ends the exchange.
    private func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        watch.progressed(Int64(bytes.count))
        switch sink {
        case .memory(let limit):
            guard body.count + bytes.count <= limit else {
                stopped = HTTPFailure(.largerThan(bytes: limit))
                return 0
            }
            body.append(contentsOf: bytes)
        case .file(let handle, let path, let cap):
            if let cap, (200..<300).contains(status), received + Int64(bytes.count) > cap.bytes {
                // A small document over its cap: stopped here, and not tried again.
                stopped = HTTPFailure(.overLimit(cap.message))
                return 0
            }
            guard (200..<300).contains(status) else {
                // Not for the file: a little is kept for the message, and a long answer is
                // cut there (the status is all the caller needs).
                body.append(contentsOf: bytes.prefix(max(0, 4096 - body.count)))
                guard body.count < 4096 else { refused = true; return 0 }
                return bytes.count
            }
            hasher.update(bytes)
            do { try handle.write(contentsOf: Data(bytes)) } catch {
                // A full disk, a quota: not worth retrying; the caller removes the partial file.
                stopped = HTTPFailure(.cannotWrite(path, detail: describe(error)))
                return 0
            }
            received += Int64(bytes.count)
            progress(received, expected)
        }
        return bytes.count
    }

    /// Upload bytes, read from the file as they are sent.
    private func send(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let upload, let data = try? upload.read(upToCount: buffer.count) else { return Int(CURL_READFUNC_ABORT) }
        data.copyBytes(to: buffer)
        return data.count
    }

    private var uploaded: Int64 = 0

    /// About once a second, and whenever bytes move: 0 to go on, 1 to end a stalled exchange.
    private func tick(uploaded total: curl_off_t) -> Int32 {
        if Int64(total) > uploaded {
            watch.progressed(Int64(total) - uploaded)
            uploaded = Int64(total)
        }
        return watch.check() == nil ? 0 : 1
    }

    // MARK: The end

    private func finish(_ curl: UnsafeMutableRawPointer, _ code: CURLcode, detail: String) throws(HTTPFailure) -> Answer {
        if let stalled = watch.failure { throw stalled }
        if let stopped { throw stopped }
        switch code {
        case CURLE_OK:
            break
        case CURLE_WRITE_ERROR where refused:
            break
        case CURLE_PARTIAL_FILE:
            throw HTTPFailure(.cutShort(received: received, expected: expected))
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            throw HTTPFailure(.untrustedCertificate(host: watch.host, advice: network.untrustedCertificate(host: watch.host, detail: detail)))
        case CURLE_OPERATION_TIMEDOUT:
            throw HTTPFailure(.timedOut(host: watch.host, seconds: watch.limits.idle, variable: watch.limits.variable))
        default:
            let what = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            throw HTTPFailure(.unreachable(host: watch.host, detail: what))
        }
        var responseCode = 0
        tack_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &responseCode)
        if responseCode > 0 { status = responseCode }
        var location: String?
        if (300..<400).contains(status) {
            var pointer: UnsafeMutablePointer<CChar>?
            tack_curl_get_string(curl, CURLINFO_REDIRECT_URL, &pointer)
            location = pointer.map { String(cString: $0) }
        }
        var sha256: String?
        if case .file = sink, (200..<300).contains(status) {
            if let expected, received != expected {
                throw HTTPFailure(.cutShort(received: received, expected: expected))
            }
            sha256 = Hashing.hex(hasher.finalize())
        }
        return Answer(status: status, headers: headers, body: body, sha256: sha256, location: location)
    }

    /// libcurl's process-wide start, before the first transfer on any thread.
    static let initializeOnce: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
}
