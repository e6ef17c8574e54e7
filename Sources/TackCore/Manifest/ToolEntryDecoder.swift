#if !hasFeature(Embedded)
import YAML
#endif

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
                } else if let kind = reader.backends.kind(sourceKey: k.value) {
                    let s = ToolSource(kind, try kind.source(k, v, reader))
                    if let other = entry.sourceKey {
                        // A source key another kind takes beside its own as an option (git's
                        // `artifactbundle`: the tool's prebuilt bundle, installed instead of
                        // building when it provides the products).
                        if entry.source.kind?.companion(k.value, identity: s.identity ?? "", into: &entry.options) == true { continue }
                        if kind.companion(other.value, identity: entry.source.identity ?? "", into: &entry.options) {
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
            if text.contains(where: { $0.isControl }) { throw reader.fail(v.mark, "`path` contains a control character") }
            return .path(text)
        default:
            return nil
        }
    }

    /// Any other key of a tool's mapping: an option one backend (or all) reads.
    func decodeOption(_ k: Scalar, _ v: Node, tool name: String, into opts: inout ToolOptions) throws(TackError) {
        if try opts.decodeShared(k, v, reader) { return }
        guard let owner = reader.backends.kind(optionKey: k.value) else {
            throw reader.unknownKey(k, in: reader.backends.toolKeys, context: " in \(name)")
        }
        try owner.options.decode(k, v, reader, into: &opts)
    }

    func checkCombinations(_ name: String, _ source: ToolSource, _ used: [String: Scalar]) throws(TackError) {
        guard used.keys.contains(where: { reader.backends.ownKeys.contains($0) }) else { return }
        for owner in reader.backends.kinds where !owner.ownKeys.isEmpty {
            // A short name takes its source from the registry: the keys of the kinds it may
            // name fit (git's and url's any, the toolchain's `swift`).
            if owner.fits(source, tool: name) { continue }
            let backend = owner.name
            for key in owner.ownKeys {
                if let k = used[key] {
                    throw reader.fail(k.mark, "`\(key)` applies to \(backend) tools, but \(name) comes from \(source.backend == "registry" ? "the registry" : source.backend)")
                }
            }
        }
    }
}
