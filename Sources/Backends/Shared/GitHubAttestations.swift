import Foundation
import TackCore

/// The artifact attestations GitHub keeps for a file's digest
/// (`GET /repos/OWNER/REPO/attestations/sha256:HEX`, through `TACK_GITHUB_API` where set):
/// each a Sigstore bundle, given inline or at a `bundle_url` (snappy-compressed there).
struct GitHubAttestations {
    let http: any HTTPClient
    let downloader: Downloader
    let mirrors: DownloadMirrors

    /// The bundles' bytes; none when GitHub has no attestation of it.
    func bundles(of repository: String, sha256 sum: String, tool: String) async throws(TackError) -> [[UInt8]] {
        let url = mirrors.apply("https://api.github.com/repos/\(repository)/attestations/sha256:\(sum)?per_page=30")
        let body: [UInt8]
        do { body = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url, limit: .index) } } catch {
            if error.status == 404 { return [] }
            throw TackError("cannot ask GitHub for the attestations of \(tool) (\(Redact.url(url))): \(error.message) — nothing was installed")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let list = object["attestations"] as? [Any] else {
            throw TackError("GitHub's answer at \(Redact.url(url)) is not a list of attestations — nothing was installed")
        }
        var out: [[UInt8]] = []
        for case let item as [String: Any] in list.prefix(30) {
            if let bundle = item["bundle"] as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: bundle) {
                out.append([UInt8](data))
            } else if let link = item["bundle_url"] as? String, !link.isEmpty {
                let fetched: [UInt8]
                do { fetched = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(mirrors.apply(link), limit: .signature) } } catch {
                    throw TackError("cannot download an attestation of \(tool) (\(Redact.url(link))): \(error.message) — nothing was installed")
                }
                // Snappy-compressed, as GitHub serves them; plain JSON is taken too.
                out.append(fetched.first == UInt8(ascii: "{") ? fetched : Snappy.decode(fetched) ?? fetched)
            }
        }
        return out
    }
}
