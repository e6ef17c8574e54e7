import Foundation
import TackCore

/// Who signed a Swift download: an OpenPGP signature (`.sig` beside the archive) by one of
/// swift.org's keys (shipped with tack, or `TACK_SWIFT_KEYRING`), or a macOS package's
/// Developer ID (`pkgutil --check-signature`). Nothing is installed that fails.
struct SwiftSignatures {
    let downloader: Downloader
    let http: any HTTPClient
    let runner: any ProcessRunner
    let environment: [String: String]
    let fs: any FileSystem

    /// The primary fingerprint of the key that signed `file`, from its `.sig`.
    func checkSignature(_ file: String, url: String, tool: String) async throws(TackError) -> String {
        let keyring = try keys()
        let signature: [UInt8]
        do { signature = try await downloader.withRetries { () async throws(HTTPFailure) -> [UInt8] in try await http.get(url + ".sig", limit: .signature) } } catch {
            throw TackError("cannot download the signature of \(tool) (\(url).sig): \(error.message) — nothing was installed; tack installs no toolchain it cannot verify")
        }
        let expected = keyring.filter { $0.fingerprint == $0.primary }.map(\.label).joined(separator: ", ")
        do {
            let key = try OpenPGP.verify(signature: signature, keys: keyring, data: { feed in
                guard let handle = FileHandle(forReadingAtPath: file) else { throw OpenPGP.Failure.malformed("the download cannot be read") }
                defer { try? handle.close() }
                while true {
                    let chunk = handle.readData(ofLength: 1 << 20)
                    if chunk.isEmpty { break }
                    feed([UInt8](chunk))
                }
            })
            return key.primary
        } catch let failure as OpenPGP.Failure {
            try? fs.remove(file)
            throw TackError("\(tool) failed its signature check: \(failure.message); expected a signature by \(expected)\(keyringSource) — nothing was installed")
        } catch {
            throw TackError("\(tool) failed its signature check: \(error) — nothing was installed")
        }
    }

    var keyringSource: String {
        environment["TACK_SWIFT_KEYRING"].map { " (from TACK_SWIFT_KEYRING=\($0))" } ?? " (swift.org's keys, shipped with tack)"
    }

    /// The keys a toolchain may be signed by: TACK_SWIFT_KEYRING's, else swift.org's.
    func keys() throws(TackError) -> [OpenPGP.Key] {
        var bytes = SwiftKeys.builtIn
        if let path = environment["TACK_SWIFT_KEYRING"], !path.isEmpty {
            guard let data = try? fs.read(path) else { throw TackError("TACK_SWIFT_KEYRING names \(path), which cannot be read") }
            bytes = data
        }
        let keys: [OpenPGP.Key]
        do { keys = try OpenPGP.keys(bytes) } catch let failure as OpenPGP.Failure {
            throw TackError("the keyring \(environment["TACK_SWIFT_KEYRING"] ?? "shipped with tack") cannot be read: \(failure.message)")
        } catch { throw TackError("the keyring cannot be read: \(error)") }
        guard !keys.isEmpty else { throw TackError("the keyring \(environment["TACK_SWIFT_KEYRING"] ?? "shipped with tack") holds no key tack can read") }
        return keys
    }

    /// `pkgutil --check-signature`: the package must carry a trusted Developer ID signature.
    /// The signer recorded is the SHA-256 of its leaf certificate.
    func checkPackageSignature(_ file: String, tool: String) async throws(TackError) -> String {
        let out = try await runner.run("/usr/sbin/pkgutil", ["--check-signature", file], directory: "/", environment: environment)
        guard out.status == 0, out.output.contains("signed by a developer certificate issued by Apple") || out.output.contains("Status: signed") else {
            throw TackError("\(tool) failed its signature check (pkgutil --check-signature exited \(out.status)):\n\(out.tail()) — nothing was installed")
        }
        // `1. Developer ID Installer: …\n   Expires: …\n   SHA256 Fingerprint:\n       AB CD …`
        let lines = out.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if let i = lines.firstIndex(where: { $0.hasPrefix("SHA256 Fingerprint") }) {
            let hex = lines[(i + 1)...].prefix { !$0.isEmpty && $0.allSatisfy { $0.isHexDigit || $0 == " " } }.joined().filter(\.isHexDigit)
            if hex.count == 64 { return hex.uppercased() }
        }
        throw TackError("\(tool): pkgutil did not say which certificate signed it — nothing was installed")
    }
}
