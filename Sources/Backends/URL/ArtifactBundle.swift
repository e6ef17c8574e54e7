import Foundation
import TackCore

/// A Swift artifact bundle (SE-0305): a `NAME.artifactbundle` directory with an `info.json`
/// naming its artifacts, and for each executable artifact the variants it ships, each a path
/// inside the bundle and the target triples it runs on. SwiftLint, SwiftFormat, Sourcery and
/// others publish their releases as `*.artifactbundle.zip`.
struct ArtifactBundle: Decodable {
    struct Artifact: Decodable {
        var version: String?
        var type: String
        var variants: [Variant]
    }
    struct Variant: Decodable {
        var path: String
        /// Nil or missing: it runs anywhere.
        var supportedTriples: [String]?
    }

    var schemaVersion: String
    var artifacts: [String: Artifact]

    /// An extracted bundle: its directory (relative to where it was extracted) and its index.
    struct Found {
        var root: String
        var bundle: ArtifactBundle
    }

    /// The bundle in `files`: `info.json` at the top, or in the one `*.artifactbundle`
    /// directory there (how publishers zip it).
    static func find(in files: String, fs: any FileSystem, tool: String) throws(TackError) -> Found {
        var candidates = [""]
        let top = ((try? fs.list(files)) ?? []).filter { $0.hasSuffix(".artifactbundle") }.sorted()
        candidates += top.map { $0 + "/" }
        for root in candidates {
            let bytes: [UInt8]
            do { bytes = try fs.read(files + "/" + root + "info.json") } catch {
                // There, but not to be read as it is: said (a limit named with its size), not
                // taken for a bundle without one.
                if case .notFound = error.code { continue }
                throw TackError("the artifact bundle of \(tool) has an info.json tack will not read: \(error.reason) — nothing was installed")
            }
            let bundle: ArtifactBundle
            do { bundle = try JSONDecoder().decode(ArtifactBundle.self, from: Data(bytes)) } catch {
                throw TackError("the artifact bundle of \(tool) has an info.json tack cannot read (\(Self.describe(error))) — nothing was installed")
            }
            guard bundle.schemaVersion.split(separator: ".").first == "1" else {
                throw TackError("the artifact bundle of \(tool) is schemaVersion \(bundle.schemaVersion); tack reads 1.x — nothing was installed")
            }
            return Found(root: String(root.dropLast(root.isEmpty ? 0 : 1)), bundle: bundle)
        }
        throw TackError("the download of \(tool) is not an artifact bundle: no info.json at its top or in a *.artifactbundle directory — nothing was installed")
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no `\(key.stringValue)`"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "`\(c.codingPath.map(\.stringValue).joined(separator: "."))` is not what SE-0305 says"
        default: return "not JSON"
        }
    }

    /// The executable artifacts, by name (sorted).
    var executables: [(name: String, artifact: Artifact)] {
        artifacts.filter { $0.value.type == "executable" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The variant of `artifact` that runs on `platform`; nil when it has none.
    static func variant(of artifact: Artifact, for platform: Platform) -> Variant? {
        // A variant for this exact system first, then one that runs anywhere.
        artifact.variants.first { $0.supportedTriples?.contains { runs($0, on: platform) } ?? false }
            ?? artifact.variants.first { $0.supportedTriples == nil }
    }

    /// Whether a binary built for `triple` runs on `platform`: the same architecture
    /// (`aarch64` is `arm64`, `amd64` is `x86_64`; `arm64e` runs where arm64 does not, so it
    /// does not count) and the same system (`linux`, with glibc or musl, whose static
    /// binaries run on any Linux; `macosx` or `macos`, any version).
    static func runs(_ triple: String, on platform: Platform) -> Bool {
        let parts = triple.lowercased().split(separator: "-").map(String.init)
        guard parts.count >= 3 else { return false }
        let arch: String
        switch parts[0] {
        case "x86_64", "amd64": arch = "x86_64"
        case "aarch64", "arm64": arch = "arm64"
        default: return false
        }
        let system = parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "0123456789."))
        let os: String
        switch system {
        case "linux": os = "linux"
        case "macosx", "macos", "darwin": os = "darwin"
        default: return false
        }
        return arch == platform.arch && os == platform.os
    }

    /// For each `(artifact, command)`, the command and its variant's path for `platform`
    /// (relative to where the bundle was extracted), checked to stay inside the bundle; or
    /// the first artifact with no variant for `platform`, and the triples it has.
    func variantPaths(_ chosen: [(artifact: String, command: String)], root: String, for platform: Platform, tool: String)
        throws(TackError) -> Result<[(command: String, path: String)], NoVariant> {
        var out: [(command: String, path: String)] = []
        for (name, command) in chosen {
            guard let artifact = artifacts[name], artifact.type == "executable" else {
                throw TackError("the artifact bundle of \(tool) has no executable \(name) (named by `bin:`); it has \(executables.map(\.name).joined(separator: ", "))")
            }
            guard ToolName.isValidBinaryName(command) else { throw TackError("`\(command)` (an artifact of \(tool)) is not a valid command name") }
            guard let variant = Self.variant(of: artifact, for: platform) else {
                return .failure(NoVariant(artifact: name, triples: artifact.variants.flatMap { $0.supportedTriples ?? [] }))
            }
            guard BinSpec.isSafeRelativePath(variant.path) else {
                throw TackError("the artifact bundle of \(tool) names \(quoted(variant.path)) for \(name), a path outside the bundle — nothing was installed")
            }
            out.append((command, root.isEmpty ? variant.path : root + "/" + variant.path))
        }
        return .success(out)
    }

    struct NoVariant: Error {
        var artifact: String
        var triples: [String]
    }

    /// The triple a build for `platform` would say, for messages.
    static func triple(of platform: Platform) -> String {
        switch (platform.os, platform.arch) {
        case ("linux", "arm64"): return "aarch64-unknown-linux-gnu"
        case ("linux", _): return "\(platform.arch)-unknown-linux-gnu"
        default: return "\(platform.arch)-apple-macosx"
        }
    }
}
