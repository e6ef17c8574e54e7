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

    /// The component of one lock entry, locked from `request`.
    public static func component(_ entry: LockedTool, request: ToolRequest?) -> Component {
        let v = entry.version.text
        var c = Component(name: entry.name, version: v, backend: entry.backend, source: entry.source,
                          purl: PackageURL.generic(entry.name, v), verification: Verification.of(entry, request: request))
        let sums = entry.fieldMap("sha256").sorted { $0.key < $1.key }
        switch entry.kind {
        case .git?:
            let commit: String? = if case .string(let s)? = entry.fields["commit"] { s } else { nil }
            if let repo = GitHub.repository(ofGitURL: entry.source) {
                let tag: String = if case .string(let t)? = entry.fields["tag"] { t } else { v }
                c.purl = PackageURL.github(repo, tag)
            } else {
                c.purl = PackageURL.generic(entry.name, v, qualifiers: [("vcs_url", "git+" + URLRedaction.text(entry.source) + (commit.map { "@" + $0 } ?? ""))])
            }
            c.location = entry.source
            c.isRepository = true
            if case .map(let prebuilt)? = entry.fields["prebuilt"], let sum = prebuilt["sha256"] {
                c.hashes = [Hash(of: prebuilt["url"].map(Paths.basename) ?? "bundle", sha256: sum)]
                c.location = prebuilt["url"] ?? c.location
                c.isRepository = prebuilt["url"] == nil
            }
        case .url?:
            c.hashes = sums.map { Hash(of: $0.key, sha256: $0.value) }
            // One platform's URL (this machine's, else the first the lock covers), rendered.
            let platform = sums.first { $0.key == Platform.current.description }.map(\.key) ?? sums.first?.key
            var extra: [String: String] = [:]
            if case .string(let build)? = entry.fields["build"] { extra["build"] = build }
            let url = platform.flatMap(Platform.init(key:)).map { $0.render(entry.source, version: v, extra: extra) } ?? entry.source
            c.location = url
            c.purl = PackageURL.generic(entry.name, v, qualifiers: [("download_url", URLRedaction.text(url))])
        case .swift?:
            c.hashes = sums.map { Hash(of: $0.key, sha256: $0.value) }
            c.location = entry.source
            let paths = entry.fieldMap(SwiftSDK.lockPath)
            for (name, sum) in entry.fieldMap(SwiftSDK.lockSHA256).sorted(by: { $0.key < $1.key }) {
                var sdk = Component(name: "swift-sdk-\(name)", version: v, backend: entry.backend, source: paths[name] ?? entry.source,
                                    purl: PackageURL.generic("swift-sdk-\(name)", v), verification: Verification(.signature, "swift.org's OpenPGP signature"))
                sdk.hashes = [Hash(of: name, sha256: sum)]
                c.parts.append(sdk)
            }
        case .pip?:
            c.purl = PackageURL.pypi(entry.source, v)
            let hashes = entry.fieldMap("hashes")
            c.parts = parts(entry.fieldMap("packages"), of: c, purl: PackageURL.pypi) { name, _ in
                (hashes[name] ?? "").split(separator: " ").compactMap { h in
                    let hex = h.hasPrefix("sha256:") ? String(h.dropFirst(7)) : String(h)
                    return Checksum.isSHA256(hex) ? Hash(of: name, sha256: hex.lowercased()) : nil
                }
            }
        case .gem?:
            c.purl = PackageURL.gem(entry.source, v)
            let files = entry.fieldMap("sha256")
            c.parts = parts(entry.fieldMap("gems"), of: c, purl: PackageURL.gem) { name, version in
                files["\(name)-\(version).gem"].map { [Hash(of: "\(name)-\(version).gem", sha256: $0)] } ?? []
            }
        case .asdf?, nil:
            c.location = entry.source
        }
        return c
    }

    /// What a tool was installed with (versions by name), each a component verified as the
    /// tool was, with the hashes `hashes` finds for it.
    static func parts(_ versions: [String: String], of tool: Component, purl: (String, String) -> String,
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
