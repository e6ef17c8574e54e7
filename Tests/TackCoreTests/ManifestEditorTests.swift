import BackendKinds
import TackCore
import Testing

/// `tack use` edits tack.yml as a person would: one value changed or one line added, comments,
/// quoting and layout untouched, and never a file tack cannot read afterwards.
@Suite struct ManifestEditorTests {
    func pin(_ tool: String, _ requirement: String, in text: String, entry: String? = nil) throws -> String {
        let edited = try ManifestEditor.pin(tool, try Requirement.parse(requirement), entry: entry, in: Array(text.utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard)
        return String(decoding: edited, as: UTF8.self)
    }

    @Test func aVersionChangesInPlaceKeepingCommentsAndQuotes() throws {
        let text = "# the team's tools\ntools:\n  swiftlint: \"0.57.0\"   # lint\n  jq: 1.7.1\n"
        #expect(try pin("swiftlint", "0.58.0", in: text) == "# the team's tools\ntools:\n  swiftlint: \"0.58.0\"   # lint\n  jq: 1.7.1\n")
        #expect(try pin("jq", "1.8.0", in: text) == "# the team's tools\ntools:\n  swiftlint: \"0.57.0\"   # lint\n  jq: 1.8.0\n")
    }

    @Test func aNewToolIsOneLineAddedAndAnEmptyFileGetsTools() throws {
        #expect(try pin("jq", "1.7.1", in: "tools:\n  swiftlint: 0.57.0\n") == "tools:\n  swiftlint: 0.57.0\n  jq: 1.7.1\n")
        #expect(try pin("jq", "1.7.1", in: "") == "tools:\n  jq: 1.7.1\n")
        #expect(try pin("jq", "1.7.1", in: "env:\n  A: b\n") == "env:\n  A: b\ntools:\n  jq: 1.7.1\n")
    }

    @Test func aMappingEntryKeepsItsSourceAndGetsTheNewVersion() throws {
        let text = "tools:\n  hello: { git: \"https://example.com/hello.git\", version: \"1.0.0\" }\n"
        #expect(try pin("hello", "1.1.0", in: text) == "tools:\n  hello: { git: \"https://example.com/hello.git\", version: \"1.1.0\" }\n")
    }

    func addSDKs(_ sdks: [String], in text: String) throws -> String {
        String(decoding: try ManifestEditor.addToList("swift", key: "sdks", sdks, in: Array(text.utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard), as: UTF8.self)
    }

    @Test func sdksAreAddedToWhateverFormTheEntryHas() throws {
        // A version alone becomes a mapping; its quoting is kept.
        #expect(try addSDKs(["static-linux"], in: "tools:\n  swift: \"6.0.3\"  # ours\n") == "tools:\n  swift: { version: \"6.0.3\", sdks: [static-linux] }  # ours\n")
        // A flow mapping gains the key, or a longer list without repeats.
        #expect(try addSDKs(["wasm"], in: "tools:\n  swift: { version: 6.2 }\n") == "tools:\n  swift: { version: 6.2, sdks: [wasm] }\n")
        #expect(try addSDKs(["wasm", "static-linux"], in: "tools:\n  swift: { version: 6.2, sdks: [ static-linux ] }\n") == "tools:\n  swift: { version: 6.2, sdks: [static-linux, wasm] }\n")
        #expect(try addSDKs(["wasm"], in: "tools:\n  swift: { version: 6.2, sdks: static-linux }\n") == "tools:\n  swift: { version: 6.2, sdks: [static-linux, wasm] }\n")
        // A block mapping gains a line after its last.
        #expect(try addSDKs(["wasm"], in: "tools:\n  swift:\n    version: 6.2\n  jq: 1.7\n") == "tools:\n  swift:\n    version: 6.2\n    sdks: [wasm]\n  jq: 1.7\n")
        // A block list is the user's to edit; a tool not pinned has nothing to add to.
        #expect(throws: TackError.self) { try addSDKs(["wasm"], in: "tools:\n  swift:\n    version: 6.2\n    sdks:\n      - static-linux\n") }
        #expect(throws: TackError.self) { try addSDKs(["wasm"], in: "tools:\n  jq: 1.7\n") }
    }

    @Test func whatCannotBeEditedSafelyIsAnError() throws {
        // A broken file is never edited; a name tack would not accept is refused, not a crash.
        #expect(throws: TackError.self) { _ = try pin("jq", "1.7.1", in: "tools: [oops\n") }
        #expect(throws: TackError.self) { _ = try pin("Bad Name", "1.0.0", in: "tools:\n  jq: 1.7.1\n") }
        #expect(throws: TackError.self) { _ = try pin("hello", "1.1.0", in: "tools:\n  hello: { git: \"https://x/h.git\", version: \"1.0\" }\n", entry: "{ url: \"https://x\" }") }
    }

    /// Issue 43 item 17: a version other YAML readers take for a number is written quoted.
    @Test func versionsOtherReadersTakeForNumbersAreQuoted() {
        for number in ["2.10", "6", "1.0", "10", ".5", "1e3", "1.5E-3", "0x1F", "0o17", ".inf", "-.Inf", ".nan", "+1", "y", "N"] {
            #expect(ManifestEditor.yamlValue(number) == "\"\(number)\"", "\(number)")
        }
        for word in ["1.2.3", "0.10.0", "latest", "v2.10", "2024-01-01", "e3", "1e", "x1", "main-snapshot"] {
            #expect(ManifestEditor.yamlValue(word) == word, "\(word)")
        }
    }
}
