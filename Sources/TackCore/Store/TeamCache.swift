/// The team cache: an OCI registry repository where finished builds are shared
/// (`cache: {url: oci://ghcr.io/acme/tack-cache, push: true}`). Where it comes from, most
/// binding first: `TACK_CACHE` (with `TACK_CACHE_PUSH`), the nearest project manifest that names
/// one (only once that file is trusted), the global manifest.
public struct TeamCache: Sendable, Equatable {
    public var reference: CacheReference
    /// Upload what this machine builds (CI); laptops usually only pull.
    public var push: Bool
    /// Plain HTTP to a registry that is not on a loopback address.
    public var insecure: Bool
    public var origin: Origin

    public init(reference: CacheReference, push: Bool = false, insecure: Bool = false, origin: Origin) {
        self.reference = reference
        self.push = push
        self.insecure = insecure
        self.origin = origin
    }

    /// `http` for a loopback registry or an `insecure: true` one, else `https`.
    public var scheme: String { insecure || reference.isLoopback ? "http" : "https" }

    public static let keys = ["url", "push", "insecure"]

    /// The cache in force, or nil when none is named (or `TACK_CACHE=off`). A project file's
    /// cache that is not trusted is not used; `untrusted` says which file asked.
    public static func select(settings: Settings, manifests: [Manifest], isTrusted: (String) -> Bool) throws(TackError) -> Selection {
        var selection = Selection()
        if let env = settings.environment["TACK_CACHE"], !env.isEmpty {
            if ["off", "none", "0", "false"].contains(env.lowercased()) { return selection }
            let origin = Origin(kind: .environment, file: "TACK_CACHE", line: 0, column: 0)
            guard let reference = CacheReference(env) else { throw TackError(CacheReference.problem(env, origin: "TACK_CACHE")) }
            let flag = settings.environment["TACK_CACHE_PUSH"]?.lowercased() ?? ""
            selection.cache = TeamCache(reference: reference, push: ["1", "true", "yes"].contains(flag),
                                        insecure: ["1", "true", "yes"].contains(settings.environment["TACK_CACHE_INSECURE"]?.lowercased() ?? ""), origin: origin)
            return selection
        }
        // Nearest first: the project's files, then the global manifest.
        for manifest in manifests {
            guard let cache = manifest.cache else { continue }
            if cache.origin.kind != .globalManifest, !isTrusted(manifest.path) {
                if selection.untrusted == nil { selection.untrusted = cache }
                continue
            }
            selection.cache = cache
            return selection
        }
        return selection
    }

    public struct Selection: Sendable {
        public var cache: TeamCache?
        /// A cache a project file names that is not trusted (and so not used).
        public var untrusted: TeamCache?
        public init(cache: TeamCache? = nil, untrusted: TeamCache? = nil) {
            self.cache = cache
            self.untrusted = untrusted
        }
    }
}

/// `oci://HOST[:PORT]/NAMESPACE[/…]`: a registry and the repository namespace builds go under
/// (one repository per tool: `NAMESPACE/TOOL`).
public struct CacheReference: Sendable, Equatable, CustomStringConvertible {
    /// `ghcr.io`, `localhost:5000`.
    public var registry: String
    /// `acme/tack-cache`: lowercase path components, as the OCI distribution spec allows.
    public var namespace: String

    public init?(_ text: String) {
        guard text.hasPrefix("oci://") else { return nil }
        let rest = text.dropFirst("oci://".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let host = String(rest[..<slash])
        var path = String(rest[rest.index(after: slash)...])
        while path.hasSuffix("/") { path.removeLast() }
        guard CacheReference.isValidHost(host), !path.isEmpty,
              path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ CacheReference.isValidComponent(String($0)) }) else { return nil }
        self.registry = host
        self.namespace = path
    }

    public var description: String { "oci://\(registry)/\(namespace)" }

    static func problem(_ text: String, origin: String) -> String {
        "\(quoted(text)) (\(origin)) is not a team cache; write it `oci://HOST/NAMESPACE`, for example `oci://ghcr.io/acme/tack-cache`"
    }

    /// The host without its port (`[::1]` → `::1`).
    public var host: String { CacheReference.hostName(of: registry) }

    /// `HOST[:PORT]` without the port, and an IPv6 address without its brackets.
    public static func hostName(of registry: String) -> String {
        if registry.hasPrefix("["), let close = registry.firstIndex(of: "]") {
            return String(registry[registry.index(after: registry.startIndex)..<close])
        }
        return String(registry.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// localhost, 127.0.0.0/8, ::1: where plain HTTP is allowed, as Docker allows it.
    public var isLoopback: Bool { CacheReference.isLoopback(host: host) }

    /// Whether a host name (without port or brackets) is this machine.
    public static func isLoopback(host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The repository a tool's builds go to: `NAMESPACE/TOOL` (tool names are already valid
    /// repository components, except for a leading or doubled separator, which are folded).
    public func repository(for tool: String) -> String {
        var component = ""
        for c in tool {
            let isSeparator = c == "." || c == "_" || c == "-"
            if isSeparator, component.isEmpty || component.last.map({ $0 == "." || $0 == "_" || $0 == "-" }) == true { continue }
            component.append(c)
        }
        while let last = component.last, last == "." || last == "_" || last == "-" { component.removeLast() }
        return namespace + "/" + (component.isEmpty ? "tool" : component)
    }

    /// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`.
    static func isValidComponent(_ s: String) -> Bool {
        guard let first = s.first, let last = s.last, isAlnum(first), isAlnum(last) else { return false }
        var previous: Character = first
        var underscores = 0
        for c in s.dropFirst() {
            if isAlnum(c) { underscores = 0; previous = c; continue }
            switch c {
            case ".": guard isAlnum(previous) else { return false }
            case "_":
                underscores += 1
                guard underscores <= 2, isAlnum(previous) || previous == "_" else { return false }
            case "-": guard isAlnum(previous) || previous == "-" else { return false }
            default: return false
            }
            previous = c
        }
        return true
    }

    static func isAlnum(_ c: Character) -> Bool { ("a"..."z").contains(c) || ("0"..."9").contains(c) }

    static func isValidHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.count <= 255 else { return false }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let inside = host[host.index(after: host.startIndex)..<close]
            let after = host[host.index(after: close)...]
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" }) else { return false }
            return after.isEmpty || (after.hasPrefix(":") && UInt16(after.dropFirst()) != nil)
        }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return false }
        if parts.count == 2, UInt16(parts[1]) == nil { return false }
        return parts[0].allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "." || $0 == "-" }
    }
}
