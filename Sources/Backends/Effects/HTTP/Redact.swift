import Foundation

/// A URL as it may be shown: no user or password, no query (a signed URL's token).
public enum Redact {
    public static func url(_ text: String) -> String {
        guard let u = URLComponents(string: text), let scheme = u.scheme, let host = u.host else { return "the URL" }
        return "\(scheme)://\(host)\(u.port.map { ":\($0)" } ?? "")\(u.path)"
    }
}
