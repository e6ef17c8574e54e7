import Testing
import YAML

/// Anchors and aliases, read only where asked (files tack does not write, like aqua's
/// registry), with the expansion bounded.
@Suite struct YAMLAliasTests {
    func parse(_ text: String, aliases: Bool = true) throws(YAMLError) -> Node? { try YAMLParser.parse(Array(text.utf8), aliases: aliases) }

    @Test func anAliasStandsForItsAnchorsNode() throws {
        guard case .mapping(let pairs, _)? = try parse("a: &files\n  - name: x\n  - name: y\nb: *files\nc: &s hello\nd: *s\n") else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.map(\.key.value) == ["a", "b", "c", "d"])
        guard case .sequence(let a, _) = pairs[0].value, case .sequence(let b, _) = pairs[1].value else {
            Issue.record("not lists")
            return
        }
        #expect(a == b && a.count == 2)
        if case .scalar(let d) = pairs[3].value { #expect(d.value == "hello") } else { Issue.record("d is not a string") }
    }

    @Test func refusedUnlessAskedForAndBounded() {
        #expect(throws: YAMLError.self) { try parse("a: &x 1\nb: *x\n", aliases: false) }
        let unknown = #expect(throws: YAMLError.self) { try parse("a: *nothing\n") }
        #expect(unknown?.message.contains("names no anchor") == true)
        // Nine levels of ten aliases each: a billion strings if expanded.
        var laughs = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            laughs += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        let bomb = #expect(throws: YAMLError.self) { try parse(laughs) }
        #expect(bomb?.message.contains("aliases expand to more than") == true, "\(bomb?.message ?? "")")
    }
}
