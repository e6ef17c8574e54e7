import CZlib
import TackCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A macOS installer package (a xar archive), read for the certificate it says signed it: the
/// first `X509Certificate` of its table of contents' `signature`, the signing (leaf)
/// certificate that `pkgutil --check-signature` lists first. Reading it proves nothing by
/// itself: a Mac checks the signature (pkgutil) before it installs, and compares its signer
/// with the one recorded here.
public enum XarPackage {
    /// The header is 28 bytes; a table of contents larger than this is not a toolchain's.
    static let tocLimit = 64 << 20

    /// The DER bytes of the package's signing certificate.
    public static func signingCertificate(_ path: String) throws(ArchiveError) -> [UInt8] {
        let toc = try tableOfContents(path)
        guard let signature = range(of: Array("<signature".utf8), in: toc, from: 0) else {
            throw ArchiveError("the package is not signed (its table of contents has no signature)")
        }
        let open = Array("<X509Certificate>".utf8), close = Array("</X509Certificate>".utf8)
        guard let start = range(of: open, in: toc, from: signature), let end = range(of: close, in: toc, from: start + open.count) else {
            throw ArchiveError("the package's signature names no certificate")
        }
        guard let der = Base64.decode(toc[(start + open.count)..<end]), !der.isEmpty else {
            throw ArchiveError("the package's signing certificate is not base64")
        }
        return der
    }

    /// The inflated XML table of contents.
    static func tableOfContents(_ path: String) throws(ArchiveError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ArchiveError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 28)
        guard fread(&header, 1, 28, file) == 28, header[0..<4] == [0x78, 0x61, 0x72, 0x21] else {
            throw ArchiveError("not a xar archive (a macOS package)")
        }
        func be(_ at: Int, _ n: Int) -> UInt64 { header[at..<(at + n)].reduce(0) { $0 << 8 | UInt64($1) } }
        let headerSize = Int(be(4, 2)), compressed = be(8, 8), inflated = be(16, 8)
        guard headerSize >= 28, compressed > 0, compressed <= UInt64(tocLimit), inflated > 0, inflated <= UInt64(tocLimit) else {
            throw ArchiveError("the package's header is damaged")
        }
        guard fseek(file, headerSize, SEEK_SET) == 0 else { throw ArchiveError("the package is truncated") }
        var packed = [UInt8](repeating: 0, count: Int(compressed))
        guard fread(&packed, 1, packed.count, file) == packed.count else { throw ArchiveError("the package is truncated") }
        var out = [UInt8](repeating: 0, count: Int(inflated))
        var outLength = uLongf(inflated)
        let status = uncompress(&out, &outLength, packed, uLong(packed.count))
        guard status == Z_OK, outLength == uLongf(inflated) else { throw ArchiveError("the package's table of contents is damaged") }
        return out
    }

    static func range(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count, from <= haystack.count - needle.count else { return nil }
        var i = from
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

}
