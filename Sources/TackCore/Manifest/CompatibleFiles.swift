/// Readers for the version files of rbenv, pyenv, nvm, asdf, swiftenv, Mint and aqua, so a team
/// moving to tack changes nothing on day one. Each file is read as the tool that owns it reads
/// it; the tests in Tests/TackCoreTests/Peer*Tests.swift hold the owners' own cases.
///
/// A reader throws for a file it cannot use at all (the resolver then warns and lets the file
/// pin nothing); lines its owner skips with a warning (pyenv) come back in `skipped`.
public enum CompatibleFile: String, CaseIterable, Sendable {
    case miseLocalTOML = "mise.local.toml"
    case miseTOML = "mise.toml"
    case dotMiseTOML = ".mise.toml"
    case configMiseTOML = ".config/mise.toml"
    case toolVersions = ".tool-versions"
    case rubyVersion = ".ruby-version"
    case pythonVersion = ".python-version"
    case nodeVersion = ".node-version"
    case nvmrc = ".nvmrc"
    case swiftVersion = ".swift-version"
    case mintfile = "Mintfile"
    case aquaYAML = "aqua.yaml"

    /// What one file pins, and the lines it skipped.
    public struct Reading: Sendable {
        public var pins: [ToolRequest] = []
        /// `file:line:column: why` for each line left out.
        public var skipped: [TackError] = []
    }

    /// The origin kinds share these files' names.
    public var kind: Origin.Kind {
        switch self {
        case .toolVersions: return .toolVersions
        case .rubyVersion: return .rubyVersion
        case .pythonVersion: return .pythonVersion
        case .nodeVersion: return .nodeVersion
        case .nvmrc: return .nvmrc
        case .swiftVersion: return .swiftVersion
        case .mintfile: return .mintfile
        case .aquaYAML: return .aquaYAML
        case .miseLocalTOML, .miseTOML, .dotMiseTOML, .configMiseTOML: return .miseTOML
        }
    }

    /// asdf's plugin names that differ from tack's registry names.
    static let asdfAliases = ["nodejs": "node", "golang": "go"]

    /// The largest version file tack reads (rbenv reads the first 1024 bytes of a line; these
    /// files are a few lines).
    static let sizeLimit = 64 * 1024

    public func read(_ path: String, fs: any FileSystem, backends: BackendCatalog) throws(TackError) -> Reading {
        let bytes: [UInt8]
        do { bytes = try fs.read(path, limit: CompatibleFile.sizeLimit) } catch { throw TackError(error.description) }
        return try parse(bytes, path: path, backends: backends)
    }

    /// `backends` has the kind of a Mintfile's sources (the manifest's `github:`).
    public func parse(_ bytes: [UInt8], path: String, backends: BackendCatalog) throws(TackError) -> Reading {
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        guard let text = String(validating: input, as: UTF8.self) else {
            throw TackError.at(path, 1, nil, "the file is not valid UTF-8 text")
        }
        switch self {
        case .toolVersions: return try parseToolVersions(Lines(text), path)
        case .mintfile: return try parseMintfile(text, path, backends: backends)
        case .aquaYAML: return try parseAquaYAML(Array(input), path, backends: backends)
        case .miseLocalTOML, .miseTOML, .dotMiseTOML, .configMiseTOML: return try parseMiseTOML(text, path, backends: backends)
        case .nvmrc: return try parseNvmrc(text, path)
        case .pythonVersion: return parsePythonVersion(Lines(text), path)
        case .rubyVersion: return try firstWord(Lines(text), path, tool: "ruby", strip: "ruby-")
        case .nodeVersion: return try firstWord(Lines(text), path, tool: "node", strip: nil)
        case .swiftVersion: return try firstWord(Lines(text), path, tool: "swift", strip: nil)
        }
    }

    func origin(_ path: String, _ line: Int, _ column: Int) -> Origin {
        Origin(kind: kind, file: path, line: line, column: column)
    }

    /// A version word of `tool`'s file: `system`, a version, a range, or a safe opaque word.
    /// `ref:` and `path:` are .tool-versions' own (`allowSourcePins`).
    static func requirement(_ text: String, tool: String, allowSourcePins: Bool = false) throws(Requirement.ParseError) -> Requirement {
        let r = try Requirement.parse(text)
        switch r {
        case .path, .ref:
            if !allowSourcePins { throw .invalid("a version of \(tool) is not a `ref:` or `path:`") }
        case .lts:
            if tool != "node" { throw .invalid("`lts/` names node's LTS lines, not versions of \(tool)") }
        default: break
        }
        return r
    }

    static func located(_ path: String, _ line: Int, _ column: Int, tool: String, _ text: String, _ error: Requirement.ParseError) -> TackError {
        TackError.at(path, line, column, "expected a version of \(tool), found \(quoted(text)): \(error)")
    }

    /// `ruby-2.7.1` → `2.7.1` (rbenv and pyenv strip their tool's name; `strip` is `ruby-`).
    static func strippingToolPrefix(_ word: String, _ strip: String?) -> String {
        guard let strip, word.hasPrefix(strip), word.dropFirst(strip.count).first?.isNumber == true else { return word }
        return String(word.dropFirst(strip.count))
    }

    /// nvm's words for node releases: `node` and `stable` are the newest release; `iojs` is
    /// the io.js fork, which tack does not install.
    static func nodeAlias(_ word: String) throws(Requirement.ParseError) -> Requirement? {
        switch word.lowercased() {
        case "node", "stable": return .latest
        case "iojs", "io.js": throw .invalid("io.js releases are not supported; pin a node version like `20.11.1` or `lts/*`")
        default:
            if word.lowercased().hasPrefix("iojs-") { throw .invalid("io.js releases are not supported; pin a node version like `20.11.1` or `lts/*`") }
            return nil
        }
    }

    /// .ruby-version, .swift-version and .node-version, as rbenv reads its file: the first
    /// word of the first line that has one. Nothing there pins nothing.
    func firstWord(_ lines: Lines, _ path: String, tool: String, strip: String?) throws(TackError) -> Reading {
        guard let (n, fields) = lines.fieldsByLine.first else { return Reading() }
        let (column, word) = fields[0]
        // swiftenv's and swift.org's toolchain names read as swiftly's.
        let version = tool == "swift" ? SwiftToolchain.normalize(word) : CompatibleFile.strippingToolPrefix(word, strip)
        do throws(Requirement.ParseError) {
            var req: Requirement
            if tool == "node", let alias = try CompatibleFile.nodeAlias(version) { req = alias } else {
                req = try CompatibleFile.requirement(version, tool: tool)
            }
            return Reading(pins: [ToolRequest(name: tool, requirement: req, origin: origin(path, n, column))])
        } catch {
            throw CompatibleFile.located(path, n, column, tool: tool, word, error)
        }
    }

    /// .python-version, as pyenv reads it: the first word of every line, each a version tried
    /// in turn; a word pyenv cannot use (`..`, a path) is skipped with a warning.
    func parsePythonVersion(_ lines: Lines, _ path: String) -> Reading {
        var reading = Reading()
        var versions: [(Int, Int, Requirement)] = []
        for (n, fields) in lines.fieldsByLine {
            let (column, word) = fields[0]
            let version = CompatibleFile.strippingToolPrefix(word, "python-")
            do throws(Requirement.ParseError) {
                versions.append((n, column, try CompatibleFile.requirement(version, tool: "python")))
            } catch {
                reading.skipped.append(TackError.at(path, n, column, "\(quoted(word)) is not a version tack can use (\(error)); the line is skipped"))
            }
        }
        if let (n, column, first) = versions.first {
            var pin = ToolRequest(name: "python", requirement: first, origin: origin(path, n, column))
            pin.alternatives = versions.dropFirst().map { $0.2 }
            reading.pins = [pin]
        }
        return reading
    }

    /// .tool-versions, as asdf reads it: `tool version [version…]` a line, `#` starts a
    /// comment anywhere, several versions are tried in turn, and the first line for a tool wins.
    /// `path:` takes the rest of the line (a directory may hold spaces).
    func parseToolVersions(_ lines: Lines, _ path: String) throws(TackError) -> Reading {
        var reading = Reading()
        var seen: Set<String> = []
        for (n, fields) in lines.fieldsByLine {
            let (nameColumn, rawName) = fields[0]
            let name = CompatibleFile.asdfAliases[rawName] ?? rawName
            guard ToolName.isValid(name) else { throw TackError.at(path, n, nameColumn, ToolName.problem(rawName)) }
            guard fields.count >= 2 else {
                throw TackError.at(path, n, nameColumn, "`\(rawName)` has no version; write `\(rawName) 1.2.3`")
            }
            guard seen.insert(name).inserted else { continue }
            var words = Array(fields.dropFirst())
            if let i = words.firstIndex(where: { $0.1.hasPrefix("path:") }) {
                // asdf: `path:/some/dir with spaces` runs to the end of the line.
                words = Array(words[..<i]) + [(words[i].0, words[i...].map { $0.1 }.joined(separator: " "))]
            }
            var versions: [Requirement] = []
            for (column, word) in words {
                do throws(Requirement.ParseError) {
                    versions.append(try CompatibleFile.requirement(word, tool: name, allowSourcePins: true))
                } catch {
                    throw CompatibleFile.located(path, n, column, tool: name, word, error)
                }
            }
            var pin = ToolRequest(name: name, requirement: versions[0], origin: origin(path, n, nameColumn))
            pin.alternatives = Array(versions.dropFirst())
            reading.pins.append(pin)
        }
        return reading
    }

    /// .nvmrc, with the grammar of nvm's own parser (the `nvm-sh/nvmrc` package): comments
    /// from `#`, one bare version-ish, and any number of distinct `key=value` lines (which nvm
    /// passes to its own features and tack leaves alone). Semver ranges are not nvm's.
    func parseNvmrc(_ text: String, _ path: String) throws(TackError) -> Reading {
        var bare: (line: Int, column: Int, word: String)?
        var keys: [String: Int] = [:]
        for (n, column, content) in Lines.contents(text) {
            if let eq = content.firstIndex(of: "=") {
                let key = Lines.trimmed(String(content[..<eq]))
                guard !key.isEmpty else { throw TackError.at(path, n, column, "a `key=value` line needs a key (found \(quoted(content)))") }
                if key == "node" { throw TackError.at(path, n, column, "the node version is the line without `=`, not a `node=` key") }
                if let first = keys[key] { throw TackError.at(path, n, column, "`\(key)` is set twice (first on line \(first))") }
                keys[key] = n
                continue
            }
            if let first = bare {
                throw TackError.at(path, n, column, "more than one node version (the first is \(quoted(first.word)) on line \(first.line)); an .nvmrc holds one")
            }
            bare = (n, column, content)
        }
        guard let bare else {
            if keys.isEmpty { return Reading() }
            throw TackError.at(path, 1, nil, "no node version: an .nvmrc with `key=value` lines also needs one line with the version, like `20`")
        }
        if let c = bare.word.first, "~^><=".contains(c) {
            throw TackError.at(path, bare.line, bare.column, "\(quoted(bare.word)) is a semver range, which nvm does not understand; write a version like `20` or an alias like `lts/*`")
        }
        do throws(Requirement.ParseError) {
            var req: Requirement
            if let alias = try CompatibleFile.nodeAlias(bare.word) { req = alias } else {
                req = try CompatibleFile.requirement(bare.word, tool: "node")
            }
            return Reading(pins: [ToolRequest(name: "node", requirement: req, origin: origin(path, bare.line, bare.column))])
        } catch {
            throw CompatibleFile.located(path, bare.line, bare.column, tool: "node", bare.word, error)
        }
    }

    /// A Mintfile, as Mint reads it: `repo@version` a line, spaces allowed around `@`, where
    /// repo is `owner/repo` (GitHub), `host/path` (https on that host), or a git URL
    /// (`https://…`, `ssh://git@…`, `git@host:path`); the version is a tag, or a branch or
    /// commit (pinned as `ref:`); without one, the newest release. The tool is named after
    /// the repository as Mint names it (`R.swift`), in lower case (`r.swift`).
    func parseMintfile(_ text: String, _ path: String, backends: BackendCatalog) throws(TackError) -> Reading {
        var reading = Reading()
        // A Mintfile line's repository is what the manifest's `github:` or `git:` names.
        guard let git = backends.kind(sourceKey: "git") else {
            throw TackError.at(path, 1, nil, "this tack has no backend for git repositories, which a Mintfile names")
        }
        var seen: [String: (line: Int, repo: String)] = [:]
        for (n, column, spec) in Lines.contents(text) {
            let parsed = MintReference(spec)
            guard let url = parsed.gitURL, let rawName = parsed.name else {
                throw TackError.at(path, n, column, "expected `owner/repo@version` or a git URL, found \(quoted(spec))")
            }
            let name = rawName.lowercased()
            guard ToolName.isValid(name) else { throw TackError.at(path, n, column, ToolName.problem(name)) }
            if let first = seen[name] {
                throw TackError.at(path, n, column, "\(parsed.repo) and \(first.repo) (line \(first.line)) are both named `\(name)`; tack names a Mintfile's tools after their repositories, so one of them must go")
            }
            seen[name] = (n, parsed.repo)
            let req: Requirement
            if parsed.version.isEmpty {
                req = .latest
            } else if let v = Version(parsed.version) {
                req = .prefix(v)
            } else {
                do throws(Requirement.ParseError) { req = .ref(try Requirement.parseRef(parsed.version)) } catch {
                    throw TackError.at(path, n, column, "expected a tag, branch or commit of \(parsed.repo) after `@`, found \(quoted(parsed.version)): \(error)")
                }
            }
            reading.pins.append(ToolRequest(name: name, requirement: req, source: ToolSource(git, url), origin: origin(path, n, column)))
        }
        return reading
    }
}

/// One Mintfile line's package, read as Mint's `PackageReference` reads it.
struct MintReference {
    var repo: String
    var version: String

    init(_ spec: String) {
        let parts = spec.split(separator: "@", omittingEmptySubsequences: false).map { Lines.trimmed(String($0)) }
        switch parts.count {
        case 3:
            // `git@host:owner/repo.git@1.0`, `ssh://git@host/repo.git@1.0`
            repo = parts[0] + "@" + parts[1]
            version = parts[2]
        case 2 where parts[1].contains(":") || parts[0].contains("ssh://"):
            // `git@github.com:owner/repo.git`, `ssh://git@host/repo.git`: no version.
            repo = parts[0] + "@" + parts[1]
            version = ""
        case 2:
            repo = parts[0]
            version = parts[1]
        default:
            repo = spec
            version = ""
        }
    }

    /// Where Mint clones from: a URL as written; `git@…` as written; GitHub for
    /// `owner/repo` and `github.com/owner/repo`; https on the host for `host.tld/path`.
    var gitURL: String? {
        guard !repo.isEmpty, !repo.hasPrefix("-"), !repo.contains(where: { $0.isWhitespace || $0.isControl }),
              !repo.split(separator: "/").contains(where: { $0 == ".." })
        else { return nil }
        if let (scheme, rest) = MintReference.splitScheme(repo) {
            guard ["https", "http", "ssh", "git", "file"].contains(scheme.lowercased()), rest.contains("/") else { return nil }
            return repo
        }
        if repo.contains("@") { return repo.contains(":") ? repo : nil }
        if repo.hasPrefix("github.com/") {
            return GitHub.isValidRepository(String(repo.dropFirst("github.com/".count))) ? "https://\(repo).git" : nil
        }
        let first = repo.split(separator: "/").first ?? ""
        if first.contains(".") { return repo.contains("/") ? "https://\(repo)" : nil }
        return GitHub.isValidRepository(repo) ? GitHub.url(repo) : nil
    }

    /// `https://host/x` → (`https`, `host/x`); nil without `://`.
    static func splitScheme(_ s: String) -> (String, Substring)? {
        guard let colon = s.firstIndex(of: ":"), s[colon...].hasPrefix("://") else { return nil }
        return (String(s[..<colon]), s[s.index(colon, offsetBy: 3)...])
    }

    /// The package's name as Mint names it: the last path component without `.git`
    /// (`Mint.git` → `Mint`, `mac-cain13/R.swift` → `R.swift`).
    var name: String? {
        let last = String(repo.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "")
        let name = last.replacing(".git", with: "")
        return name.isEmpty ? nil : name
    }
}

/// A version file's lines split as their owners split them: at `\n` (a `\r` before it is part
/// of the line break), words at spaces, tabs and stray `\r`, comments from `#` to the end of
/// the line. Columns are 1-based.
struct Lines {
    /// (line, [(column, word)]) for each line with at least one word.
    let fieldsByLine: [(Int, [(Int, String)])]

    init(_ text: String) {
        var out: [(Int, [(Int, String)])] = []
        for (n, line) in Lines.split(text) {
            var fields: [(Int, String)] = []
            var column = 0
            var word = ""
            var wordStart = 0
            for c in line {
                column += 1
                if c == "#" {  // a comment: to the end of the line
                    break
                }
                if c == " " || c == "\t" || c == "\r" || c == "\u{FEFF}" {
                    if !word.isEmpty { fields.append((wordStart, word)); word = "" }
                } else {
                    if word.isEmpty { wordStart = column }
                    word.append(c)
                }
            }
            if !word.isEmpty { fields.append((wordStart, word)) }
            if !fields.isEmpty { out.append((n, fields)) }
        }
        fieldsByLine = out
    }

    /// Each line that holds something once its comment is gone: its number, the column where
    /// that starts, and it trimmed (what .nvmrc and Mintfile lines are read from, spaces
    /// inside kept).
    static func contents(_ text: String) -> [(line: Int, column: Int, text: String)] {
        split(text).compactMap { n, line in
            let content = line.firstIndex(of: "#").map { String(line[..<$0]) } ?? line
            let trimmed = trimmed(content)
            guard !trimmed.isEmpty else { return nil }
            return (n, content.prefix { $0.isWhitespace || $0 == "\u{FEFF}" }.count + 1, trimmed)
        }
    }

    /// The lines of `text`, numbered from 1, split at `\n` with one `\r` before it removed.
    /// (Split as Unicode scalars: `"\r\n"` is one Swift Character, which a split on `"\n"`
    /// never finds.)
    static func split(_ text: String) -> [(Int, String)] {
        var out: [(Int, String)] = []
        for (i, slice) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var scalars = String.UnicodeScalarView(slice)
            if scalars.last == "\r" { scalars.removeLast() }
            out.append((i + 1, String(scalars)))
        }
        return out
    }

    /// `s` without leading and trailing whitespace (a byte-order mark included, as
    /// JavaScript's `trim` removes it).
    static func trimmed(_ s: String) -> String {
        s.trimming { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
    }
}
