/// What a project runs, as `tack sbom` writes it: every pinned tool with its version, source,
/// package URL (`pkg:github/…`, `pkg:pypi/…`, `pkg:gem/…`, `pkg:generic/…`), the SHA-256s
/// tack.lock records (per platform, per file, per SDK), what it was installed with (a pip
/// tool's distributions, a gem's gems), and where the trust in each comes from
/// (`Verification`). Made from the lock alone: no network, no install needed.
public struct BillOfMaterials: Sendable {
    public struct Hash: Sendable, Equatable {
        /// What the hash is of: a platform (`linux-x86_64`), a file (`rake-13.2.1.gem`), an SDK.
        public var of: String
        public var sha256: String

        public init(of: String, sha256: String) {
            self.of = of
            self.sha256 = sha256
        }
    }

    public struct Component: Sendable {
        public var name: String
        public var version: String
        /// The backend (`git`, `url`, `pip`, `gem`, `asdf`, `swift`) and its source, as tack.lock records them.
        public var backend: String
        public var source: String
        public var purl: String
        public var hashes: [Hash] = []
        public var verification: Verification
        /// Where it is downloaded from (one platform's URL), or its repository (`vcs`).
        public var location: String?
        public var isRepository = false
        /// What it was installed with, or beside (a toolchain's SDKs): each a component of its own.
        public var parts: [Component] = []

        public init(name: String, version: String, backend: String, source: String, purl: String, verification: Verification) {
            (self.name, self.version, self.backend, self.source, self.purl, self.verification) = (name, version, backend, source, purl, verification)
        }
    }

    public var project: String
    public var components: [Component]
    public var tackVersion: String
    /// When it was made, ISO 8601 in UTC (`SOURCE_DATE_EPOCH` fixes it, for reproducible output).
    public var timestamp: String

    public init(project: String, components: [Component], tackVersion: String, timestamp: String) {
        self.project = project
        self.components = components
        self.tackVersion = tackVersion
        self.timestamp = timestamp
    }

    /// The component of one lock entry, locked from `request`: its kind fills in what it
    /// knows (`BackendKind.describe`).
    public static func component(_ entry: LockedTool, request: ToolRequest?, backends: BackendCatalog) -> Component {
        let v = entry.version.text
        var c = Component(name: entry.name, version: v, backend: entry.backend, source: entry.source,
                          purl: PackageURL.generic(entry.name, v), verification: Verification.of(entry, request: request, backends: backends))
        if let kind = backends.kind(of: entry) { kind.describe(entry, in: &c) } else { c.location = entry.source }
        return c
    }

    /// What a tool was installed with (versions by name), each a component verified as the
    /// tool was, with the hashes `hashes` finds for it.
    public static func parts(_ versions: [String: String], of tool: Component, purl: (String, String) -> String,
                      hashes: (String, String) -> [Hash]) -> [Component] {
        versions.sorted { $0.key < $1.key }.map { name, version in
            var part = Component(name: name, version: version, backend: tool.backend, source: name, purl: purl(name, version),
                                 verification: tool.verification)
            part.hashes = hashes(name, version)
            return part
        }
    }

    /// A serial number that is the same for the same content: a UUID made from the SHA-256 of
    /// every component's purl and hashes.
    public var serialNumber: String {
        var text = project + "\n"
        func add(_ c: Component) {
            text += c.purl + "\n" + c.hashes.map { "\($0.of)=\($0.sha256)" }.joined(separator: ",") + "\n"
            c.parts.forEach(add)
        }
        components.forEach(add)
        let hex = Array(SHA256Digest.hex(Array(text.utf8)).utf8.prefix(32))
        var chars = hex.map { Character(UnicodeScalar($0)) }
        chars[12] = "5"  // a name-based UUID
        chars[16] = ["8", "9", "a", "b"][Int(String(chars[16]), radix: 16).map { $0 & 3 } ?? 0]
        let s = String(chars)
        func part(_ a: Int, _ b: Int) -> Substring { s.dropFirst(a).prefix(b - a) }
        return "urn:uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}

/// Package URLs (the purl specification): `pkg:TYPE/NAMESPACE/NAME@VERSION?QUALIFIERS`, each
/// part percent-encoded.
public enum PackageURL {
    public static func github(_ repository: String, _ version: String) -> String {
        let parts = repository.lowercased().split(separator: "/")
        return "pkg:github/" + parts.map { encode(String($0)) }.joined(separator: "/") + "@" + encode(version)
    }

    /// PyPI names are lowercased, `_` written `-`.
    public static func pypi(_ name: String, _ version: String) -> String {
        "pkg:pypi/" + encode(name.lowercased().replacingAll("_", with: "-")) + "@" + encode(version)
    }

    public static func gem(_ name: String, _ version: String) -> String { "pkg:gem/" + encode(name) + "@" + encode(version) }

    public static func generic(_ name: String, _ version: String, qualifiers: [(String, String)] = []) -> String {
        var out = "pkg:generic/" + encode(name) + "@" + encode(version)
        if !qualifiers.isEmpty { out += "?" + qualifiers.map { $0.0 + "=" + encode($0.1) }.joined(separator: "&") }
        return out
    }

    /// Everything but letters, digits and `.-_~` percent-encoded.
    static func encode(_ s: String) -> String {
        var out = ""
        for byte in s.utf8 {
            let c = Character(UnicodeScalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || ".-_~".contains(c) { out.append(c) } else {
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
            }
        }
        return out
    }
}

extension String {
    /// This string with every `target` replaced (Foundation-free).
    func replacingAll(_ target: Character, with replacement: Character) -> String { String(map { $0 == target ? replacement : $0 }) }
}
