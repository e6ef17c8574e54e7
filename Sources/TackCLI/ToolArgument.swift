import ArgumentParser
import TackCore

/// `tool` or `tool@requirement` on the command line, parsed here once for every command that
/// takes a tool (`use`, `install`, `exec`, `where`, `ls`, `current`, `lock`, `update`,
/// `uninstall`, `cache push`): one reading and one error for each mistake, said as a usage
/// error (exit 2), with "did you mean" when the name is a known one in other letters.
///
/// ArgumentParser accepts every word (it would answer a refusal in its own words); the
/// command's `validate()` calls `check()`, which throws the one error.
struct ToolArgument: ExpressibleByArgument, Equatable {
    var name: String
    var requirement: Requirement?
    /// The word as given.
    var text: String
    /// Why the word is not a tool argument, or nil.
    var problem: String?
    /// `KEY:IDENTITY` before the `@` (`aqua:cli/cli@2.62.0`): the manifest key and value that
    /// pin the tool, which is named after the identity's last part. Only `tack use` takes one.
    var source: (key: String, identity: String)?

    /// The manifest keys a tool argument may start with (`aqua:`, `pip:`); those whose values
    /// hold `:` or `@` themselves (`git:`, `url:`) cannot.
    static let sourcePrefixes = ["aqua", "release", "github", "pip", "gem"]

    static func == (a: ToolArgument, b: ToolArgument) -> Bool {
        a.name == b.name && a.requirement == b.requirement && a.text == b.text && a.problem == b.problem
            && a.source?.key == b.source?.key && a.source?.identity == b.source?.identity
    }

    init(argument: String) {
        text = argument
        name = ""
        let parts = argument.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        var word = parts.isEmpty ? "" : String(parts[0])
        if let colon = word.firstIndex(of: ":"), Self.sourcePrefixes.contains(String(word[..<colon])) {
            let identity = String(word[word.index(after: colon)...])
            source = (String(word[..<colon]), identity)
            word = String(identity.split(separator: "/").last ?? "").lowercased()
            if identity.isEmpty || word.isEmpty {
                problem = "\(Self.shown(argument)) names no package after `\(source?.key ?? ""):` — write it like `aqua:cli/cli@2.62.0`"
                return
            }
        }
        if word.isEmpty {
            problem = argument.isEmpty ? "an empty word is not a tool — name one, like jq or jq@1.7.1"
                : "\(Self.shown(argument)) names no tool before `@` — write tool@version, like jq@1.7.1"
            return
        }
        guard ToolName.isValid(word) else {
            problem = ToolName.problem(Self.shown(word, quoted: false))
            name = word
            return
        }
        name = word
        guard parts.count == 2 else { return }
        let written = String(parts[1])
        if written.isEmpty {
            problem = "\(Self.shown(argument)) has no version after `@` — write \(word)@VERSION, or \(word) alone"
            return
        }
        do { requirement = try Requirement.parse(written) } catch {
            problem = "\(Self.shown(written)) in \(Self.shown(argument)) is not a version requirement: \(Terminal.escapeControls(error.description))"
        }
    }

    /// The word read as a tool argument, or the usage error that says what is wrong with it.
    static func parse(_ text: String) throws -> ToolArgument {
        try ToolArgument(argument: text).check()
    }

    /// Self, or a usage error (exit 2) saying what is wrong, with "did you mean" where a known
    /// tool differs only in case or by a typo.
    @discardableResult
    func check(allowingRequirement: Bool = true, allowingSource: Bool = false) throws -> ToolArgument {
        if let problem {
            throw ValidationError(ToolName.withSuggestion(problem, for: name, store: CurrentProcess.settings()?.store))
        }
        if !allowingSource, let source {
            throw ValidationError("\(Self.shown(text)) names a source (`\(source.key):`), which only `tack use` takes — write the tool's name, \(name)")
        }
        if !allowingRequirement, requirement != nil {
            throw ValidationError("\(Self.shown(text)) names a version, and this command takes a tool's name alone — write \(name)")
        }
        return self
    }

    /// Shell completion of a tool argument: the tools pinned here and those installed, that
    /// start with what is typed so far.
    static let completion = CompletionKind.custom { _, _, prefix in
        guard let settings = CurrentProcess.settings() else { return [] }
        var names = Set(settings.store?.installedTools() ?? [])
        if let resolution = try? Resolver(settings).resolve() { names.formUnion(resolution.pins.map(\.request.name)) }
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// A word as a message shows it: control characters and line breaks escaped, at most 80
    /// characters, in backticks.
    static func shown(_ word: String, quoted: Bool = true) -> String {
        quoted ? "`\(Terminal.word(word))`" : Terminal.word(word)
    }
}
