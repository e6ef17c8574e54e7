import Foundation
import TackCore

/// A user name and secret for a registry. Never printed: `description` hides the secret.
public struct RegistryCredential: Sendable, Equatable, CustomStringConvertible {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
    public var description: String { "\(username):…" }
    public var basicHeader: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}

/// One `WWW-Authenticate` challenge: `Bearer realm="…",service="…",scope="…"` or `Basic realm="…"`.
public struct AuthChallenge: Sendable, Equatable {
    public var scheme: String
    public var parameters: [String: String]

    /// The challenges in a header value (RFC 7235: a scheme, then `name=value` pairs, values
    /// plain or quoted with `\` escapes; a new scheme starts after a comma).
    public static func parse(_ header: String) -> [AuthChallenge] {
        var out: [AuthChallenge] = []
        var i = header.startIndex
        func skipSpaces() { while i < header.endIndex, header[i] == " " || header[i] == "\t" || header[i] == "," { i = header.index(after: i) } }
        func token() -> String {
            let start = i
            while i < header.endIndex, !" \t,=\"".contains(header[i]) { i = header.index(after: i) }
            return String(header[start..<i])
        }
        while true {
            skipSpaces()
            guard i < header.endIndex else { break }
            var name = token()
            guard !name.isEmpty else { i = header.index(after: i); continue }
            // A scheme is a token not followed by `=`.
            var challenge = AuthChallenge(scheme: name.lowercased(), parameters: [:])
            while true {
                while i < header.endIndex, header[i] == " " || header[i] == "\t" { i = header.index(after: i) }
                if i < header.endIndex, header[i] == "," { i = header.index(after: i) }
                while i < header.endIndex, header[i] == " " || header[i] == "\t" { i = header.index(after: i) }
                let save = i
                name = token()
                guard !name.isEmpty, i < header.endIndex, header[i] == "=" else { i = save; break }
                i = header.index(after: i)
                var value = ""
                if i < header.endIndex, header[i] == "\"" {
                    i = header.index(after: i)
                    while i < header.endIndex, header[i] != "\"" {
                        if header[i] == "\\", header.index(after: i) < header.endIndex { i = header.index(after: i) }
                        value.append(header[i])
                        i = header.index(after: i)
                    }
                    if i < header.endIndex { i = header.index(after: i) }
                } else {
                    value = token()
                }
                challenge.parameters[name.lowercased()] = value
            }
            out.append(challenge)
        }
        return out
    }
}
