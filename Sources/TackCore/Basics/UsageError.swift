/// A command line tack cannot read: said as every error is (`tack: <what> — <what to do>`),
/// with exit status 2, by whichever binary reads it.
public enum UsageError {
    public static let status: Int32 = 2

    /// `problem`, with the help to read when the problem does not already say what to do.
    public static func message(_ problem: String, command: String?) -> String {
        var text = problem
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        while text.hasSuffix("\n") { text.removeLast() }
        // One line, whatever the words were: a line break or escape in an argument is shown
        // escaped, and a 10,000-character argument does not fill the terminal.
        text = Terminal.word(text, limit: 400)
        if text.contains(" — ") { return text }
        return text + " — see `tack\(command.map { " " + $0 } ?? "") --help`"
    }

    /// What to say for a word that is not one of `commands`: the close ones, as "did you mean".
    public static func unknownCommand(_ word: String, commands: [String]) -> String {
        let close = suggestions(for: word, among: commands)
        let shown = Terminal.escapeControls(word)
        if close.isEmpty { return "`\(shown)` is not a tack command — see `tack --help` for the list" }
        let list = close.map { "`tack \($0)`" }
        return "`\(shown)` is not a tack command — did you mean \(list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " or " + list[list.count - 1])?"
    }

    /// The names within a small edit distance of `word` (`Suggest.distance`: a swap of two
    /// neighbours counts one, so `isntall` is next to `install`), or that it starts, closest first.
    public static func suggestions(for word: String, among names: [String]) -> [String] {
        let w = word.lowercased()
        guard !w.isEmpty, w.utf8.count <= 64 else { return [] }
        let limit = w.count <= 3 ? 1 : 2
        let scored = names.compactMap { name -> (Int, String)? in
            let d = Suggest.distance(w, name)
            if d <= limit { return (d, name) }
            if w.count >= 3, name.hasPrefix(w) { return (limit + 1, name) }
            return nil
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(3).map { $0.1 }
    }
}
