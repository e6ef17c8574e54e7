import Foundation
import TackCore

/// A gem server's answers: `gem search`'s versions, and when each was published (its JSON
/// API, where it has one).
struct GemServer {
    /// For the JSON API; nil asks nothing.
    let http: (any HTTPClient)?

    /// When each version was published, from the gem server's JSON API where it has one
    /// (rubygems.org's `/api/v1/versions/<gem>.json`, `created_at`): what `min_release_age`
    /// holds back. Empty where the server has no such API.
    /// Each version's publication time, and the versions whose `created_at` is there but
    /// unreadable (with its value, for the warning).
    func publicationTimes(_ gem: String, server: String) async -> (times: [String: Int64], unreadable: [String: String]) {
        guard let http, server.contains("://") else { return ([:], [:]) }
        let root = server.hasSuffix("/") ? server : server + "/"
        guard let body = try? await http.get(root + "api/v1/versions/" + gem + ".json"),
              let list = try? JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]] else { return ([:], [:]) }
        var out: [String: Int64] = [:], unreadable: [String: String] = [:]
        for entry in list {
            guard let number = entry["number"] as? String, let v = Version(number), let raw = entry["created_at"].map({ "\($0)" }) else { continue }
            guard let time = ReleaseAge.timestamp(raw) else {
                if out[v.text] == nil { unreadable[v.text] = raw }
                continue
            }
            out[v.text] = min(out[v.text] ?? time, time)
            unreadable[v.text] = nil
        }
        return (out, unreadable)
    }

    /// `name (1.2.0, 1.1.0 x86_64-linux, 1.0.0)` → the versions.
    static func parseSearch(_ output: String, gem: String) -> [Version] {
        var out: Set<Version> = []
        for line in output.split(separator: "\n") where line.hasPrefix(gem + " (") && line.hasSuffix(")") {
            let inner = line.dropFirst(gem.count + 2).dropLast()
            for entry in inner.split(separator: ",") {
                guard let first = entry.split(separator: " ").first, let v = Version(String(first)) else { continue }
                out.insert(v)
            }
        }
        return Array(out)
    }
}
