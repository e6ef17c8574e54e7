import Foundation
import TackCore

/// What a copy made by `tack mirror` holds (`tack-copy.json` at its root): for each URL a
/// lock's installs fetch, the file that answers it; each git repository, copied bare; the pip
/// and gem files, by name; the team cache's builds; and, for each tool, what its install needs
/// of all that, so `tack install --from` can say what a copy lacks before installing anything.
public struct CopyIndex: Codable, Sendable, Equatable {
    public static let fileName = "tack-copy.json"
    public static let currentFormat = "tack-copy/1"

    /// A file of the copy: its SHA-256 (hex) and size.
    public struct Blob: Codable, Sendable, Equatable {
        public var sha256: String
        public var size: Int
    }

    /// A tool as its lock entry names it, and what installing it needs from the copy.
    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var backend: String
        public var source: String
        /// What its install reads from the copy: `url:URL`, `git:URL`, `wheel:NAME`,
        /// `gem:NAME`, `build:TOOL/TAG`.
        public var needs: [String] = []
        /// What could not be carried (said again by `install --from`).
        public var notes: [String] = []

        public init(name: String, version: String, backend: String, source: String) {
            self.name = name
            self.version = version
            self.backend = backend
            self.source = source
        }
    }

    /// A team cache build (one OCI manifest, its config and its one layer), by key.
    public struct Build: Codable, Sendable, Equatable {
        /// The manifest's digest (`sha256:…`), as tack.lock records it.
        public var digest: String
        public var manifest: Blob
        public var config: Blob
        public var layer: Blob
    }

    public var format = CopyIndex.currentFormat
    /// The tack that made it.
    public var tack = TackVersion.current
    /// When it was made (ISO 8601, UTC).
    public var made = ""
    /// The platforms the locks it was made from cover.
    public var platforms: [String] = []
    public var tools: [Tool] = []
    /// URL → its file (under `files/`, by SHA-256).
    public var urls: [String: Blob] = [:]
    /// Repository URL → its bare copy (a directory under `git/`).
    public var repositories: [String: String] = [:]
    /// File name → blob, under `wheels/` (pip's find-links directory).
    public var wheels: [String: Blob] = [:]
    /// File name → blob, under `gems/`.
    public var gems: [String: Blob] = [:]
    /// `TOOL/TAG` (the cache key's tag) → the build, its parts under `files/`.
    public var builds: [String: Build] = [:]

    public init() {}

    /// The index as written: sorted keys, so the same copy gives the same bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data("{}".utf8)).map { $0 } + [0x0A]
    }

    /// The index in `bytes`, or why it is not one (`place` names the copy).
    public static func decode(_ bytes: [UInt8], place: String) throws(TackError) -> CopyIndex {
        struct Format: Decodable { var format: String }
        let damaged = TackError("\(place) is not a copy tack can read (its \(fileName) is damaged or not tack's) — make it again with `tack mirror`")
        guard let format = try? JSONDecoder().decode(Format.self, from: Data(bytes)).format else { throw damaged }
        guard format == currentFormat else {
            throw TackError("\(place) is a copy in the format \(quoted(format)), which this tack (\(TackVersion.current)) does not read — make it again with this tack's `tack mirror`")
        }
        guard let index = try? JSONDecoder().decode(CopyIndex.self, from: Data(bytes)) else { throw damaged }
        // Every place it names is one of the copy's own: a file by its SHA-256, a repository
        // under git/, a distribution by a plain name.
        func blob(_ b: Blob) -> Bool { Checksum.isSHA256(b.sha256) && b.sha256 == b.sha256.lowercased() && b.size >= 0 }
        func name(_ n: String) -> Bool { !n.isEmpty && !n.hasPrefix(".") && !n.contains("/") && !n.contains("\\") && !n.contains("\0") }
        let builds = index.builds.values.allSatisfy { blob($0.manifest) && blob($0.config) && blob($0.layer) }
        let repositories = index.repositories.values.allSatisfy { r in
            r.hasPrefix("git/") && r.hasSuffix(".git") && name(String(r.dropFirst(4))) && r.utf8.count < 128
        }
        guard index.urls.values.allSatisfy(blob), builds, repositories,
              index.wheels.allSatisfy({ name($0.key) && blob($0.value) }), index.gems.allSatisfy({ name($0.key) && blob($0.value) }) else {
            throw TackError("\(place) is not a copy tack can read (its \(fileName) names a file outside the copy) — make it again with `tack mirror`")
        }
        return index
    }

    /// Where a URL's file is kept, relative to the copy's root.
    public static func filePath(_ sum: String) -> String { "files/" + sum }
}
