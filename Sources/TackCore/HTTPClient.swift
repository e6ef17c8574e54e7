/// A failed HTTP request, with what a retry policy needs to know.
public struct HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status code, or nil for a network error (no answer, a timeout, a cut connection).
    public var status: Int?
    public var message: String
    public init(status: Int?, message: String) {
        self.status = status
        self.message = message
    }
    /// Worth trying again: a server error, a timeout, a dropped connection.
    public var isTransient: Bool { status.map { $0 >= 500 || $0 == 429 || $0 == 408 } ?? true }
    public var description: String { message }
}

/// Downloads, streamed to disk and hashed as they arrive. `file://` URLs work too.
public protocol HTTPClient: Sendable {
    /// Writes the body of `url` to `destination` and returns its SHA-256 (lowercase hex).
    func download(_ url: String, to destination: String, progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) async throws(HTTPFailure) -> String
    /// A small body (a version index), in memory.
    func get(_ url: String) async throws(HTTPFailure) -> [UInt8]
}
