/// How a download is named in `cache/downloads`: by what was asked for, the URL and the
/// checksum its bytes have (`<sha256>-<first 16 hex digits of the URL's SHA-256>`). A cached
/// file answers only the URL it came from: two versions whose pins name the same checksum by
/// mistake never share a file, and the second is downloaded and checked against its own bytes.
public enum DownloadCacheName {
    /// The cache file name of `url`'s download whose SHA-256 is `sum`.
    public static func name(url: String, sum: String) -> String {
        sum.lowercased() + "-" + String(SHA256Digest.hex(Array(url.utf8)).prefix(16))
    }

    /// The checksum a cache file name starts with (a kept signature's name too:
    /// `<name>.minisig`), or nil for anything else in the folder.
    public static func sum(ofName name: String) -> String? {
        let sum = String(name.prefix(64))
        return Checksum.isSHA256(sum) ? sum.lowercased() : nil
    }
}
