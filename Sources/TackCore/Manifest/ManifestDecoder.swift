#if !hasFeature(Embedded)
import YAML
#endif

extension Node {
    var isNullScalar: Bool { if case .scalar(let s) = self { return s.isNull } else { return false } }
}

public struct ManifestDecoder {
    let path: String
    let kind: Origin.Kind
    /// The kinds of backend whose source and option keys a tool's mapping may have.
    public let backends: BackendCatalog

    public func fail(_ mark: Mark, _ message: String) -> TackError {
        TackError.at(path, mark.line, mark.column, message)
    }

    public func mapping(_ node: Node, _ what: String) throws(TackError) -> [(key: Scalar, value: Node)] {
        switch node {
        case .mapping(let pairs, _): return pairs
        case .scalar(let s) where s.isNull: return []
        default: throw fail(node.mark, "\(what) must be a mapping, found \(node.kindName)")
        }
    }

    public func string(_ node: Node, _ what: String) throws(TackError) -> String {
        guard case .scalar(let s) = node, !s.isNull else {
            throw fail(node.mark, "\(what) must be a string, found \(node.kindName)")
        }
        return s.value
    }

    /// A string or a list of strings (`products: ink-cli` or `products: [ink-cli]`).
    public func strings(_ node: Node, _ what: String) throws(TackError) -> [String] {
        switch node {
        case .scalar(let s) where !s.isNull: return [s.value]
        case .sequence(let items, _):
            var out: [String] = []
            for item in items { out.append(try string(item, "each entry of \(what)")) }
            return out
        default: throw fail(node.mark, "\(what) must be a string or a list of strings, found \(node.kindName)")
        }
    }

    public func unknownKey(_ key: Scalar, in valid: [String], context: String) -> TackError {
        var message = "unknown key `\(key.value)`\(context)"
        if let near = Suggest.nearest(key.value, in: valid) { message += "; did you mean `\(near)`?" }
        else { message += " (expected one of: \(valid.joined(separator: ", ")))" }
        return fail(key.mark, message)
    }

    mutating func decode(_ root: Node) throws(TackError) -> Manifest {
        guard case .mapping(let pairs, _) = root else {
            throw fail(root.mark, "expected a mapping with `tools:` at the top of the file, found \(root.kindName)")
        }
        var manifest = Manifest(path: path)
        for (key, value) in pairs {
            switch key.value {
            case "tools":
                for (name, entry) in try mapping(value, "`tools`") {
                    let tool = try ToolEntryDecoder(reader: self).decode(name, entry)
                    manifest.tools.append(tool)
                    if case .scalar = entry { manifest.bareEntries.insert(tool.name) }
                }
            case "env":
                for (name, v) in try mapping(value, "`env`") {
                    guard EnvName.isValid(name.value) else {
                        throw fail(name.mark, "`\(name.value)` is not a valid environment variable name (letters, digits and `_`, not starting with a digit)")
                    }
                    if let why = EnvName.reserved(name.value) { throw fail(name.mark, why) }
                    guard case .scalar(let s) = v, !s.isNull || !s.plain else {
                        throw fail(v.mark, "the value of `\(name.value)` must be a string, found \(v.kindName)")
                    }
                    manifest.env.append(.init(name: name.value, value: s.isNull ? "" : s.value, line: name.mark.line))
                }
            case "bootstrap":
                manifest.bootstrap = try decodeBootstrap(value)
            case "cache":
                manifest.cache = try decodeCache(value, key: key)
            case "min_release_age":
                let text = try string(value, "`min_release_age`")
                guard let seconds = ReleaseAge.seconds(text) else {
                    throw fail(value.mark, "`min_release_age` is an age like 3d, 12h, 2w or 90m (0 turns it off), found \(quoted(text))")
                }
                manifest.minReleaseAge = Manifest.AgeSetting(seconds: seconds, text: text, line: key.mark.line)
            case "platforms":
                guard case .sequence(let items, _) = value else {
                    throw fail(value.mark, "`platforms` must be a list like [linux-x86_64, darwin-arm64], found \(value.kindName)")
                }
                for item in items {
                    let text = try string(item, "a platform")
                    guard let p = Platform(key: text) else {
                        throw fail(item.mark, "\(quoted(text)) is not a platform; write OS-ARCH with OS linux or darwin and ARCH x86_64 or arm64 (aarch64), like linux-x86_64")
                    }
                    if !manifest.platforms.contains(p) { manifest.platforms.append(p) }
                }
            case "mirrors":
                manifest.mirrors = try decodeMirrors(value, key: key)
            default:
                throw unknownKey(key, in: Manifest.topLevelKeys, context: " at the top level")
            }
        }
        return manifest
    }

    /// `mirrors: {FROM: TO, ...}`, each side an http(s) URL, in the file's order; read only from
    /// the global manifest: a project's files never redirect where tack downloads from.
    func decodeMirrors(_ node: Node, key: Scalar) throws(TackError) -> [DownloadMirrors.Rule] {
        guard kind == .globalManifest else {
            throw fail(key.mark, "`mirrors` is read only from the global manifest (~/.config/tack/tack.yml), so a project's files cannot redirect where tack downloads from — move it there, or set TACK_MIRRORS")
        }
        var rules: [DownloadMirrors.Rule] = []
        for (from, to) in try mapping(node, "`mirrors`") {
            let target = try string(to, "the mirror of `\(from.value)`")
            guard let rule = DownloadMirrors.Rule(from: from.value, to: target) else {
                throw fail(from.mark, "`mirrors` maps a URL prefix to another, each http:// or https:// (like `https://github.com: https://mirror.corp/github`), found \(quoted(from.value)): \(quoted(target))")
            }
            rules.append(rule)
        }
        return rules
    }

    /// `cache: oci://host/ns`, or `cache: {url: oci://host/ns, push: true, insecure: false}`.
    func decodeCache(_ node: Node, key: Scalar) throws(TackError) -> TeamCache {
        let origin = Origin(kind: kind, file: path, line: key.mark.line, column: key.mark.column)
        func reference(_ node: Node) throws(TackError) -> CacheReference {
            let text = try string(node, "`cache.url`")
            guard let r = CacheReference(text) else {
                throw fail(node.mark, "\(quoted(text)) is not a team cache; write it `oci://HOST/NAMESPACE`, for example `oci://ghcr.io/acme/tack-cache`")
            }
            return r
        }
        if case .scalar = node { return TeamCache(reference: try reference(node), origin: origin) }
        var url: CacheReference?
        var push = false
        var insecure = false
        for (k, v) in try mapping(node, "`cache`") {
            switch k.value {
            case "url": url = try reference(v)
            case "push": push = try bool(v, "`cache.push`")
            case "insecure": insecure = try bool(v, "`cache.insecure`")
            default: throw unknownKey(k, in: TeamCache.keys, context: " in `cache`")
            }
        }
        guard let url else { throw fail(node.mark, "`cache` needs a `url:`, like `url: oci://ghcr.io/acme/tack-cache`") }
        return TeamCache(reference: url, push: push, insecure: insecure, origin: origin)
    }

    public func bool(_ node: Node, _ what: String) throws(TackError) -> Bool {
        guard case .scalar(let s) = node, s.plain else { throw fail(node.mark, "\(what) must be true or false, found \(node.kindName)") }
        switch s.value.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw fail(node.mark, "\(what) must be true or false, found \(quoted(s.value))")
        }
    }

    /// Options that belong to one backend are errors on another.
    public func url(_ node: Node, _ what: String) throws(TackError) -> String {
        let text = try string(node, what)
        // Printable ASCII without a space, as nearly every URL is, is decided byte by byte.
        if text.isEmpty || !text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) && text.contains(where: { $0.isWhitespace || $0.isControl }) {
            throw fail(node.mark, "\(what) must be a URL or path without spaces, found \(quoted(text))")
        }
        return text
    }

    /// A url tool's download: an `https://`, `http://` or `file://` URL (a template with
    /// `{version}`, `{os}`, `{arch}`).
    public func downloadURL(_ node: Node, _ what: String) throws(TackError) -> String {
        let text = try url(node, what)
        let lower = text.lowercased()
        guard ["https://", "http://", "file://"].contains(where: { lower.hasPrefix($0) && lower.count > $0.count }) else {
            throw fail(node.mark, "\(what) must be an https://, http:// or file:// URL, found \(quoted(text))")
        }
        return text
    }

    public func checksum(_ node: Node, _ what: String) throws(TackError) -> String {
        let text = try string(node, what)
        guard Checksum.isSHA256(text) else {
            throw fail(node.mark, "\(what) must be a SHA-256 checksum (64 hexadecimal digits), found \(quoted(text))")
        }
        return text.lowercased()
    }

    /// `bin:` entries: paths inside the install (relative, no `..`), each optionally
    /// `=name` for the command it installs as.
    public func binPaths(_ node: Node) throws(TackError) -> [String] {
        let list = try strings(node, "`bin`")
        for (i, spec) in list.enumerated() {
            let mark: Mark = { if case .sequence(let items, _) = node, i < items.count { return items[i].mark }; return node.mark }()
            try checkBin(spec, at: mark)
        }
        return list
    }

    public func checkBin(_ spec: String, at mark: Mark) throws(TackError) {
        let (path, name) = BinSpec.split(spec)
        guard BinSpec.isSafeRelativePath(path) else {
            throw fail(mark, "`bin` paths name files inside the install, like `bin/tool` (relative, without `..`), found \(quoted(spec))")
        }
        guard ToolName.isValidBinaryName(name) else {
            throw fail(mark, "\(quoted(name)) (in `bin: \(spec)`) is not a valid command name")
        }
    }

    public func packageName(_ node: Node, _ what: String) throws(TackError) -> String {
        let text = try string(node, what)
        let ok = !text.isEmpty && !text.hasPrefix("-") && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-[],".contains($0)) }
        guard ok else { throw fail(node.mark, "\(what) must be a package name, found \(quoted(text))") }
        return text
    }

    func decodeBootstrap(_ node: Node) throws(TackError) -> Manifest.Bootstrap {
        var b = Manifest.Bootstrap()
        for (k, v) in try mapping(node, "`bootstrap`") {
            switch k.value {
            case "packages":
                for (manager, list) in try mapping(v, "`bootstrap.packages`") {
                    guard Manifest.packageManagers.contains(manager.value) else {
                        throw unknownKey(manager, in: Manifest.packageManagers, context: " in `bootstrap.packages`")
                    }
                    let names = try strings(list, "`bootstrap.packages.\(manager.value)`")
                    for (i, p) in names.enumerated() where !SystemPackageName.isValid(p) {
                        let mark: Mark = { if case .sequence(let items, _) = list { return items[i].mark }; return list.mark }()
                        throw fail(mark, "\(quoted(p)) is not a valid package name")
                    }
                    b.packages[manager.value] = names
                }
            case "run":
                b.run = try strings(v, "`bootstrap.run`")
            default:
                throw unknownKey(k, in: ["packages", "run"], context: " in `bootstrap`")
            }
        }
        return b
    }
}

/// A string in double quotes with JSON escapes: valid JSON, valid YAML, and unambiguous in an
/// error message (control characters show as `\u0007`).
public func quoted(_ s: String) -> String {
    if quotesAsItIs(s) { return "\"" + s + "\"" }
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if c.value < 0x20 || (c.value >= 0x7F && c.value < 0xA0) || c.value == 0xFEFF {
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(c)
            }
        }
    }
    return out + "\""
}

/// Printable ASCII without a quote or backslash, the common case: `quoted` writes it between
/// the quotes as it is.
func quotesAsItIs(_ s: String) -> Bool {
    s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
}
