import Foundation
import TackCore

/// The request a redirect leads to. `Authorization` goes on only to the same scheme, host and
/// port: a registry's blob redirect to a storage bucket must not carry the registry's
/// credentials. A 303 (and a 301 or 302 after a POST) turns the request into a GET, as
/// browsers and curl do.
enum RedirectPolicy {
    static func follow(_ request: HTTPRequest, to location: String, status: Int) -> HTTPRequest {
        var next = request
        next.url = location
        if !sameOrigin(request.url, location) {
            next.headers = next.headers.filter { $0.key.lowercased() != "authorization" }
        }
        if (status == 303 && request.method != "HEAD") || ((status == 301 || status == 302) && request.method == "POST") {
            next.method = "GET"
            next.body = .none
            next.headers = next.headers.filter { !["content-length", "content-type"].contains($0.key.lowercased()) }
        }
        return next
    }

    static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let x = URLComponents(string: a), let y = URLComponents(string: b) else { return false }
        return x.scheme?.lowercased() == y.scheme?.lowercased() && x.host?.lowercased() == y.host?.lowercased()
            && (x.port ?? defaultPort(x.scheme)) == (y.port ?? defaultPort(y.scheme))
    }

    static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
