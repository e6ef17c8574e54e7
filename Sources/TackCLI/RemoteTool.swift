import ArgumentParser
import TackCore

/// A tool named on the command line where it is pinned nowhere: a registry name, a git URL,
/// or `owner/repo` on GitHub.
enum RemoteTool {
    static func request(_ word: String) throws -> ToolRequest {
        if ToolName.isValid(word) { return ToolRequest(name: word, requirement: .latest, source: .registry, origin: .commandLine) }
        let url: String
        if word.contains("://") || word.hasPrefix("git@") {
            url = word
        } else {
            guard GitHub.isValidRepository(word) else {
                throw ValidationError("`\(word)` is neither a tool name, a git URL nor owner/repo")
            }
            url = GitHub.url(word)
        }
        guard !url.contains(where: { $0.isControl || $0.isWhitespace }) else { throw ValidationError("`\(word)` is not a git URL") }
        var name = url.split(separator: "/").last.map(String.init) ?? ""
        if name.hasSuffix(".git") { name.removeLast(4) }
        name = name.lowercased()
        if !ToolName.isValid(name) { name = "tool" }
        return ToolRequest(name: name, requirement: .latest, source: .git(url), origin: .commandLine)
    }
}
