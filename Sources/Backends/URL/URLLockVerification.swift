import BackendKinds
import TackCore

/// `tack lock --verify` of a url tool: each platform's download fetched again (never from the
/// cache) and hashed, its publisher's checksum file and signature checked again.
struct URLLockVerification {
    let backend: URLBackend

    func verify(_ entry: LockedTool, for request: ToolRequest, scratch: String, jobs: Int) async -> (checked: Int, problems: [String]) {
        let record = URLLockRecord(entry.fields)
        let sums = record.sha256
        guard !sums.isEmpty else { return (0, []) }
        let tool = "\(entry.name) \(entry.version)"
        let signingKey: SigningKey?
        do { signingKey = try backend.signer(request) } catch { return (0, ["\(tool): \(error.message)"]) }
        let downloads: [URLBackend.PlatformDownload] = sums.keys.sorted().compactMap { key in
            guard let p = Platform(key: key) else { return nil }
            let (url, _, _) = backend.target(request, entry.version, fields: entry.fields, for: p)
            guard url != "unsupported" else { return nil }
            var d = URLBackend.PlatformDownload(platform: p, url: url, expected: nil)
            // The publisher's signature is checked again, fetched now.
            if let signingKey { d.signature = (signingKey, backend.signatureURL(signingKey, download: url, version: entry.version, fields: entry.fields, platform: p)) }
            return d
        }
        var problems: [String] = []
        // The publisher's checksum file, where the entry names one, must still agree too.
        for d in downloads {
            let locked = sums[d.platform.description]?.lowercased() ?? ""
            do throws(TackError) {
                if let published = try await backend.publisherChecksum(request, entry.version, fields: entry.fields, platform: d.platform, url: d.url),
                   published.sum != locked {
                    problems.append("\(tool) (\(d.platform)): tack.lock says \(locked), but \(published.from.says) \(published.sum)")
                }
            } catch {
                problems.append("\(tool) (\(d.platform)): \(error.message)")
            }
        }
        for (d, result) in await backend.hash(downloads, tool: tool, cache: scratch, jobs: jobs) {
            let locked = sums[d.platform.description]?.lowercased() ?? ""
            switch result {
            case .success(let (sum, _)) where sum != locked:
                problems.append("\(tool) (\(d.platform)): tack.lock says \(locked), but \(Redact.url(d.url)) now serves \(sum)")
            case .success(let (_, signer?)) where record.signedBy[d.platform.description].map({ $0 != signer }) ?? false:
                problems.append("\(tool) (\(d.platform)): tack.lock says \(record.signedBy[d.platform.description] ?? "") signed it, but tack.yml's key is \(signer)")
            case .success: continue
            case .failure(let error): problems.append("\(tool) (\(d.platform)): cannot download \(Redact.url(d.url)): \(error.message)")
            }
        }
        return (downloads.count, problems)
    }
}
