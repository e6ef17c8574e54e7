/// A publisher's checksum file, as releases ship them: `sha256sum`'s lines
/// (`HASH  NAME`, `HASH *NAME`), GoReleaser's `checksums.txt` (the same), BSD's
/// `SHA256 (NAME) = HASH`, or one `.sha256` per download (the hash alone, or with the name).
public struct PublisherChecksums: Sendable, Equatable {
    /// SHA-256 by file name (the last path component, as listed).
    public var sums: [String: String] = [:]
    /// A file that is one hash with no name: the checksum of whatever it sits beside.
    public var single: String?

    public init(_ text: String) {
        var unnamed: [String] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("SHA256 ("), let close = line.range(of: ") = ") {
                let name = String(line[line.index(line.startIndex, offsetBy: 8)..<close.lowerBound])
                let hash = String(line[close.upperBound...]).trimmingSpaces
                if Checksum.isSHA256(hash) { sums[Paths.basename(name)] = hash.lowercased() }
                continue
            }
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let hash = fields.first, Checksum.isSHA256(hash) else { continue }
            if fields.count == 1 {
                unnamed.append(hash.lowercased())
                continue
            }
            var name = fields[1].trimmingSpaces
            if name.hasPrefix("*") { name.removeFirst() }
            sums[Paths.basename(name)] = hash.lowercased()
        }
        if unnamed.count == 1 && sums.isEmpty { single = unnamed[0] }
    }

    /// The checksum the file gives for `name` (a download's file name).
    public func sum(for name: String) -> String? { sums[name] ?? single }
}
