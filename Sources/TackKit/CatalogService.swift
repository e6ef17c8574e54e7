import TackCore

/// The catalogs of tools some backends have (aqua's registry): what a short name no registry
/// of tack's knows is (`tack use terraform`, `tack ls-remote terraform`), and what `tack
/// search` finds.
public struct CatalogService: Sendable {
    public let context: Context

    public init(_ context: Context) { self.context = context }

    /// What a backend's catalog says `tool` is, with the source that pins it; nil when it is
    /// known here already (pinned, or in a registry of tack's), offline, or in no catalog.
    /// Several entries of that name are a question for the user; a catalog that cannot be
    /// read is said and passed over.
    public func lookUp(_ tool: String, workspace: Workspace) async throws(TackError) -> (CatalogEntry, ToolSource)? {
        guard !context.settings.isOffline else { return nil }
        guard case .registry = workspace.request(named: tool, requirement: .latest).source else { return nil }
        for kind in context.settings.backends.kinds {
            guard let backend = workspace.registry.backends[kind.name] else { continue }
            let found: CatalogAnswer?
            do { found = try await backend.catalogEntry(named: tool) } catch {
                context.notify(.line("tack could not look \(tool) up in \(kind.name)'s catalog: \(error.message)"))
                continue
            }
            switch found {
            case nil: continue
            case .entry(let entry)?:
                guard let owner = context.settings.backends.kinds.first(where: { $0.sourceKeys.contains(entry.key) }) else {
                    throw TackError("\(entry.catalog) names \(tool) with `\(entry.key)`, which no backend of this tack reads")
                }
                return (entry, ToolSource(owner, entry.identity))
            case .ambiguous(let candidates)?:
                let shown = candidates.prefix(8).joined(separator: ", ") + (candidates.count > 8 ? ", …" : "")
                throw TackError("\(tool) could be any of \(shown) in \(kind.name)'s catalog — say which: `tack use \(tool)@VERSION --\(kind.sourceKeys.first ?? kind.name) \(candidates.first ?? "")`; nothing was changed")
            }
        }
        return nil
    }

    /// The entries of tack's registry and the user's (`tack registry add`), then every
    /// backend catalog's, with `word` in their name (or description), and the catalogs that
    /// could not be read.
    public func search(_ word: String, workspace: Workspace) async -> (entries: [CatalogEntry], problems: [String]) {
        var entries: [CatalogEntry] = []
        var problems: [String] = []
        let store = context.settings.store
        do {
            let registry = try ToolRegistry.load(store: store, backends: context.settings.backends)
            let userFiles = store.map { s in Set(ToolRegistry.userRegistries(store: s).map { s.root + "/registries/" + $0 + "/registry.yml" }) } ?? []
            for (name, request) in registry.entries where name.lowercased().contains(word.lowercased()) {
                let key = request.source.kind?.sourceKeys.first ?? request.source.backend
                let catalog = userFiles.contains(request.origin.file) ? "your registry \(request.origin.file)" : "tack's registry"
                entries.append(CatalogEntry(name: name, key: key, identity: request.source.identity ?? "", description: catalog, catalog: catalog))
            }
        } catch { problems.append("the registries: \(error.message)") }
        for kind in context.settings.backends.kinds {
            guard let backend = workspace.registry.backends[kind.name] else { continue }
            do { entries += try await backend.searchCatalog(word) } catch { problems.append("\(kind.name)'s catalog: \(error.message)") }
        }
        return (entries, problems)
    }
}
