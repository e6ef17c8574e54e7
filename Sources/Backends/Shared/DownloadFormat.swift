import Foundation
import TackCore

/// What a download is, by its name and its first bytes: an archive (and which), an artifact
/// bundle, an executable, or a web page a server sent instead.
enum DownloadFormat {
    /// A bare binary must be an executable (ELF, Mach-O, or a `#!` script): a server that
    /// answers 200 with a web page or an error text must not become the command, nor its hash
    /// the lock's. Archives are checked by extracting them.
    static func checkFormat(_ file: String, url: String, archive: Bool? = nil) throws(TackError) {
        guard !(archive ?? isArchive(url)) else { return }
        let head = [UInt8]((FileHandle(forReadingAtPath: file)?.readData(ofLength: 4)) ?? Data())
        if Self.isExecutableFormat(head) { return }
        let what = Self.describeBadArchive(file) == "sent a web page, not an archive" ? "sent a web page" : "sent a file that is not a program"
        throw TackError("\(url) \(what), not an executable (ELF, Mach-O or a `#!` script) — nothing was installed")
    }

    /// The first `count` bytes of the file at `path` (fewer for a shorter file, none for one
    /// that cannot be read).
    static func head(_ path: String, count: Int) -> [UInt8] {
        [UInt8]((FileHandle(forReadingAtPath: path)?.readData(ofLength: count)) ?? Data())
    }

    static func isExecutableFormat(_ head: [UInt8]) -> Bool {
        if head.starts(with: [0x23, 0x21]) { return true }  // #!
        guard head.count >= 4 else { return false }
        let magics: [[UInt8]] = [
            [0x7F, 0x45, 0x4C, 0x46],  // ELF
            [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE],  // Mach-O
            [0xCA, 0xFE, 0xBA, 0xBE],  // universal Mach-O
        ]
        return magics.contains { head.starts(with: $0) }
    }

    /// An SE-0305 artifact bundle, as publishers name them.
    static func isArtifactBundle(_ url: String) -> Bool {
        (URL(string: url)?.path ?? url).lowercased().hasSuffix(".artifactbundle.zip")
    }

    static let archiveSuffixes = [".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz", ".tar.zst", ".tar", ".zip"]

    static func isArchive(_ url: String) -> Bool {
        let path = (URL(string: url)?.path ?? url).lowercased()
        return archiveSuffixes.contains { path.hasSuffix($0) }
    }

    /// "is not a valid archive" with a hint when the server sent a web page instead.
    static func describeBadArchive(_ file: String) -> String {
        let head = (FileHandle(forReadingAtPath: file)?.readData(ofLength: 512)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let trimmed = head.drop { $0.isWhitespace }.lowercased()
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.hasPrefix("<") {
            return "sent a web page, not an archive"
        }
        return "is not an archive tack can safely extract"
    }
}
