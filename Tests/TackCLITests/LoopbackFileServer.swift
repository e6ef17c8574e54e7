import Foundation

/// fixtures.py's `serve` mode in the test process: a directory on 127.0.0.1 (HTTP/1.0, one
/// request per connection, a thread each) with the same paths — `/files/NAME`,
/// `/flaky/N/NAME`, `/truncated/NAME`, `/html/NAME`, `/slow/NAME`, `/crawl/N/NAME`,
/// `/count/PATH`, `/static/PATH`, `/redirect/HOST/REST`, `/loop`, `/authorization`, `/v2/…`
/// (a failing registry) and `/v2/crawl/…`. Started for each test that serves files, where a
/// Python server cost a start of its interpreter and `http.server` each time.
final class LoopbackFileServer: @unchecked Sendable {
    let root: String
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init(root: String) throws {
        self.root = root
        let (fd, port) = try Self.bindLoopback()
        guard listen(fd, 64) == 0 else {
            close(fd)
            throw FixtureServer.FixtureFailed()
        }
        listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and the port.
    static func bindLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureServer.FixtureFailed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        let named = bound == 0 ? withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } } : -1
        guard named == 0 else {
            close(fd)
            throw FixtureServer.FixtureFailed()
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    deinit {
        // Wakes the accept loop, which then closes the socket.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let thread = Thread { [self] in
                handle(client)
                close(client)
            }
            thread.start()
        }
    }

    // MARK: one request

    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
    }

    private func read(_ fd: Int32) -> Request? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 65536 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            data += buffer[0..<n]
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let first = head[0].split(separator: " ")
                guard first.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return Request(method: String(first[0]), path: String(first[1]), headers: headers)
            }
        }
        return nil
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private func head(_ fd: Int32, _ status: Int, _ headers: [(String, String)]) {
        let reason = [200: "OK", 302: "Found", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Status"
        var text = "HTTP/1.0 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        _ = send(fd, Array((text + "\r\n").utf8))
    }

    private func empty(_ fd: Int32, _ status: Int, _ extra: [(String, String)] = []) {
        head(fd, status, extra + [("Content-Length", "0")])
    }

    private func bytes(_ fd: Int32, _ request: Request, _ body: [UInt8], length: Int? = nil, type: String? = nil) {
        head(fd, 200, (type.map { [("Content-Type", $0)] } ?? []) + [("Content-Length", String(length ?? body.count))])
        if request.method != "HEAD" { _ = send(fd, body) }
    }

    private func data(_ name: String) -> [UInt8]? {
        let path = root + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Headers for `length` bytes, then one byte a second, at most `limit` of them.
    private func crawl(_ fd: Int32, length: Int, limit: Int, body: [UInt8]?) {
        head(fd, 200, [("Content-Length", String(length))])
        for i in 0..<min(limit, length) {
            guard send(fd, body.map { [$0[i]] } ?? Array("x".utf8)) else { return }
            Thread.sleep(forTimeInterval: 1)
        }
    }

    private func handle(_ fd: Int32) {
        guard let request = read(fd) else { return }
        let seen: Int = lock.withLock {
            counts[request.path, default: 0] += 1
            return counts[request.path] ?? 0
        }
        let parts = request.path.trimmingCharacters(in: CharacterSet(charactersIn: "/")).components(separatedBy: "/")
        switch parts[0] {
        case "static":
            var path = ([root] + parts.dropFirst().map { String($0.split(separator: "?", omittingEmptySubsequences: false).first ?? "") }).joined(separator: "/")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { path += "/index.html" }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, let body = FileManager.default.contents(atPath: path) {
                bytes(fd, request, [UInt8](body), type: path.hasSuffix(".html") ? "text/html" : "application/octet-stream")
            } else {
                empty(fd, 404)
            }
        case "v2" where parts.count > 1 && parts[1] == "crawl":
            crawl(fd, length: 1000, limit: 40, body: nil)
        case "v2":
            lock.withLock { counts["/v2-all", default: 0] += 1 }
            empty(fd, 503)
        case "redirect" where parts.count > 2:
            empty(fd, 302, [("Location", "http://\(parts[1]):\(port)/\(parts[2...].joined(separator: "/"))")])
        case "loop":
            empty(fd, 302, [("Location", "/loop")])
        case "authorization":
            bytes(fd, request, Array((request.headers["authorization"] ?? "none").utf8))
        case "count":
            let path = "/" + parts.dropFirst().joined(separator: "/")
            bytes(fd, request, Array(String(lock.withLock { counts[path] ?? 0 }).utf8))
        case "files" where parts.count == 2:
            if let body = data(parts[1]) { bytes(fd, request, body) } else { empty(fd, 404) }
        case "flaky" where parts.count == 3:
            guard let body = data(parts[2]), let failures = Int(parts[1]) else { return empty(fd, 404) }
            if seen <= failures { empty(fd, 500) } else { bytes(fd, request, body) }
        case "truncated" where parts.count == 2:
            guard let body = data(parts[1]) else { return empty(fd, 404) }
            bytes(fd, request, Array(body[..<(body.count / 2)]), length: body.count)
        case "html" where parts.count == 2:
            bytes(fd, request, Array("<!DOCTYPE html><html><body>Not the file you wanted</body></html>".utf8))
        case "crawl" where parts.count == 3:
            guard let body = data(parts[2]), let limit = Int(parts[1]) else { return empty(fd, 404) }
            crawl(fd, length: body.count, limit: limit, body: body)
        case "slow" where parts.count == 2:
            guard let body = data(parts[1]) else { return empty(fd, 404) }
            head(fd, 200, [("Content-Length", String(body.count))])
            let step = max(1, body.count / 20)
            for start in stride(from: 0, to: body.count, by: step) {
                guard send(fd, Array(body[start..<min(body.count, start + step)])) else { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
        default:
            empty(fd, 404)
        }
    }
}
