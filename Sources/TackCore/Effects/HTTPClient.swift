/// Downloads, streamed to disk and hashed as they arrive. `file://` URLs work too.
public protocol HTTPClient: Sendable {
    /// Writes the body of `url` to `destination` and returns its SHA-256 (lowercase hex).
    func download(_ url: String, to destination: String, progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) async throws(HTTPFailure) -> String
    /// A small body (a version index), in memory: streamed, and stopped at `limit`'s cap.
    func get(_ url: String, limit: DocumentLimit) async throws(HTTPFailure) -> [UInt8]
}

extension HTTPClient {
    /// A version index, a release list or an API's answer.
    public func get(_ url: String) async throws(HTTPFailure) -> [UInt8] { try await get(url, limit: .index) }
}

/// How large each kind of small document tack fetches into memory may be: a transfer is
/// stopped at the cap, with one message naming it (a hostile server's 600 MB `.minisig` is
/// refused at 1 MiB, never held in memory). `TACK_MAX_INDEX_BYTES` raises the index cap.
public enum DocumentLimit: Sendable, Equatable {
    /// A signature (`.minisig`, `.sig`): 1 MiB.
    case signature
    /// A publisher's checksum file: 16 MiB.
    case checksums
    /// A version index, a release list, an API's answer: 64 MiB, or TACK_MAX_INDEX_BYTES.
    case index

    public func bytes(_ environment: [String: String]) -> Int {
        switch self {
        case .signature: return 1 << 20
        case .checksums: return 16 << 20
        case .index:
            return NumericSetting.integer(environment, "TACK_MAX_INDEX_BYTES", minimum: 1 << 16, maximum: 1 << 34) ?? (64 << 20)
        }
    }

    /// The message for a document over the cap.
    public func tooLarge(_ environment: [String: String]) -> String {
        let what: String
        switch self {
        case .signature: what = "a signature"
        case .checksums: what = "a checksum file"
        case .index: what = "a version index or an API's answer"
        }
        let raise = self == .index ? " (TACK_MAX_INDEX_BYTES raises it)" : ""
        return "the answer is larger than \(formatSize(bytes(environment))), the most tack reads of \(what)\(raise)"
    }
}

/// One HTTP request with its method, headers and body: what a registry client needs beyond
/// `HTTPClient`'s downloads.
public struct HTTPRequest: Sendable {
    public enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// A file sent as it is read (a blob upload).
        case file(String)
    }
    public var method: String
    public var url: String
    /// Header names as sent; `Authorization` is never logged.
    public var headers: [String: String]
    public var body: Body
    public init(_ method: String, _ url: String, headers: [String: String] = [:], body: Body = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The URL that answered (after redirects).
    public var url: String
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], url: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Requests whose answer the caller reads whatever the status (a registry's 401 challenge,
/// 404 for a missing blob), and streamed downloads that send headers.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the answer, whatever its status; throws only when there
    /// is no answer (a refused connection, a timeout). A body is kept up to `limit` bytes.
    func send(_ request: HTTPRequest, limit: Int) async throws(HTTPFailure) -> HTTPResponse
    /// A 2xx body streamed into `destination`, returning its SHA-256 (hex); any other status
    /// throws with that status. A redirect to another host does not carry `Authorization`.
    func download(_ request: HTTPRequest, to destination: String, progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) async throws(HTTPFailure) -> String
}
