/// A failed fetch: what went wrong, as a case with what it names (`Reason`), said in one place
/// (`message`), and what a retry policy needs to know (`status`, `isTransient`). Tests match the
/// case, not the words.
public struct HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        // What was asked for.
        /// What was given is not a URL.
        case notAURL
        /// A URL of a scheme tack does not fetch (`ftp`).
        case unsupportedScheme(String)
        /// A request for something other than http or https (the URL as said, redacted).
        case notHTTP(url: String)

        // What the server answered.
        /// An error status; `redirectedTo`: the URL a redirect led to (redacted), when one did.
        case answered(status: Int, redirectedTo: String?)
        /// GitHub's rate limit is used up (`GitHub.rateLimitProblem` says what to do).
        case rateLimited(status: Int, advice: String)
        /// A URL that redirects more than `limit` times (redacted).
        case tooManyRedirects(url: String, limit: Int)
        /// An answer held in memory grew past `bytes`.
        case largerThan(bytes: Int)
        /// A small document grew past its cap (`DocumentLimit.tooLarge` says which and how to
        /// raise it): not tried again.
        case overLimit(String)

        // The connection.
        /// libcurl could not start a transfer.
        case cannotStart
        /// No answer: refused, unresolved, reset (`detail`: libcurl's words).
        case unreachable(host: String, detail: String)
        /// The host's certificate is not trusted (`NetworkSettings.untrustedCertificate` says
        /// which authorities are and how to add one).
        case untrustedCertificate(host: String, advice: String)
        /// libcurl's own timeout: nothing came for `seconds` (set by `variable`). Tried again.
        case timedOut(host: String, seconds: Double, variable: String)
        /// The transfer watch's: nothing came for `seconds` (set by `variable`). Not tried again:
        /// it would only wait as long again.
        case silent(host: String, seconds: Double, variable: String)
        /// Fewer than `bytesPerSecond` over `seconds` (TACK_HTTP_MIN_RATE and `variable`). Not
        /// tried again.
        case tooSlow(host: String, bytesPerSecond: Double, seconds: Double, variable: String)
        /// The body ended early.
        case cutShort(received: Int64, expected: Int64?)

        // Files on this machine (`file://` URLs, the download's destination).
        case noSuchFile(String)
        /// A pipe, a socket or a device.
        case notARegularFile(String)
        case cannotRead(String, detail: String?)
        case cannotWrite(String, detail: String?)

        // A copy of the network (`tack mirror`, `tack install --from`): each ends the fetch,
        // as the copy is all there is. URLs here, as in every case, are as said: redacted.
        /// The copy has no file for the URL.
        case notInCopy(url: String, copy: String)
        /// The copy's file for the URL has other bytes than its index says.
        case damagedInCopy(url: String, copy: String, sha256: String, expected: String)
        /// The copy's file for the URL cannot be read.
        case unreadableInCopy(url: String, copy: String, detail: String)
        /// The file copied out of the copy cannot be read back.
        case unreadableCopied(String)
        /// What was fetched could not be kept in the copy being made.
        case notKept(String)
    }

    public var reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    /// The status code as a retry policy reads it: the server's, 404 for what is not there (a
    /// missing file, a copy's missing or damaged file), 400 for a request tack does not send,
    /// 0 for a local file that cannot be read or written, nil for a network error (no answer, a
    /// timeout, a cut connection).
    public var status: Int? {
        switch reason {
        case .answered(let status, _), .rateLimited(let status, _): return status
        case .notAURL, .unsupportedScheme, .notHTTP: return 400
        case .noSuchFile, .notInCopy, .damagedInCopy, .unreadableInCopy, .unreadableCopied: return 404
        case .notARegularFile, .cannotRead, .cannotWrite: return 0
        case .tooManyRedirects, .largerThan, .overLimit, .cannotStart, .unreachable, .untrustedCertificate, .timedOut, .silent, .tooSlow, .cutShort, .notKept:
            return nil
        }
    }

    /// The transfer stalled or crawled past the limits (`TransferLimits`), a document passed
    /// its cap, or a copy is all there is: trying again would only wait as long again, or find
    /// the same.
    public var stalled: Bool {
        switch reason {
        case .silent, .tooSlow, .overLimit, .notInCopy, .damagedInCopy, .unreadableInCopy, .unreadableCopied, .notKept: return true
        default: return false
        }
    }

    /// Worth trying again: a server error, a dropped connection, a refused one — not a
    /// transfer that stalled (at the defaults a crawling server is given up on within a
    /// minute, not after every retry's window too).
    public var isTransient: Bool { !stalled && (status.map { $0 >= 500 || $0 == 429 || $0 == 408 } ?? true) }

    /// The failure in words.
    public var message: String {
        switch reason {
        case .notAURL: return "what was given is not a URL"
        case .unsupportedScheme(let scheme): return "tack downloads only https, http and file URLs, not \(scheme): ones"
        case .notHTTP(let url): return "`\(url)` is not an http or https URL"
        case .answered(let status, let target):
            return "\(target.map { "redirected to \($0), which" } ?? "the server") answered \(status) \(HTTPStatusText.of(status))"
        case .rateLimited(_, let advice): return advice
        case .tooManyRedirects(let url, let limit): return "\(url) redirects more than \(limit) times"
        case .largerThan(let bytes): return "the answer is larger than \(bytes) bytes"
        case .overLimit(let said): return said
        case .cannotStart: return "libcurl could not start a transfer"
        case .unreachable(let host, let detail): return "cannot reach \(host): \(detail)"
        case .untrustedCertificate(_, let advice): return advice
        case .timedOut(let host, let seconds, let variable), .silent(let host, let seconds, let variable):
            return "\(host) sent nothing for \(Self.seconds(seconds)) (\(variable)), so tack gave up on it"
        case .tooSlow(let host, let rate, let seconds, let variable):
            return "\(host) sent fewer than \(Self.number(rate)) bytes a second for \(Self.seconds(seconds)) (TACK_HTTP_MIN_RATE, \(variable)), so tack gave up on it"
        case .cutShort(let received, let expected): return "the download was cut short: \(received) of \(expected.map { String($0) } ?? "?") bytes"
        case .noSuchFile(let path): return "\(path) does not exist"
        case .notARegularFile(let path): return "\(path) is not a regular file (a pipe, socket or device)"
        case .cannotRead(let path, let detail): return "cannot read \(path)\(detail.map { ": " + $0 } ?? "")"
        case .cannotWrite(let path, let detail): return "cannot write \(path)\(detail.map { ": " + $0 } ?? "")"
        case .notInCopy(let url, let copy):
            return "the copy at \(copy) has no \(url), and tack installs from the copy with no other network (make the copy again with `tack mirror` from this tack.lock)"
        case .damagedInCopy(let url, let copy, let sum, let expected):
            return "the copy at \(copy) holds other bytes for \(url) (sha256 \(sum)) than its index says (\(expected)) — it was damaged; copy it again"
        case .unreadableInCopy(let url, let copy, let detail): return "cannot read \(url) from the copy at \(copy): \(detail)"
        case .unreadableCopied(let path): return "cannot read \(path)"
        case .notKept(let said): return said
        }
    }

    public var description: String { message }

    /// `12 s`, `0.5 s`.
    static func seconds(_ t: Double) -> String { "\(number(t)) s" }

    /// A whole number as one, else to one decimal.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), let whole = Int(exactly: x) { return String(whole) }
        let tenths = (x * 10).rounded(.toNearestOrEven)
        guard let t = Int(exactly: tenths) else { return String(x) }
        return "\(t / 10).\(abs(t % 10))"
    }
}
