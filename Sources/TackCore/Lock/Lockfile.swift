#if !hasFeature(Embedded)
import YAML
#endif

/// `tack.lock`: the exact versions and source identities a project installs.
///
/// The writer is deterministic: the same lock gives the same bytes (keys sorted at every level,
/// every value double-quoted, one layout), so diffs in review show only what changed.
public struct Lockfile: Sendable, Equatable {
    /// The schema this tack writes and reads. A lock with a newer one is refused, not guessed at.
    public static let schemaVersion = 1
    public static let fileName = "tack.lock"

    public var tools: [String: LockedTool]
    /// The platforms whose downloads the lock has checksums for (`linux-x86_64`, …), sorted;
    /// empty in a lock written before tack recorded them.
    public var platforms: [String] = []

    public init(tools: [String: LockedTool] = [:], platforms: [String] = []) {
        self.tools = tools
        self.platforms = platforms
    }

    // MARK: Writing

    public func serialized() -> [UInt8] {
        var out = "# tack.lock: written by tack from tack.yml. Commit it; do not edit it by hand.\n"
        out += "# `tack lock` resolves it again, `tack update` moves to the newest allowed versions.\n"
        out += "version: \(Lockfile.schemaVersion)\n"
        if !platforms.isEmpty { out += "platforms: [" + platforms.sorted().map(LockWriter.quote).joined(separator: ", ") + "]\n" }
        if tools.isEmpty {
            out += "tools: {}\n"
            return Array(out.utf8)
        }
        out += "tools:\n"
        for name in tools.keys.sorted() {
            let tool = tools[name]!
            out += "  \(LockWriter.key(name)):\n"
            var entries = tool.fields
            entries["backend"] = .string(tool.backend)
            entries["requested"] = .string(tool.requested)
            entries["source"] = .string(tool.source)
            entries["version"] = .string(tool.version.text)
            for key in entries.keys.sorted() {
                switch entries[key]! {
                case .string(let s): out += LockWriter.pair("    ", key, " " + LockWriter.quote(s))
                case .list(let items): out += LockWriter.pair("    ", key, " [" + items.map(LockWriter.quote).joined(separator: ", ") + "]")
                case .map(let m):
                    if m.isEmpty { out += LockWriter.pair("    ", key, " {}"); continue }
                    out += LockWriter.pair("    ", key, "")
                    for k in m.keys.sorted() { out += LockWriter.pair("      ", k, " " + LockWriter.quote(m[k]!)) }
                }
            }
        }
        return Array(out.utf8)
    }

    // MARK: Reading

    public static func load(_ path: String, fs: any FileSystem, backends: BackendCatalog) throws(TackError) -> Lockfile {
        let bytes: [UInt8]
        do { bytes = try fs.read(path) } catch { throw TackError(error.description) }
        return try parse(bytes, path: path, backends: backends)
    }

    /// `backends` says which fields each kind's entries may have, and how some must look.
    public static func parse(_ bytes: [UInt8], path: String, backends: BackendCatalog) throws(TackError) -> Lockfile {
        func fail(_ m: Mark, _ message: String) -> TackError { TackError.at(path, m.line, m.column, message) }
        let root: Node?
        do { root = try YAMLParser.parse(bytes) } catch { throw fail(error.mark, error.message) }
        guard let root, case .mapping(let top, let topMark) = root else {
            throw fail(root?.mark ?? Mark(line: 1, column: 1), "tack.lock is empty or damaged; run `tack lock` to write it again")
        }
        guard let versionNode = top.first(where: { $0.key.value == "version" }) else {
            throw fail(topMark, "tack.lock has no `version:`; run `tack lock` to write it again")
        }
        guard case .scalar(let v) = versionNode.value, let schema = Int(v.value), schema >= 1 else {
            throw fail(versionNode.value.mark, "`version` must be a whole number")
        }
        guard schema <= schemaVersion else {
            throw fail(versionNode.value.mark, "tack.lock uses format \(schema), but this tack reads format \(schemaVersion) at most; upgrade tack")
        }
        var lock = Lockfile()
        for (key, value) in top {
            switch key.value {
            case "version": continue
            case "platforms":
                guard case .sequence(let items, _) = value else { throw fail(value.mark, "`platforms` must be a list of platforms") }
                for item in items {
                    guard case .scalar(let s) = item, Platform.isValidKey(s.value) else {
                        throw fail(item.mark, "an entry of `platforms` is not a platform like `linux-x86_64`")
                    }
                    lock.platforms.append(s.value)
                }
                lock.platforms.sort()
            case "tools":
                let entries: [(key: Scalar, value: Node)]
                switch value {
                case .mapping(let pairs, _): entries = pairs
                default: throw fail(value.mark, "`tools` must be a mapping, found \(value.kindName)")
                }
                for (name, entry) in entries {
                    guard ToolName.isValid(name.value) else { throw fail(name.mark, ToolName.problem(name.value)) }
                    lock.tools[name.value] = try parseTool(name, entry, backends, fail)
                }
            default:
                throw fail(key.mark, "unknown key `\(key.value)` in tack.lock")
            }
        }
        return lock
    }

    static func parseTool(_ name: Scalar, _ node: Node, _ backends: BackendCatalog, _ fail: (Mark, String) -> TackError) throws(TackError) -> LockedTool {
        guard case .mapping(let pairs, let mark) = node else {
            throw fail(node.mark, "the entry for \(name.value) must be a mapping, found \(node.kindName)")
        }
        var fields: [String: LockValue] = Dictionary(minimumCapacity: pairs.count)
        for (k, v) in pairs { fields[k.value] = try value(k, v, fail) }
        // Where a key and its value were written, looked up only for an error (an entry is
        // read for every pinned tool on every resolution; two more dictionaries of marks each
        // time cost as much as the rest).
        var marks: [String: Mark] {
            var out: [String: Mark] = [:]
            for (k, v) in pairs { out[k.value] = v.mark }
            return out
        }
        var keyMarks: [String: Mark] {
            var out: [String: Mark] = [:]
            for (k, _) in pairs { out[k.value] = k.mark }
            return out
        }
        func take(_ key: String) throws(TackError) -> String {
            guard let value = fields.removeValue(forKey: key) else {
                throw fail(mark, "the entry for \(name.value) has no `\(key)`; run `tack lock` to write it again")
            }
            guard case .string(let s) = value else { throw fail(marks[key] ?? mark, "`\(key)` must be a string") }
            return s
        }
        let versionText = try take("version")
        let backend = try take("backend")
        let source = try take("source")
        let requested = try take("requested")
        guard let version = Version(word: versionText), !versionText.contains("/") else {
            throw fail(marks["version"] ?? mark, "\(quoted(versionText)) is not a version")
        }
        let known = backends.lockFields
        if fields.keys.contains(where: { !known.contains($0) }), let key = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(keyMarks[key] ?? mark, "unknown key `\(key)` in the entry for \(name.value) (tack writes: \(known.sorted().joined(separator: ", "))) — run `tack lock` to write it again")
        }
        try checkPlatformFields(name.value, kind: backends.kind(named: backend), fields, at: { marks[$0] ?? mark }, fail)
        return LockedTool(name: name.value, version: version, requested: requested, backend: backend, source: source, fields: fields)
    }

    /// A field's value: a string, a list of strings, or a map of strings.
    static func value(_ k: Scalar, _ v: Node, _ fail: (Mark, String) -> TackError) throws(TackError) -> LockValue {
        switch v {
        case .scalar(let s): return .string(s.value)
        case .sequence(let items, _):
            var list: [String] = []
            for item in items {
                guard case .scalar(let s) = item else { throw fail(item.mark, "expected a string in `\(k.value)`, found \(item.kindName)") }
                list.append(s.value)
            }
            return .list(list)
        case .mapping(let entries, _):
            var map: [String: String] = [:]
            for (mk, mv) in entries {
                guard case .scalar(let s) = mv else { throw fail(mv.mark, "expected a string for `\(mk.value)`, found \(mv.kindName)") }
                map[mk.value] = s.value
            }
            return .map(map)
        }
    }

    /// The fields keyed by platform (`sha256` of a kind with per-platform checksums, the
    /// platforms' selection): every key a platform, every checksum a SHA-256.
    static func checkPlatformFields(_ name: String, kind: (any BackendKind)?, _ fields: [String: LockValue], at mark: (String) -> Mark,
                                    _ fail: (Mark, String) -> TackError) throws(TackError) {
        if kind?.checksumsPerPlatform == true, let sums = fields["sha256"] {
            guard case .map(let m) = sums else { throw fail(mark("sha256"), "`sha256` must map platforms (like `linux-x86_64`) to checksums") }
            for (platform, sum) in m.sorted(by: { $0.key < $1.key }) {
                guard Platform.isValidKey(platform) else {
                    throw fail(mark("sha256"), "\(quoted(platform)) in `sha256` of \(name) is not a platform; platforms are written `os-arch`, like `linux-x86_64`")
                }
                guard Checksum.isSHA256(sum) else {
                    throw fail(mark("sha256"), "the \(platform) checksum of \(name) is not a SHA-256: \(quoted(sum))")
                }
            }
        }
        if let selection = fields[PlatformSelection.field] {
            guard case .map(let m) = selection else { throw fail(mark(PlatformSelection.field), "`platforms` in the entry for \(name) must map platforms (like `linux-x86_64`) to what each installs") }
            for platform in m.keys.sorted() where !Platform.isValidKey(platform) {
                throw fail(mark(PlatformSelection.field), "\(quoted(platform)) in `platforms` of \(name) is not a platform; platforms are written `os-arch`, like `linux-x86_64`")
            }
        }
    }
}

/// One resolved tool in tack.lock.
public struct LockedTool: Sendable, Equatable {
    public var name: String
    public var version: Version
    /// The requirement as the manifest wrote it, so a changed requirement is noticed.
    public var requested: String
    public var backend: String
    /// The source's identity (a URL, a package name).
    public var source: String
    /// What the backend records: tag and commit, checksums per platform, hashes, products.
    public var fields: [String: LockValue]

    public init(name: String, version: Version, requested: String, backend: String, source: String, fields: [String: LockValue] = [:]) {
        self.name = name
        self.version = version
        self.requested = requested
        self.backend = backend
        self.source = source
        self.fields = fields
    }

    public static func == (a: LockedTool, b: LockedTool) -> Bool {
        a.name == b.name && a.version.text == b.version.text && a.requested == b.requested
            && a.backend == b.backend && a.source == b.source && a.fields == b.fields
    }
}

extension LockedTool {
    /// The keys tack writes in an entry of any kind (`binaries` and `built` only in an
    /// install's record); each kind adds its own (`BackendKind.lockFields`).
    public static let knownFields: Set<String> = [
        "sha256", "options", "binaries", "built", "signed-by", PlatformSelection.field, CacheKey.lockField,
    ]
}

extension LockedTool {
    /// The entry's `options:` (empty when it has none).
    public var options: [String: String] {
        get { fieldMap("options") }
        set { fields["options"] = newValue.isEmpty ? nil : .map(newValue) }
    }

    /// `sha256:`, SHA-256 by platform (or by file, for kinds that record files), empty when none.
    public var checksums: [String: String] {
        get { fieldMap("sha256") }
        set { fields["sha256"] = newValue.isEmpty ? nil : .map(newValue) }
    }

    /// `signed-by:`, the id of the key that signed each platform's download, empty when none.
    public var signers: [String: String] {
        get { fieldMap("signed-by") }
        set { fields["signed-by"] = newValue.isEmpty ? nil : .map(newValue) }
    }

    /// A map field of the entry, empty when the entry has none: for a kind's own record type
    /// and this codec, not for reading one kind's fields elsewhere.
    public func fieldMap(_ field: String) -> [String: String] {
        if case .map(let m)? = fields[field] { return m }
        return [:]
    }
}

public enum LockValue: Sendable, Equatable {
    case string(String)
    case list([String])
    case map([String: String])
}

enum LockWriter {
    /// `key: value`, or YAML's explicit `? key` form for keys longer than the 1024 characters
    /// YAML allows an implicit key (found by fuzzing: such a lock did not read back).
    static func pair(_ indent: String, _ k: String, _ value: String) -> String {
        let written = key(k)
        if written.utf8.count < 1000 { return "\(indent)\(written):\(value)\n" }
        return "\(indent)? \(written)\n\(indent):\(value)\n"
    }

    static func key(_ k: String) -> String {
        let plain = !k.isEmpty && k.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            && !(k.first!.isNumber && k.allSatisfy { $0.isNumber || $0 == "." })
        return plain ? k : quote(k)
    }

    /// A YAML double-quoted scalar: safe for any string, read back byte for byte.
    static func quote(_ s: String) -> String { quoted(s) }
}

extension Lockfile {
    /// Why a frozen install (or run) on `platform` cannot use this lock as it is, for the
    /// platform alone: the lock lists platforms, and not this one. Nil when it covers it.
    public func uncovered(_ platform: Platform = .current) -> FrozenRefusal? {
        let here = platform.description
        guard !platforms.isEmpty, !platforms.contains(here) else { return nil }
        return .lockUncovered(covered: platforms, platform: here)
    }
}
