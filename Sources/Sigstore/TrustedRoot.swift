import Foundation

/// What a verification trusts (`trusted_root.json`, Sigstore's format): the transparency logs
/// and their keys, the certificate authorities that issue signing certificates (Fulcio), the
/// certificate transparency logs, and the timestamp authorities, each with the time it was
/// valid for. tack ships a dated copy of the public-good instance's (`TrustedRoot.publicGood`).
public struct TrustedRoot: Sendable {
    /// A transparency log (Rekor) or a certificate transparency log.
    public struct Log: Sendable {
        public var baseURL: String
        public var keyID: [UInt8]
        var key: [UInt8]
        public var validFrom: Int64
        public var validUntil: Int64?

        var publicKey: PublicKey? { PublicKey(spki: key) }

        func isValid(at t: Int64) -> Bool { t >= validFrom && (validUntil.map { t <= $0 } ?? true) }

        /// The host of `baseURL`: a Rekor v2 log's checkpoint origin.
        var host: String { URLComponents(string: baseURL)?.host ?? baseURL }
    }

    /// A certificate authority or timestamp authority: its chain (the issuing or signing
    /// certificate first, the root last).
    public struct Authority: Sendable {
        public var uri: String
        var chain: [[UInt8]]
        public var validFrom: Int64?
        public var validUntil: Int64?

        var certificates: [Certificate] { chain.compactMap { Certificate(der: $0) } }

        func isValid(at t: Int64) -> Bool { (validFrom.map { t >= $0 } ?? true) && (validUntil.map { t <= $0 } ?? true) }
    }

    public var logs: [Log]
    public var certificateAuthorities: [Authority]
    public var ctLogs: [Log]
    public var timestampAuthorities: [Authority]

    /// The Sigstore public-good instance's root, as shipped with tack (see docs/security.md).
    public static func publicGood() throws(SigstoreError) -> TrustedRoot {
        try parse(PackageResources.trusted_root_json, what: "tack's copy of Sigstore's trusted root")
    }

    public static func parse(_ bytes: [UInt8], what: String = "the trusted root") throws(SigstoreError) -> TrustedRoot {
        let json = try JSONObject.parse(bytes, what: what)
        if let media = json.optionalString("mediaType"), !media.hasPrefix("application/vnd.dev.sigstore.trustedroot") {
            throw .malformed(what: what, why: "its media type is `\(media)`")
        }
        var root = TrustedRoot(logs: [], certificateAuthorities: [], ctLogs: [], timestampAuthorities: [])
        root.logs = try json.objects("tlogs").map { (o) throws(SigstoreError) in try log(o) }
        root.ctLogs = try json.objects("ctlogs").map { (o) throws(SigstoreError) in try log(o) }
        root.certificateAuthorities = try json.objects("certificateAuthorities").map { (o) throws(SigstoreError) in try authority(o) }
        root.timestampAuthorities = try json.objects("timestampAuthorities").map { (o) throws(SigstoreError) in try authority(o) }
        return root
    }

    static func log(_ o: JSONObject) throws(SigstoreError) -> Log {
        let key = try o.object("publicKey")
        let raw = try key.bytes("rawBytes")
        let details = key.optionalString("keyDetails") ?? ""
        let spki: [UInt8]
        if details.hasPrefix("PKCS1_RSA") {
            guard let k = PublicKey(pkcs1: raw) else { throw .malformed(what: o.path, why: "its PKCS #1 key cannot be read") }
            spki = k.spki
        } else {
            spki = raw
        }
        if let hash = o.optionalString("hashAlgorithm"), hash != "SHA2_256" {
            throw .malformed(what: o.path, why: "its hash algorithm `\(hash)` is not SHA2_256")
        }
        let valid = try key.object("validFor")
        guard let from = try valid.optionalString("start").map({ (s) throws(SigstoreError) in try time(s, at: valid.path + ".start") }) else {
            throw .malformed(what: o.path, why: "its key's validity has no start")
        }
        let until = try valid.optionalString("end").map { (s) throws(SigstoreError) in try time(s, at: valid.path + ".end") }
        return Log(baseURL: o.optionalString("baseUrl") ?? "", keyID: try o.object("logId").bytes("keyId"), key: spki, validFrom: from, validUntil: until)
    }

    static func authority(_ o: JSONObject) throws(SigstoreError) -> Authority {
        let chain = try o.object("certChain").objects("certificates").map { (c) throws(SigstoreError) in try c.bytes("rawBytes") }
        guard !chain.isEmpty else { throw .malformed(what: o.path, why: "its certificate chain is empty") }
        for (i, der) in chain.enumerated() where Certificate(der: der) == nil {
            throw .malformed(what: o.path, why: "certificate \(i) of its chain cannot be read")
        }
        let valid = o.optionalObject("validFor")
        let from = try valid?.optionalString("start").map { (s) throws(SigstoreError) in try time(s, at: o.path + ".validFor.start") }
        let until = try valid?.optionalString("end").map { (s) throws(SigstoreError) in try time(s, at: o.path + ".validFor.end") }
        return Authority(uri: o.optionalString("uri") ?? "", chain: chain, validFrom: from, validUntil: until)
    }

    /// An RFC 3339 time (protobuf's Timestamp in JSON), in seconds since the epoch.
    static func time(_ text: String, at path: String) throws(SigstoreError) -> Int64 {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
            throw .malformed(what: path, why: "`\(text)` is not an RFC 3339 time")
        }
        return Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
