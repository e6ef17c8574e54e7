import TackCore
import YAML

/// One package of an aqua registry, as aqua reads it: its fields as the registry writes them,
/// chosen for a version (`version_constraint`, then the first of `version_overrides` whose
/// constraint holds, its fields replacing the package's) and a platform (`format_overrides`,
/// then the first of `overrides` for the OS and architecture, its `replacements` merged key
/// by key), and rendered into what to download (`AquaDownload`).
public struct AquaPackage: Sendable {
    /// The fields as written (templates unrendered).
    var fields: [String: Node]

    public init(_ node: Node) throws(TackError) {
        guard case .mapping(let pairs, _) = node else { throw TackError("an aqua registry package is a mapping, found \(node.kindName)") }
        var fields: [String: Node] = [:]
        for (key, value) in pairs { fields[key.value] = value }
        // aqua reads `error_message` only from a version override.
        fields["error_message"] = nil
        self.fields = fields
    }

    /// `name`, else `owner/repo`, else a Go tool's `path`.
    public var name: String {
        if let name = string("name") { return name }
        if let owner = string("repo_owner"), let repo = string("repo_name") { return "\(owner)/\(repo)" }
        return string("path") ?? ""
    }

    /// `owner/repo` on GitHub, when the package names one.
    public var repository: String? {
        guard let owner = string("repo_owner"), let repo = string("repo_name") else { return nil }
        return "\(owner)/\(repo)"
    }

    public var aliases: [String] {
        guard case .sequence(let items, _)? = fields["aliases"] else { return [] }
        return items.compactMap { item in
            guard case .mapping(let pairs, _) = item, case .scalar(let s)? = pairs.first(where: { $0.key.value == "name" })?.value else { return nil }
            return s.value
        }
    }

    public var description: String? { string("description") }
    public var type: String { string("type") ?? "" }

    func string(_ key: String) -> String? { Self.string(fields[key]) }

    static func string(_ node: Node?) -> String? {
        guard case .scalar(let s)? = node, !s.isNull else { return nil }
        return s.value
    }

    static func flag(_ node: Node?) -> Bool? {
        guard let text = string(node) else { return nil }
        return text == "true"
    }

    /// The package as it is for `version` (the tag, `v1.9.5`): the first of its version
    /// overrides whose constraint holds, laid over it; as it is when it has no constraint.
    public func forVersion(_ version: String) throws(TackError) -> AquaPackage {
        guard let constraint = string("version_constraint") else { return self }
        func prefixed(_ prefix: String?) -> String? {
            guard let prefix, !prefix.isEmpty else { return version }
            return version.hasPrefix(prefix) ? String(version.dropFirst(prefix.count)) : nil
        }
        func holds(_ expression: String, prefix: String?) -> Bool {
            guard let semVer = prefixed(prefix) else { return false }
            do { return try AquaExpression(expression).holds(version: version, semVer: semVer) } catch { return false }
        }
        let prefix = string("version_prefix")
        if holds(constraint, prefix: prefix) { return self }
        guard case .sequence(let overrides, _)? = fields["version_overrides"] else { return self }
        for case .mapping(let pairs, _) in overrides {
            var override: [String: Node] = [:]
            for (key, value) in pairs { override[key.value] = value }
            let ownPrefix = override["version_prefix"].map { Self.string($0) ?? "" } ?? prefix
            guard let expression = Self.string(override["version_constraint"]), holds(expression, prefix: ownPrefix) else { continue }
            var out = self
            if let type = Self.string(override["type"]), type != self.type {
                // Another type: what only the old one reads goes.
                for key in ["asset", "url", "path", "format", "files", "checksum", "replacements", "overrides", "format_overrides"] { out.fields[key] = nil }
            }
            for (key, value) in override where key != "version_constraint" { out.fields[key] = value }
            out.fields["version_overrides"] = nil
            return out
        }
        return self
    }

    /// The package as it is on `platform` (`format_overrides`, then the first matching
    /// `overrides` entry).
    func forPlatform(_ platform: AquaPlatform) -> AquaPackage {
        var out = self
        if case .sequence(let items, _)? = fields["format_overrides"] {
            for case .mapping(let pairs, _) in items where Self.string(pairs.first { $0.key.value == "goos" }?.value) == platform.goos {
                if let format = pairs.first(where: { $0.key.value == "format" })?.value { out.fields["format"] = format }
                break
            }
        }
        guard case .sequence(let items, _)? = fields["overrides"] else { return out }
        for case .mapping(let pairs, _) in items {
            var entry: [String: Node] = [:]
            for (key, value) in pairs { entry[key.value] = value }
            if let goos = Self.string(entry["goos"]), goos != platform.goos { continue }
            if let goarch = Self.string(entry["goarch"]), goarch != platform.goarch { continue }
            if let envs = entry["envs"], !Self.supports(envs, platform, rosetta: false) { continue }
            if case .mapping(let variants, _)? = entry["variants"] {
                guard variants.allSatisfy({ $0.key.value == "libc" && Self.string($0.value) == platform.libc }) else { continue }
            }
            for (key, value) in entry where !["goos", "goarch", "envs", "variants"].contains(key) {
                if key == "replacements", case .mapping(let extra, _) = value, case .mapping(var base, let mark)? = out.fields["replacements"] {
                    for pair in extra {
                        base.removeAll { $0.key.value == pair.key.value }
                        base.append(pair)
                    }
                    out.fields["replacements"] = .mapping(base, mark)
                } else {
                    out.fields[key] = value
                }
            }
            break
        }
        return out
    }

    /// Whether `envs` (`supported_envs`: `linux`, `amd64`, `darwin/arm64`, `all`) holds the
    /// platform; with rosetta2, an Apple-silicon Mac also runs what `amd64` or `darwin/amd64`
    /// names.
    static func supports(_ envs: Node, _ platform: AquaPlatform, rosetta: Bool) -> Bool {
        guard case .sequence(let items, _) = envs else { return true }
        let names = items.compactMap { string($0) }
        var accepted: Set<String> = ["all", platform.goos, platform.goarch, "\(platform.goos)/\(platform.goarch)"]
        if rosetta, platform.goos == "darwin", platform.goarch == "arm64" { accepted.formUnion(["amd64", "darwin/amd64"]) }
        return names.contains { accepted.contains($0) }
    }

    /// Whether this package (chosen for a version and platform already) is published for
    /// `platform` at all: its `supported_envs`, rosetta2 counted.
    func publishes(for platform: AquaPlatform) -> Bool {
        guard let envs = fields["supported_envs"] else { return true }
        return Self.supports(envs, platform, rosetta: Self.flag(fields["rosetta2"]) == true)
    }

    /// Whether `version` (the tag) is published for `platform`: a platform it is not has
    /// nothing to lock (an install there says why). True when the entry cannot tell, so that
    /// `download` says what is wrong with it.
    public func isPublished(version: String, platform: Platform) -> Bool {
        let target = AquaPlatform(platform)
        guard let chosen = try? forVersion(version).forPlatform(target) else { return true }
        // An entry that says why it has no asset says so first (`AquaDownloadRenderer`).
        if Self.flag(chosen.fields["no_asset"]) == true || chosen.string("error_message") != nil { return true }
        return chosen.publishes(for: target)
    }

    /// What to download for `version` (the tag) on `platform`, or why there is nothing.
    public func download(version: String, platform: Platform, libc: String = "glibc", vars: [String: String] = [:]) throws(TackError) -> AquaDownload {
        let target = AquaPlatform(platform, libc: libc)
        let chosen = try forVersion(version).forPlatform(target)
        return try AquaDownloadRenderer(package: chosen, version: version, platform: target, vars: vars).render()
    }
}

/// A platform as aqua names it: Go's OS and architecture, and the C library.
struct AquaPlatform: Sendable {
    var goos: String
    var goarch: String
    var libc: String

    init(_ platform: Platform, libc: String = "glibc") {
        goos = platform.os
        goarch = platform.arch == "x86_64" ? "amd64" : platform.arch
        self.libc = libc
    }
}
