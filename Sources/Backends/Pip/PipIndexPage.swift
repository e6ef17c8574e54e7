import Foundation
import TackCore

/// One file an index page or a find_links directory offers.
struct PipIndexFile: Sendable, Equatable {
    var name: String
    /// Its URL, or its path for a directory.
    var location: String
    /// The SHA-256 the page declares for it (`#sha256=…`), if it does.
    var declared: String?
    var yanked = false
}

/// A PEP 503 index page: the distribution files it links, with their declared hashes and
/// whether they are yanked.
enum PipIndexPage {
    /// The file names linked from an HTML page, without yanked ones.
    static func links(_ html: String) -> [String] {
        files(html, base: "").filter { !$0.yanked }.map(\.name)
    }

    /// The files linked from an HTML page, their URLs resolved against `base`.
    static func files(_ html: String, base: String) -> [PipIndexFile] {
        var out: [PipIndexFile] = []
        let baseURL = URL(string: base)
        for match in html.matches(of: #/<a\s([^>]*)>/#.ignoresCase()) {
            let attributes = String(match.output.1)
            // Attribute names are case-insensitive in HTML (`HREF=`), as the tag's is.
            guard let href = attributes.firstMatch(of: #/href\s*=\s*"([^"]*)"/#.ignoresCase())?.output.1
                ?? attributes.firstMatch(of: #/href\s*=\s*'([^']*)'/#.ignoresCase())?.output.1 else { continue }
            var url = String(href).replacingOccurrences(of: "&amp;", with: "&")
            var declared: String?
            if let hash = url.firstIndex(of: "#") {
                let fragment = url[url.index(after: hash)...]
                if fragment.hasPrefix("sha256="), Checksum.isSHA256(String(fragment.dropFirst(7))) { declared = fragment.dropFirst(7).lowercased() }
                url = String(url[..<hash])
            }
            let name = url.split(separator: "/").last.map(String.init) ?? url
            let location = URL(string: url, relativeTo: baseURL)?.absoluteString ?? url
            out.append(PipIndexFile(name: name.removingPercentEncoding ?? name, location: location, declared: declared, yanked: attributes.lowercased().contains("data-yanked")))
        }
        return out
    }

    static func slash(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

}
