extension CompatibleFile {
    /// mise's `mise.toml` (and `.mise.toml`, `mise.local.toml`, `.config/mise.toml`): its
    /// `[tools]`, as mise reads them. `tool = "1.2"`, `tool = ["1.2", "1.1"]` (the first),
    /// `tool = { version = "1.2", … }`; backend prefixes: `aqua:` (tack's aqua), `github:` and
    /// `ubi:` (a GitHub release), `spm:` (a Swift package from GitHub), `pipx:` (pip), `gem:`,
    /// `core:` and none (tack's registry names: node, python, ruby, go…). `latest` and
    /// `prefix:1.2` as mise reads them. Other backends, `path:`/`ref:` versions, and mise's
    /// `[env]`, `[tasks]`, hooks and settings are not tack's: each is said, once, and skipped.
    func parseMiseTOML(_ text: String, _ path: String, backends: BackendCatalog) throws(TackError) -> Reading {
        var reading = Reading()
        let document: TOMLDocument
        do { document = try TOMLDocument(text) } catch { throw TackError.at(path, error.line, error.column, error.message) }
        let ignored = document.root.map({ $0.key }).filter { $0 != "tools" && $0 != "min_version" }
        if !ignored.isEmpty {
            let line = document.root.first { ignored.contains($0.key) }?.line ?? 1
            reading.skipped.append(TackError.at(path, line, nil, "mise's \(ignored.map { "[\($0)]" }.joined(separator: ", ")) \(ignored.count == 1 ? "is" : "are") not tack's and \(ignored.count == 1 ? "is" : "are") ignored; tack reads [tools]"))
        }
        guard let tools = document.table(at: ["tools"]) else { return reading }
        var seen: [String: Int] = [:]
        for entry in tools {
            let (line, column) = (entry.line, entry.column)
            var version: String?
            switch entry.value {
            case .string(let s), .scalar(let s): version = s
            case .array(let items):
                if case .string(let s)? = items.first { version = s } else if case .table(let t)? = items.first, case .string(let s)? = t.first(where: { $0.key == "version" })?.value { version = s }
            case .table(let t):
                if case .string(let s)? = t.first(where: { $0.key == "version" })?.value { version = s }
            }
            guard let written = version else {
                reading.skipped.append(TackError.at(path, line, column, "\(entry.key) has no version tack can read; skipped"))
                continue
            }
            let (backend, id) = Self.miseBackend(entry.key)
            let source: ToolSource
            var name: String
            switch backend {
            case nil, "core":
                name = Self.asdfAliases[id] ?? id
                source = .registry
            case "aqua":
                guard let aqua = backends.kind(sourceKey: "aqua") else { reading.skipped.append(TackError.at(path, line, column, "this tack has no aqua backend; \(entry.key) is skipped")); continue }
                name = String(id.split(separator: "/").last ?? "")
                source = ToolSource(aqua, id)
            case "github", "ubi":
                guard let release = backends.kind(sourceKey: "release"), GitHub.isValidRepository(id) else {
                    reading.skipped.append(TackError.at(path, line, column, "\(entry.key) is not a GitHub repository tack can install releases of; skipped"))
                    continue
                }
                name = String(id.split(separator: "/").last ?? "")
                source = ToolSource(release, id)
            case "spm":
                guard let git = backends.kind(sourceKey: "git"), GitHub.isValidRepository(id) else {
                    reading.skipped.append(TackError.at(path, line, column, "\(entry.key) is not a Swift package on GitHub tack can build; skipped"))
                    continue
                }
                name = String(id.split(separator: "/").last ?? "")
                source = ToolSource(git, GitHub.url(id))
            case "pipx", "gem":
                guard let kind = backends.kind(sourceKey: backend == "pipx" ? "pip" : "gem") else { continue }
                name = String(id.split(separator: "/").last ?? "")
                source = ToolSource(kind, id)
            case let other?:
                reading.skipped.append(TackError.at(path, line, column, "mise's \(other): backend is not one tack has; \(entry.key) is skipped"))
                continue
            }
            name = name.lowercased()
            guard ToolName.isValid(name) else {
                reading.skipped.append(TackError.at(path, line, column, "\(entry.key): \(ToolName.problem(name)); skipped"))
                continue
            }
            let requirement: Requirement
            do { requirement = try Self.miseRequirement(written, tool: name) } catch {
                reading.skipped.append(TackError.at(path, line, column, "\(entry.key) = \(quoted(written)): \(error); skipped"))
                continue
            }
            if let first = seen[name] {
                throw TackError.at(path, line, column, "\(entry.key) and the tool on line \(first) are both named `\(name)`; pin one of them in tack.yml under another name")
            }
            seen[name] = line
            reading.pins.append(ToolRequest(name: name, requirement: requirement, source: source, origin: origin(path, line, column)))
        }
        return reading
    }

    /// `aqua:cli/cli` → (`aqua`, `cli/cli`); `node` → (nil, `node`); mise's bracketed options
    /// (`ubi:owner/repo[exe=x]`) are dropped.
    static func miseBackend(_ key: String) -> (String?, String) {
        var id = Substring(key)
        if let bracket = id.firstIndex(of: "[") { id = id[..<bracket] }
        guard let colon = id.firstIndex(of: ":") else { return (nil, String(id)) }
        return (String(id[..<colon]), String(id[id.index(after: colon)...]))
    }

    /// A mise version: `latest`, `prefix:1.2`, or a version or prefix (`20`, `3.12.1`), which
    /// mise matches as the newest version starting with it.
    static func miseRequirement(_ text: String, tool: String) throws(Requirement.ParseError) -> Requirement {
        if text.hasPrefix("prefix:") { return try requirement(String(text.dropFirst("prefix:".count)), tool: tool) }
        if text.hasPrefix("ref:") || text.hasPrefix("path:") || text.hasPrefix("sub-") {
            throw .invalid("mise's \(text.split(separator: ":").first ?? "")-versions are not read")
        }
        return try requirement(text, tool: tool)
    }
}
