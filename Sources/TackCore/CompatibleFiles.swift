/// Readers for the version files of rbenv, pyenv, nvm, asdf, swiftenv and Mint, so a team
/// moving to tack changes nothing on day one.
public enum CompatibleFile: String, CaseIterable, Sendable {
    case toolVersions = ".tool-versions"
    case rubyVersion = ".ruby-version"
    case pythonVersion = ".python-version"
    case nodeVersion = ".node-version"
    case nvmrc = ".nvmrc"
    case swiftVersion = ".swift-version"
    case mintfile = "Mintfile"

    /// The origin kinds share these files' names.
    public var kind: Origin.Kind { Origin.Kind(rawValue: rawValue)! }

    /// asdf's plugin names that differ from tack's registry names.
    static let asdfAliases = ["nodejs": "node", "golang": "go"]

    public func read(_ path: String, fs: any FileSystem) throws(TackError) -> [ToolRequest] {
        let bytes: [UInt8]
        do { bytes = try fs.read(path) } catch { throw TackError(error.description) }
        return try parse(bytes, path: path)
    }

    public func parse(_ bytes: [UInt8], path: String) throws(TackError) -> [ToolRequest] {
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        guard let text = String(validating: input, as: UTF8.self) else {
            throw TackError.at(path, 1, nil, "the file is not valid UTF-8 text")
        }
        let lines = Lines(text)
        switch self {
        case .toolVersions: return try parseToolVersions(lines, path)
        case .mintfile: return try parseMintfile(lines, path)
        case .rubyVersion: return try single(lines, path, tool: "ruby", strip: "ruby-")
        case .pythonVersion: return try single(lines, path, tool: "python", strip: "python-")
        case .nodeVersion, .nvmrc: return try single(lines, path, tool: "node", strip: nil)
        case .swiftVersion: return try single(lines, path, tool: "swift", strip: "swift-")
        }
    }

    func origin(_ path: String, _ line: Int, _ column: Int) -> Origin {
        Origin(kind: kind, file: path, line: line, column: column)
    }

    func requirement(_ text: String, _ path: String, _ line: Int, _ column: Int, tool: String) throws(TackError) -> Requirement {
        do { return try Requirement.parse(text) } catch {
            throw TackError.at(path, line, column, "expected a version of \(tool), found \(quoted(text)): \(error)")
        }
    }

    /// The one-version files: the first word of the first line that is not a comment.
    func single(_ lines: Lines, _ path: String, tool: String, strip: String?) throws(TackError) -> [ToolRequest] {
        guard let (n, column, word) = lines.words.first(where: { !$0.2.hasPrefix("#") }) else {
            throw TackError.at(path, 1, nil, "the file is empty; write the \(tool) version in it, like `\(tool == "node" ? "20.11.1" : "3.3.0")`")
        }
        var version = word
        if let strip, version.hasPrefix(strip), version.dropFirst(strip.count).first?.isNumber == true {
            version = String(version.dropFirst(strip.count))
        }
        if tool == "node", !(version.first?.isNumber ?? false), !(version.first == "v" && version.dropFirst().first?.isNumber == true), version != "system" {
            throw TackError.at(path, n, column, "node version \(quoted(version)) is an alias (like `lts/*` or `node`); aliases are not supported yet — write a version number like `20.11.1`")
        }
        let req = try requirement(version, path, n, column, tool: tool)
        if case .path = req { throw TackError.at(path, n, column, "expected a version of \(tool), found \(quoted(version))") }
        if case .ref = req { throw TackError.at(path, n, column, "expected a version of \(tool), found \(quoted(version))") }
        return [ToolRequest(name: tool, requirement: req, origin: origin(path, n, column))]
    }

    func parseToolVersions(_ lines: Lines, _ path: String) throws(TackError) -> [ToolRequest] {
        var out: [ToolRequest] = []
        var seen: [String: Int] = [:]
        for (n, fields) in lines.fieldsByLine {
            let (nameColumn, rawName) = fields[0]
            let name = CompatibleFile.asdfAliases[rawName] ?? rawName
            guard ToolName.isValid(name) else { throw TackError.at(path, n, nameColumn, ToolName.problem(rawName)) }
            guard fields.count >= 2 else {
                throw TackError.at(path, n, nameColumn, "`\(rawName)` has no version; write `\(rawName) 1.2.3`")
            }
            if let first = seen[name] {
                throw TackError.at(path, n, nameColumn, "`\(rawName)` is listed twice (first on line \(first))")
            }
            seen[name] = n
            // asdf tries each version in turn; tack pins one, the first.
            let (column, version) = fields[1]
            out.append(ToolRequest(name: name, requirement: try requirement(version, path, n, column, tool: name), origin: origin(path, n, nameColumn)))
        }
        return out
    }

    func parseMintfile(_ lines: Lines, _ path: String) throws(TackError) -> [ToolRequest] {
        var out: [ToolRequest] = []
        var seen: [String: Int] = [:]
        for (n, fields) in lines.fieldsByLine {
            let (column, spec) = fields[0]
            if fields.count > 1 {
                throw TackError.at(path, n, fields[1].0, "expected one `owner/repo@version` per line, found more after it")
            }
            // `owner/repo@1.2.3`, `owner/repo` (the newest), or a git URL with `@version`.
            var repo = spec
            var version = "latest"
            if let at = spec.lastIndex(of: "@"), spec[..<at].contains("/") {
                repo = String(spec[..<at])
                version = String(spec[spec.index(after: at)...])
            }
            let url: String
            let repoName: Substring
            if repo.contains("://") || repo.hasPrefix("git@") {
                url = repo
                var last = repo.split(separator: "/").last ?? ""
                if last.hasSuffix(".git") { last = last.dropLast(4) }
                repoName = last
            } else {
                guard GitHub.isValidRepository(repo) else {
                    throw TackError.at(path, n, column, "expected `owner/repo@version`, found \(quoted(spec))")
                }
                url = "https://github.com/\(repo).git"
                repoName = repo.split(separator: "/")[1]
            }
            let name = repoName.lowercased()
            guard ToolName.isValid(name) else { throw TackError.at(path, n, column, ToolName.problem(name)) }
            if let first = seen[name] { throw TackError.at(path, n, column, "`\(name)` is listed twice (first on line \(first))") }
            seen[name] = n
            let versionColumn = column + repo.count + (version == "latest" && !spec.hasSuffix("@latest") ? 0 : 1)
            let req = try requirement(version, path, n, versionColumn, tool: name)
            out.append(ToolRequest(name: name, requirement: req, source: .git(url), origin: origin(path, n, column)))
        }
        return out
    }
}

/// Lines split into whitespace-separated words with 1-based columns, comments removed.
struct Lines {
    /// (line, [(column, word)]) for each line with at least one word.
    let fieldsByLine: [(Int, [(Int, String)])]
    /// Every word with its line and column.
    var words: [(Int, Int, String)] { fieldsByLine.flatMap { (n, f) in f.map { (n, $0.0, $0.1) } } }

    init(_ text: String) {
        var out: [(Int, [(Int, String)])] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var fields: [(Int, String)] = []
            var column = 0
            var word = ""
            var wordStart = 0
            for c in line {
                column += 1
                if c == "#" && word.isEmpty { break }  // a comment: to the end of the line
                if c == " " || c == "\t" || c == "\r" {
                    if !word.isEmpty { fields.append((wordStart, word)); word = "" }
                } else {
                    if word.isEmpty { wordStart = column }
                    word.append(c)
                }
            }
            if !word.isEmpty { fields.append((wordStart, word)) }
            if !fields.isEmpty { out.append((lineNumber, fields)) }
        }
        fieldsByLine = out
    }
}
