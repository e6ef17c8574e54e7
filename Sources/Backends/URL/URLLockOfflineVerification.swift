import BackendKinds
import TackCore

/// `tack lock --verify --offline` of a url tool: each locked platform's download as the
/// download cache kept it (hashed again against tack.lock) and its kept signature (checked
/// again against tack.yml's signer and the one tack.lock records), with no network.
struct URLLockOfflineVerification {
    let backend: URLBackend

    func verify(_ entry: LockedTool, for request: ToolRequest, cache: String) async -> (checked: Int, problems: [String]) {
        let record = URLLockRecord(entry.fields)
        let tool = "\(entry.name) \(entry.version)"
        let signingKey: SigningKey?
        do { signingKey = try backend.signer(request) } catch { return (0, ["\(tool): \(error.message)"]) }
        var checked = 0
        var problems: [String] = []
        for (key, locked) in record.sha256.sorted(by: { $0.key < $1.key }) {
            guard let p = Platform(key: key) else { continue }
            let (url, _, _) = backend.target(request, entry.version, fields: entry.fields, for: p)
            guard url != "unsupported" else { continue }
            let file = cache + "/downloads/" + DownloadCacheName.name(url: url, sum: locked)
            guard backend.fs.info(file) != nil else {
                problems.append("\(tool) (\(p)): its download is not in the download cache — run `tack lock --verify` with the network")
                continue
            }
            guard let (digest, _) = Hashing.digest(.sha256, file: file), Hashing.hex(digest) == locked.lowercased() else {
                problems.append("\(tool) (\(p)): the download cache's copy is not what tack.lock locks (sha256 \(locked))")
                continue
            }
            if let signingKey {
                do throws(TackError) {
                    let signer = try await backend.signatures.verify(file, sum: locked.lowercased(), key: signingKey, signatureURL: backend.signatureURL(signingKey, download: url, version: entry.version, fields: entry.fields, platform: p),
                                                                     cache: cache, tool: "\(tool) (\(p))", downloadName: URLBackend.fileName(url), offline: true)
                    if let lockedSigner = record.signedBy[key], lockedSigner != signer {
                        problems.append("\(tool) (\(p)): tack.lock says \(lockedSigner) signed it, but its kept signature is \(signer)'s")
                        continue
                    }
                } catch {
                    problems.append(error.message)
                    continue
                }
            }
            checked += 1
        }
        return (checked, problems)
    }
}
