@testable import Backends
import BackendKinds
import Foundation
import TackCore
import Testing

/// The HTTP client's rules, in-process: where credentials may follow a redirect, what a URL
/// shows in a message, how long a transfer may stall, and which failures are worth a retry.
@Suite(.ownThreads) struct HTTPHelpersTests {
    let secret = HTTPRequest("GET", "https://registry.example.com/v2/x/blobs/sha256:1", headers: ["Authorization": "Bearer s", "Accept": "*/*"])

    @Test func credentialsFollowARedirectOnlyToTheirOrigin() {
        let same = RedirectPolicy.follow(secret, to: "https://registry.example.com:443/v2/x/blobs/other", status: 307)
        #expect(same.headers["Authorization"] == "Bearer s", "the default port is the same origin")
        for elsewhere in ["https://bucket.example.com/blob", "http://registry.example.com/blob", "https://registry.example.com:8443/blob", "https://REGISTRY.example.com.evil/blob"] {
            let next = RedirectPolicy.follow(secret, to: elsewhere, status: 302)
            #expect(next.headers["Authorization"] == nil && next.headers["Accept"] == "*/*", "\(elsewhere)")
            #expect(next.url == elsewhere)
        }
        #expect(RedirectPolicy.follow(secret, to: "https://Registry.Example.com/x", status: 302).headers["Authorization"] == "Bearer s", "host names are case-insensitive")
    }

    @Test func aSeeOtherTurnsAnUploadIntoAGet() {
        let post = HTTPRequest("POST", "https://r.example.com/upload", headers: ["Content-Type": "application/json", "Content-Length": "2"], body: .bytes([1, 2]))
        let next = RedirectPolicy.follow(post, to: "https://r.example.com/done", status: 303)
        #expect(next.method == "GET" && next.headers["Content-Type"] == nil && next.headers["Content-Length"] == nil)
        if case .none = next.body {} else { Issue.record("the body went on after a 303") }
        let put = HTTPRequest("PUT", "https://r.example.com/upload", body: .bytes([1]))
        #expect(RedirectPolicy.follow(put, to: "https://r.example.com/again", status: 307).method == "PUT", "a 307 keeps the method and body")
    }

    @Test func messagesShowNoPasswordAndNoSignedQuery() {
        #expect(Redact.url("https://user:secret@example.com:8080/path/file.tgz?X-Amz-Signature=abc#frag") == "https://example.com:8080/path/file.tgz")
        #expect(Redact.url("not a url") == "the URL")
        #expect(HTTPStatusText.of(404) == "Not Found" && HTTPStatusText.of(599) == "Server Error" && HTTPStatusText.of(42) == "(an unknown status)")
    }

    @Test func stallLimitsComeFromTheEnvironmentAndRetriesFromTheFailure() {
        #expect(TransferLimits.from(environment: [:]) == TransferLimits())
        let set = TransferLimits.from(environment: ["TACK_HTTP_TIMEOUT": "5", "TACK_HTTP_MIN_RATE": "100"])
        #expect(set.idle == 5 && set.minimumRate == 100 && set.variable == "TACK_HTTP_TIMEOUT")
        let cache = TransferLimits.from(environment: ["TACK_CACHE_TIMEOUT": "2", "TACK_HTTP_TIMEOUT": "9"], timeoutVariable: "TACK_CACHE_TIMEOUT")
        #expect(cache.idle == 2 && cache.variable == "TACK_CACHE_TIMEOUT")
        for junk in ["0", "-3", "nan", "inf", "soon"] { #expect(TransferLimits.from(environment: ["TACK_HTTP_TIMEOUT": junk]).idle == 30, "\(junk)") }
        #expect(TransferLimits.from(environment: ["TACK_HTTP_TIMEOUT": "0.1"]).idle == 0.5, "never less than half a second")
        #expect(HTTPFailure(.unreachable(host: "h", detail: "")).isTransient && HTTPFailure(.answered(status: 503, redirectedTo: nil)).isTransient && HTTPFailure(.answered(status: 429, redirectedTo: nil)).isTransient)
        #expect(!HTTPFailure(.answered(status: 404, redirectedTo: nil)).isTransient && !HTTPFailure(.answered(status: 401, redirectedTo: nil)).isTransient)
    }
}

/// The watch that ends a crawling transfer, on a clock of the test's own: libcurl calls it
/// about once a second, never exactly, and a server sending a byte at each call must still be
/// stopped once `idle` seconds have passed below the rate.
@Suite struct TransferWatchTests {
    final class Clock: @unchecked Sendable {
        var now: TimeInterval = 100
    }

    @Test(arguments: [0.3, 0.95, 1.05, 1.4])
    func aCrawlIsStoppedWhateverThePaceOfTheCallbacks(interval: Double) {
        let clock = Clock()
        let watch = TransferWatch(limits: TransferLimits(idle: 2, minimumRate: 10), host: "127.0.0.1", clock: { clock.now })
        var stoppedAt: TimeInterval?
        for _ in 0..<40 where stoppedAt == nil {
            clock.now += interval
            watch.progressed(1)
            if watch.check() != nil { stoppedAt = clock.now - 100 }
        }
        #expect(stoppedAt.map { $0 <= 2 + interval * 2 + 0.001 } == true, "stopped at \(String(describing: stoppedAt))")
        #expect(watch.failure == HTTPFailure(.tooSlow(host: "127.0.0.1", bytesPerSecond: 10, seconds: 2, variable: "TACK_HTTP_TIMEOUT")))
        #expect(watch.failure?.message == "127.0.0.1 sent fewer than 10 bytes a second for 2 s (TACK_HTTP_MIN_RATE, TACK_HTTP_TIMEOUT), so tack gave up on it")
        #expect(watch.failure?.isTransient == false)
    }

    @Test func aServerAtTheRateIsNotStopped() {
        let clock = Clock()
        let watch = TransferWatch(limits: TransferLimits(idle: 2, minimumRate: 10), host: "h", clock: { clock.now })
        for _ in 0..<50 {
            clock.now += 1.05
            watch.progressed(20)
            #expect(watch.check() == nil)
        }
    }
}
