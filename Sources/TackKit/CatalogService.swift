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

    /// Every catalog's entries with `word` in their name or description, and the catalogs
    /// that could not be read.
    public func search(_ word: String, workspace: Workspace) async -> (entries: [CatalogEntry], problems: [String]) {
        var entries: [CatalogEntry] = []
        var problems: [String] = []
        for kind in context.settings.backends.kinds {
            guard let backend = workspace.registry.backends[kind.name] else { continue }
            do { entries += try await backend.searchCatalog(word) } catch { problems.append("\(kind.name)'s catalog: \(error.message)") }
        }
        return (entries, problems)
    }
}
