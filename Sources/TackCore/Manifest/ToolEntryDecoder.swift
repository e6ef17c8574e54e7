import YAML

/// A `tools:` entry of a manifest read into a `ToolRequest`: its source key (`git`, `url`,
/// `pip`, …), its requirement (`version`, `ref`, `path`) and the options its backend reads,
/// with the reading primitives and messages of the manifest's `ManifestDecoder`.
struct ToolEntryDecoder {
    let reader: ManifestDecoder

    func requirement(_ text: String, at mark: Mark, tool: String) throws(TackError) -> Requirement {
        do { return try Requirement.parse(text) } catch {
            switch error {
            case .unsafe, .empty:
                throw reader.fail(mark, "expected a version requirement for \(tool), found \(quoted(text)): \(error)")
            case .invalid:
                throw reader.fail(mark, "expected a version requirement, found \(quoted(text))")
            }
        }
    }

    /// One `tools:` entry: a bare version, or a mapping of a source, a requirement and options.
    func decode(_ key: Scalar, _ node: Node) throws(TackError) -> ToolRequest {
        let name = key.value
        guard ToolName.isValid(name) else { throw reader.fail(key.mark, ToolName.problem(name)) }
        let origin = Origin(kind: reader.kind, file: reader.path, line: key.mark.line, column: key.mark.column)
        switch node {
        case .scalar(let s):
            if s.isNull {
                throw reader.fail(key.mark, "`\(name)` needs a version: write `\(name): latest` for the newest, or a version like `\(name): 1.2.3`")
            }
            return ToolRequest(name: name, requirement: try requirement(s.value, at: s.mark, tool: name), origin: origin)
        case .sequence:
            throw reader.fail(node.mark, "`\(name)` must be a version or a mapping (like `{ git: URL, version: 1.2 }`), found a list")
        case .mapping(let pairs, _):
            var entry = ToolEntry(name: name)
            for (k, v) in pairs {
                entry.used[k.value] = k
                if let r = try entryRequirement(k, v, tool: name) {
                    if let other = entry.requirementKey {
                        throw reader.fail(k.mark, "`\(k.value)` and `\(other.value)` (line \(other.mark.line)) both say which version of \(name) to use; keep one")
                    }
                    entry.requirement = r
                    entry.requirementKey = k
                } else if let s = try entrySource(k, v) {
                    if let other = entry.sourceKey {
                        // `artifactbundle:` beside `git:`/`github:`: the git tool's prebuilt
                        // bundle, installed instead of building when it provides the products.
                        if case .git = entry.source, k.value == "artifactbundle", case .url(let bundle) = s {
                            entry.options.git.bundle = bundle
                            continue
                        }
                        if case .git = s, other.value == "artifactbundle", case .url(let bundle) = entry.source {
                            entry.options.git.bundle = bundle
                            (entry.source, entry.sourceKey) = (s, k)
                            continue
                        }
                        throw reader.fail(k.mark, "\(name) has two sources, `\(other.value)` (line \(other.mark.line)) and `\(k.value)`; keep one")
                    }
                    entry.source = s
                    entry.sourceKey = k
                } else {
                    try decodeOption(k, v, tool: name, into: &entry.options)
                }
            }
            try checkCombinations(name, entry.source, entry.used)
            return ToolRequest(name: name, requirement: entry.requirement ?? .latest, source: entry.source, options: entry.options, origin: origin)
        }
    }

    /// A tool's mapping as it is read, key by key.
    struct ToolEntry {
        let name: String
        var source: ToolSource = .registry
        var sourceKey: Scalar?
        var requirement: Requirement?
        var requirementKey: Scalar?
        var options = ToolOptions()
        var used: [String: Scalar] = [:]
    }

    /// The requirement a `version`, `ref` or `path` key gives; nil for any other key.
    func entryRequirement(_ k: Scalar, _ v: Node, tool: String) throws(TackError) -> Requirement? {
        switch k.value {
        case "version":
            let r = try requirement(try reader.string(v, "`version`"), at: v.mark, tool: tool)
            if case .path = r { throw reader.fail(v.mark, "write `path:` as its own key, not inside `version`") }
            return r
        case "ref":
            let text = try reader.string(v, "`ref`")
            do { return .ref(try Requirement.parseRef(text)) } catch {
                throw reader.fail(v.mark, "expected a git branch, tag or commit, found \(quoted(text)): \(error)")
            }
        case "path":
            let text = try reader.string(v, "`path`")
            if text.contains(where: \.isControl) { throw reader.fail(v.mark, "`path` contains a control character") }
            return .path(text)
        default:
            return nil
        }
    }

    /// The source a source key (`git`, `github`, `url`, `artifactbundle`, `pip`, `gem`, `asdf`,
    /// `swift`) gives;
    /// nil for any other key.
    func entrySource(_ k: Scalar, _ v: Node) throws(TackError) -> ToolSource? {
        switch k.value {
        case "git": return .git(try reader.url(v, "`git`"))
        case "github":
            let repo = try reader.string(v, "`github`")
            guard GitHub.isValidRepository(repo) else {
                throw reader.fail(v.mark, "expected `owner/repo` after `github:`, found \(quoted(repo))")
            }
            return .git(GitHub.url(repo))
        case "url": return .url(try reader.downloadURL(v, "`url`"))
        case "artifactbundle":
            // A Swift artifact bundle (SE-0305) on a URL: the url backend installs the
            // variant for this machine.
            let url = try reader.downloadURL(v, "`artifactbundle`")
            guard url.lowercased().hasSuffix(".artifactbundle.zip") else {
                throw reader.fail(v.mark, "`artifactbundle` is the URL of a `*.artifactbundle.zip` (SE-0305), found \(quoted(url)); any other archive is a `url:`")
            }
            return .url(url)
        case "pip": return .pip(try reader.packageName(v, "`pip`"))
        case "gem": return .gem(try reader.packageName(v, "`gem`"))
        case "asdf": return .asdf(try reader.url(v, "`asdf`"))
        case "swift":
            let text = try reader.string(v, "`swift`")
            guard text == SwiftToolchain.source else {
                throw reader.fail(v.mark, "`swift:` says where Swift toolchains come from, and the only source is \(SwiftToolchain.source), found \(quoted(text)); a mirror of it is set with TACK_SWIFT_MIRROR")
            }
            return .swift(text)
        default:
            return nil
        }
    }

    /// Any other key of a tool's mapping: an option one backend (or all) reads.
    func decodeOption(_ k: Scalar, _ v: Node, tool name: String, into opts: inout ToolOptions) throws(TackError) {
        guard try opts.decode(k, v, reader) else { throw reader.unknownKey(k, in: Manifest.toolKeys, context: " in \(name)") }
    }

    func checkCombinations(_ name: String, _ source: ToolSource, _ used: [String: Scalar]) throws(TackError) {
        for owner in BackendKind.allCases where !owner.ownKeys.isEmpty {
            // A short name takes its source from the registry: git's and url's keys fit any,
            // the toolchain's fit `swift`, the registry's name of it.
            let fits = source.kind == owner || (source.kind == nil && (owner.registryMayName || (owner == .swift && name == SwiftToolchain.registryName)))
            if fits { continue }
            let backend = owner.rawValue
            for key in owner.ownKeys {
                if let k = used[key] {
                    throw reader.fail(k.mark, "`\(key)` applies to \(backend) tools, but \(name) comes from \(source.backend == "registry" ? "the registry" : source.backend)")
                }
            }
        }
    }
}
