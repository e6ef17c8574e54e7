import TackCore

/// A gem to install: name, version (with a platform suffix for platform gems), file.
struct GemPin: Equatable {
    var name: String
    var version: String
    /// `nokogiri-1.16.0-x86_64-linux`: what a platform's selection lists.
    var stem: String { "\(name)-\(version)" }
    var file: String { stem + ".gem" }
}

extension GemPin {
    /// Whether `stem` can be a gem file's name (and so a path component): letters, digits,
    /// `.`, `_`, `-` and `+`, starting with a letter or digit. tack.lock's names are checked
    /// with it before they become paths.
    static func isFileStem(_ stem: String) -> Bool {
        guard let first = stem.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return stem.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-+".unicodeScalars.contains($0)) }
    }

    /// The gem a file stem names (`nokogiri-1.16.0-x86_64-linux`), or nil.
    static func pinned(stem: String) -> GemPin? { parseExplain("Gems to install:\n" + stem).first }

    /// `Gems to install:` lines (`helper-1.2.0`, `nokogiri-1.16.0-x86_64-linux`).
    static func parseExplain(_ output: String) -> [GemPin] {
        var out: [GemPin] = []
        var listing = false
        for raw in output.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Gems to install") { listing = true; continue }
            guard listing, !line.isEmpty else { continue }
            let parts = line.split(separator: "-").map(String.init)
            // The version is the first part that starts with a digit, after at least one name part.
            guard let i = parts.indices.dropFirst().first(where: { parts[$0].first?.isNumber == true }) else { continue }
            out.append(GemPin(name: parts[..<i].joined(separator: "-"), version: parts[i...].joined(separator: "-")))
        }
        return out
    }

    /// `1.16.0-x86_64-linux` → ("1.16.0", "x86_64-linux").
    static func splitPlatform(_ version: String) -> (String, String?) {
        guard let dash = version.firstIndex(of: "-") else { return (version, nil) }
        return (String(version[..<dash]), String(version[version.index(after: dash)...]))
    }
}
