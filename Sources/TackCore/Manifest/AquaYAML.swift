#if !hasFeature(Embedded)
import YAML
#endif

extension CompatibleFile {
    /// aqua's `aqua.yaml`: each of `packages:` (`name: cli/cli@v2.62.0`, or `name:` and
    /// `version:`) of the standard registry is a pin of aqua's registry package, named after
    /// the package's last part (`cli`, `terraform`), at exactly that release. Packages of
    /// other registries (`registry:` naming a local or GitHub one) and `import:` entries are
    /// skipped, each said.
    func parseAquaYAML(_ bytes: [UInt8], _ path: String, backends: BackendCatalog) throws(TackError) -> Reading {
        var reading = Reading()
        guard let aqua = backends.kind(sourceKey: "aqua") else {
            throw TackError.at(path, 1, nil, "this tack has no backend for aqua's registry, which aqua.yaml names")
        }
        let root: Node?
        do { root = try YAMLParser.parse(bytes, aliases: true) } catch { throw TackError.at(path, error.mark.line, error.mark.column, error.message) }
        guard let root else { return reading }
        guard case .mapping(let top, _) = root else { throw TackError.at(path, root.mark.line, root.mark.column, "aqua.yaml is a mapping with `packages:`") }
        var standard: Set<String> = ["standard"]
        /// Local registries by name: their files, beside aqua.yaml.
        var local: [String: (path: String, mark: Mark)] = [:]
        if case .sequence(let registries, _)? = top.first(where: { $0.key.value == "registries" })?.value {
            standard = []
            for case .mapping(let pairs, let mark) in registries {
                let field = { (key: String) -> String? in if case .scalar(let s)? = pairs.first(where: { $0.key.value == key })?.value { return s.value } else { return nil } }
                let name = field("name") ?? field("type") ?? ""
                if field("type") == "standard" { standard.insert(name) } else if field("type") == "local", let file = field("path") {
                    local[name] = (file, mark)
                } else {
                    reading.skipped.append(TackError.at(path, mark.line, mark.column, "the registry \(quoted(name)) (\(field("type") ?? "no type")) is not one tack reads; its packages are skipped"))
                }
            }
        }
        let reader = ManifestDecoder(path: path, kind: .aquaYAML, backends: backends)
        guard case .sequence(let packages, _)? = top.first(where: { $0.key.value == "packages" })?.value else { return reading }
        var seen: [String: Int] = [:]
        for case .mapping(let pairs, let mark) in packages {
            let field = { (key: String) -> String? in if case .scalar(let s)? = pairs.first(where: { $0.key.value == key })?.value { return s.value } else { return nil } }
            let (line, column) = (mark.line, mark.column)
            if field("import") != nil {
                reading.skipped.append(TackError.at(path, line, column, "`import:` is not read; pin those packages here or in tack.yml"))
                continue
            }
            guard let written = field("name") else { throw TackError.at(path, line, column, "a package needs `name:`, like `name: cli/cli@v2.62.0`") }
            let registryName = field("registry") ?? "standard"
            var options = ToolOptions()
            if let file = local[registryName] {
                // A registry file of the project's own: an option of the pin (which needs trust).
                try aqua.options.decode(Scalar(value: "registry", plain: true, mark: file.mark), .scalar(Scalar(value: file.path, plain: true, mark: file.mark)), reader, into: &options)
            } else if !standard.contains(registryName) {
                reading.skipped.append(TackError.at(path, line, column, "\(written) is from the registry \(quoted(registryName)), which tack does not read"))
                continue
            }
            let parts = written.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let package = parts[0]
            let version = field("version") ?? (parts.count == 2 ? parts[1] : nil)
            let tool = String(package.split(separator: "/").last ?? "").lowercased()
            guard !package.isEmpty, ToolName.isValid(tool) else { throw TackError.at(path, line, column, "\(quoted(written)) is not an aqua package name, like `cli/cli`") }
            guard let text = version, !text.isEmpty else {
                throw TackError.at(path, line, column, "\(package) has no version; aqua.yaml pins each package at a release, like `\(package)@v1.2.3`")
            }
            guard let v = Version(tag: text) else {
                throw TackError.at(path, line, column, "\(quoted(text)) is not a release tag tack can read a version from")
            }
            if let first = seen[tool] {
                throw TackError.at(path, line, column, "\(package) and the package on line \(first) are both named `\(tool)`; tack names aqua.yaml's tools after the package's last part, so pin one of them in tack.yml under another name")
            }
            seen[tool] = line
            reading.pins.append(ToolRequest(name: tool, requirement: .prefix(v), source: ToolSource(aqua, package), options: options, origin: origin(path, line, column)))
        }
        return reading
    }
}
