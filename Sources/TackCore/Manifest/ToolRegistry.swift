#if !hasFeature(Embedded)
import YAML
#endif

/// Short names mapped to a source: the built-in registry and the user's own registries
/// (git repositories with a `registry.yml` at the top, added with `tack registry add`).
/// Entries are tool entries as in tack.yml, without a version.
public struct ToolRegistry: Sendable {
    public private(set) var entries: [String: ToolRequest] = [:]
    /// The kinds of backend its entries may name.
    public let backends: BackendCatalog

    public init(backends: BackendCatalog) { self.backends = backends }

    /// Parses a registry file; its entries replace earlier ones of the same name.
    public mutating func add(_ bytes: [UInt8], path: String) throws(TackError) {
        let root: Node?
        do { root = try YAMLParser.parse(bytes) } catch { throw TackError.at(path, error.mark.line, error.mark.column, error.message) }
        guard let root else { return }
        guard case .mapping(let pairs, _) = root else {
            throw TackError.at(path, root.mark.line, root.mark.column, "a registry is a mapping of tool names to entries")
        }
        let decoder = ManifestDecoder(path: path, kind: .manifest, backends: backends)
        for (key, value) in pairs {
            guard case .mapping(let fields, _) = value else {
                throw TackError.at(path, value.mark.line, value.mark.column, "the registry entry for `\(key.value)` must be a mapping")
            }
            if let v = fields.first(where: { ["version", "ref", "path"].contains($0.key.value) }) {
                throw TackError.at(path, v.key.mark.line, v.key.mark.column, "a registry entry names a source, not a version; remove `\(v.key.value)`")
            }
            let entry = try ToolEntryDecoder(reader: decoder).decode(key, value)
            if entry.source.isRegistry {
                throw TackError.at(path, key.mark.line, key.mark.column, "the registry entry for `\(key.value)` needs a source (\(backends.sourceKeysInWords))")
            }
            entries[key.value] = entry
        }
    }

    /// The request with the registry's source and options, the request's own options winning
    /// field by field. Requests with a source of their own are returned as they are.
    public func apply(_ request: ToolRequest) -> ToolRequest {
        guard case .registry = request.source, let entry = entries[request.name] else { return request }
        var merged = request
        merged.source = entry.source
        merged.options = entry.options.overlaid(by: request.options)
        return merged
    }
}

extension ToolRegistry {
    /// tack's built-in registry (Resources/registry.yml, compiled in).
    public static var builtInBytes: [UInt8] { PackageResources.registry_yml }

    /// The built-in registry, then the user's registries under `$TACK_HOME/registries` in name
    /// order; later entries win.
    public static func load(store: Store?, backends: BackendCatalog) throws(TackError) -> ToolRegistry {
        var registry = ToolRegistry(backends: backends)
        try registry.add(builtInBytes, path: "tack's built-in registry")
        guard let store else { return registry }
        for name in userRegistries(store: store) {
            let path = store.root + "/registries/" + name + "/registry.yml"
            guard let bytes = try? store.fs.read(path) else { continue }
            try registry.add(bytes, path: path)
        }
        return registry
    }

    /// The names the built-in and the user's registries give, without reading their entries
    /// (a registry that does not read gives none).
    public static func names(store: Store?) -> Set<String> {
        var files = [builtInBytes]
        if let store {
            for name in userRegistries(store: store) {
                if let bytes = try? store.fs.read(store.root + "/registries/" + name + "/registry.yml") { files.append(bytes) }
            }
        }
        var out: Set<String> = []
        for bytes in files {
            if case .mapping(let pairs, _)?? = try? YAMLParser.parse(bytes) { out.formUnion(pairs.map({ $0.key.value })) }
        }
        return out
    }

    public static func userRegistries(store: Store) -> [String] {
        ((try? store.fs.list(store.root + "/registries")) ?? []).filter { !$0.hasPrefix(".") && ToolName.isValid($0) }
    }
}
