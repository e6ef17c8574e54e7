import TackCore

/// A checksum file as aqua reads one (`checksum.file_format`): `raw` (the file is the hash),
/// `regexp` (`pattern.checksum` and `pattern.file`, each's first group), or by default lines of
/// `HASH  FILE` (the file's last path component, a leading `*` removed) or one bare hash.
struct AquaChecksumFile {
    /// Hash by file name; `single` when the file is one hash for whatever it sits beside.
    var sums: [String: String] = [:]
    var single: String?

    init(_ text: String, format: String, checksumPattern: String? = nil, filePattern: String? = nil) throws(TackError) {
        let normalized = text.replacingAll("\r\n", with: "\n")
        switch format {
        case "raw":
            single = normalized.trimmingWhitespace()
        case "regexp":
            guard let checksumPattern else { throw TackError("aqua's regexp checksum format needs `pattern.checksum`") }
            let hash: Regex<AnyRegexOutput>, file: Regex<AnyRegexOutput>?
            do {
                hash = try Regex(checksumPattern)
                file = try filePattern.map { try Regex($0) }
            } catch { throw TackError("aqua's checksum pattern is not a regular expression tack reads: \(error)") }
            for line in normalized.split(separator: "\n") {
                guard let h = line.firstMatch(of: hash), h.output.count > 1, let sum = h.output[1].substring else { continue }
                guard let file else {
                    if single == nil { single = String(sum) }
                    continue
                }
                guard let f = line.firstMatch(of: file), f.output.count > 1, let name = f.output[1].substring else { continue }
                sums[String(name)] = String(sum)
            }
        default:
            let lines = normalized.split(separator: "\n").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            if lines.count == 1, let only = lines.first, !only.contains(" "), !only.contains("\t") {
                single = only
                return
            }
            for line in lines {
                guard let cut = line.firstIndex(of: " ") ?? line.firstIndex(of: "\t") else { continue }
                var name = line[line.index(after: cut)...].trimmingWhitespace()
                name = String(name.split(separator: "/").last ?? Substring(name))
                if name.hasPrefix("*") { name.removeFirst() }
                sums[name] = String(line[..<cut])
            }
        }
    }

    /// The hash for `asset` (lower-cased), when the file gives one and it has `algorithm`'s length.
    func hash(for asset: String, algorithm: String) -> String? {
        guard let sum = (sums[asset] ?? single)?.lowercased() else { return nil }
        let length = ["sha256": 64, "sha512": 128, "sha1": 40, "md5": 32][algorithm] ?? 64
        return sum.count == length && sum.allSatisfy(\.isHexDigit) ? sum : nil
    }
}
