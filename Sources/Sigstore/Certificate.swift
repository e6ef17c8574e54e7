import CSigstore
import Foundation

/// An X.509 certificate (DER), read and checked with libcrypto.
struct Certificate: Equatable {
    let der: [UInt8]

    init?(der: [UInt8]) {
        guard tack_cert_parses(der, der.count) == 1 else { return nil }
        self.der = der
    }

    init?(pem: String) {
        var out = [UInt8](repeating: 0, count: 65536)
        let n = pem.withCString { p in out.withUnsafeMutableBufferPointer { tack_sig_pem_certificate(p, strlen(p), $0.baseAddress, $0.count) } }
        guard n > 0 else { return nil }
        self.init(der: Array(out[0..<n]))
    }

    var publicKey: PublicKey? {
        var out = [UInt8](repeating: 0, count: 16384)
        let n = der.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { tack_cert_public_key(d.baseAddress, d.count, $0.baseAddress, $0.count) } }
        return n > 0 ? PublicKey(spki: Array(out[0..<n])) : nil
    }

    /// notBefore and notAfter, in seconds since the epoch.
    var validity: (notBefore: Int64, notAfter: Int64)? {
        var from: Int64 = 0, until: Int64 = 0
        return tack_cert_validity(der, der.count, &from, &until) == 0 ? (from, until) : nil
    }

    /// Valid at `t`, both ends included.
    func isValid(at t: Int64) -> Bool {
        guard let v = validity else { return false }
        return t >= v.notBefore && t <= v.notAfter
    }

    var isCA: Bool { tack_cert_is_ca(der, der.count) == 1 }
    var maySignCode: Bool { tack_cert_may_sign_code(der, der.count) == 1 }

    enum AltName: Int32 { case uri = 1, email = 2, username = 3 }

    func altName(_ kind: AltName) -> String? {
        var out = [CChar](repeating: 0, count: 8192)
        let n = der.withUnsafeBufferPointer { d in tack_cert_alt_name(d.baseAddress, d.count, kind.rawValue, &out, out.count) }
        guard n >= 0 else { return nil }
        return String(decoding: out[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The value of the extension with this dotted OID.
    func extensionValue(_ oid: String) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: 65536)
        let n = der.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { tack_cert_extension(d.baseAddress, d.count, oid, $0.baseAddress, $0.count) } }
        return n >= 0 ? Array(out[0..<n]) : nil
    }

    /// Fulcio's extensions of 1.3.6.1.4.1.57264.1.8 and later hold a DER UTF8String; the
    /// older ones (.1.1 to .1.6) the text itself.
    func fulcioExtension(_ number: Int) -> String? {
        guard let value = extensionValue("1.3.6.1.4.1.57264.1.\(number)") else { return nil }
        if number < 8 { return String(decoding: value, as: UTF8.self) }
        var out = [CChar](repeating: 0, count: value.count + 1)
        let n = value.withUnsafeBufferPointer { tack_der_utf8_string($0.baseAddress, $0.count, &out, out.count) }
        return n >= 0 ? String(decoding: out[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// The path from this certificate through `intermediates` to `root`, each valid at `t`;
    /// nil when it holds, else why not.
    func pathProblem(intermediates: [Certificate], root: Certificate, at t: Int64) -> String? {
        var error = [CChar](repeating: 0, count: 256)
        let ders = intermediates.map(\.der)
        let result = withPointers(ders) { pointers, lengths in
            der.withUnsafeBufferPointer { leaf in
                root.der.withUnsafeBufferPointer { r in
                    tack_cert_path(leaf.baseAddress, leaf.count, pointers, lengths, ders.count, r.baseAddress, r.count, t, &error, error.count)
                }
            }
        }
        if result == 1 { return nil }
        return cText(error)
    }

    /// The TBSCertificate without its embedded SCT list (what a CT log signed).
    var precertificateTBS: [UInt8]? {
        var out = [UInt8](repeating: 0, count: der.count + 64)
        let n = der.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { tack_cert_precert_tbs(d.baseAddress, d.count, $0.baseAddress, $0.count) } }
        return n > 0 ? Array(out[0..<n]) : nil
    }

    struct SCT {
        var version: Int
        var logID: [UInt8]
        var timestamp: UInt64
        var extensions: [UInt8]
        var signature: [UInt8]
        /// 1 ECDSA with SHA-256, 2 RSA with SHA-256, 0 another.
        var algorithm: Int
    }

    /// The SCTs the certificate embeds; nil when the list cannot be read.
    var scts: [SCT]? {
        let count = tack_cert_sct_count(der, der.count)
        guard count >= 0 else { return nil }
        var out: [SCT] = []
        for i in 0..<count {
            var version: Int32 = 0, id = [UInt8](repeating: 0, count: 32), ts: UInt64 = 0, algorithm: Int32 = 0
            var ext = [UInt8](repeating: 0, count: 65536), sig = [UInt8](repeating: 0, count: 4096)
            var extLen = 0, sigLen = 0
            let r = der.withUnsafeBufferPointer { d in
                tack_cert_sct(d.baseAddress, d.count, i, &version, &id, &ts, &ext, ext.count, &extLen, &sig, sig.count, &sigLen, &algorithm)
            }
            guard r == 0 else { return nil }
            out.append(SCT(version: Int(version), logID: id, timestamp: ts, extensions: Array(ext[0..<extLen]), signature: Array(sig[0..<sigLen]), algorithm: Int(algorithm)))
        }
        return out
    }
}

/// Calls `body` with C arrays of pointers to and lengths of each of `buffers`.
func withPointers<R>(_ buffers: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>) -> R) -> R {
    let pointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: max(buffers.count, 1))
    let lengths = UnsafeMutablePointer<Int>.allocate(capacity: max(buffers.count, 1))
    var copies: [UnsafeMutablePointer<UInt8>] = []
    defer {
        for c in copies { c.deallocate() }
        pointers.deallocate()
        lengths.deallocate()
    }
    pointers.initialize(to: nil)
    lengths.initialize(to: 0)
    for (i, b) in buffers.enumerated() {
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(b.count, 1))
        copy.initialize(from: b, count: b.count)
        copies.append(copy)
        (pointers + i).initialize(to: UnsafePointer(copy))
        (lengths + i).initialize(to: b.count)
    }
    return body(UnsafePointer(pointers), UnsafePointer(lengths))
}

/// The text of a NUL-terminated C buffer.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
