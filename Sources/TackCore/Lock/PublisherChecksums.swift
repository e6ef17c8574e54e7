/// A publisher's checksum file, as releases ship them: `sha256sum`'s lines
/// (`HASH  NAME`, `HASH *NAME`), GoReleaser's `checksums.txt` (the same), BSD's
/// `SHA256 (NAME) = HASH`, or one `.sha256` per download (the hash alone, or with the name).
public struct PublisherChecksums: Sendable, Equatable {
    /// SHA-256 by file name (the last path component, as listed).
    public var sums: [String: String] = [:]
    /// A file that is one hash with no name: the checksum of whatever it sits beside.
    public var single: String?
    /// Every named line: the name as listed (a path, maybe), its hash, the line itself.
    public var entries: [Entry] = []

    public struct Entry: Sendable, Equatable {
        public var listed: String
        public var hash: String
        public var line: String
    }

    public init(_ text: String) {
        var unnamed: [String] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("SHA256 ("), let close = line.range(of: ") = ") {
                let name = String(line[line.index(line.startIndex, offsetBy: 8)..<close.lowerBound])
                let hash = String(line[close.upperBound...]).trimmingSpaces
                if Checksum.isSHA256(hash) { add(name, hash, line) }
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
            add(name, hash, line)
        }
        if unnamed.count == 1 && sums.isEmpty { single = unnamed[0] }
    }

    mutating func add(_ name: String, _ hash: String, _ line: String) {
        sums[Paths.basename(name)] = hash.lowercased()
        entries.append(Entry(listed: name, hash: hash.lowercased(), line: String(line)))
    }

    /// The checksum the file gives for `name` (a download's file name). Two lines that give
    /// one name different hashes are ambiguous (a mirror could serve either file) unless
    /// their paths tell them apart: the one whose listed path ends `path` (the download URL's
    /// path) is the one; otherwise an error naming both lines.
    public func sum(for name: String, path: String? = nil) throws(TackError) -> String? {
        let named = entries.filter { Paths.basename($0.listed) == name }
        guard Set(named.map({ $0.hash })).count > 1 else { return named.first?.hash ?? single }
        if let path {
            let matching = named.filter { entry in
                let listed = entry.listed.hasPrefix("./") ? String(entry.listed.dropFirst(2)) : entry.listed
                return listed.contains("/") && (path == listed || path.hasSuffix("/" + listed))
            }
            if Set(matching.map({ $0.hash })).count == 1, let only = matching.first { return only.hash }
        }
        let lines = named.map { "`\(Terminal.escapeControls($0.line))`" }.joined(separator: " and ")
        throw TackError("the checksum file lists \(name) more than once with different hashes (\(lines)), and nothing in their paths says which is this download — nothing was installed; tell the publisher")
    }
}
