import TackCore
import Testing

/// `--json` output and "did you mean": stable, escaped, and close only when close.
@Suite struct JSONAndSuggestTests {
    @Test func jsonKeepsKeyOrderAndEscapesWhatItMust() {
        let value = JSON.object([("b", .int(2)), ("a", .array([.null, .bool(true), .string("q\"\\\n\t\u{1}é")]))])
        #expect(value.serialized() == #"{"b":2,"a":[null,true,"q\"\\\n\t\u0001é"]}"#)
    }

    @Test func suggestionsAreNearWordsOnly() {
        #expect(Suggest.nearest("verison", in: ["version", "ref", "path"]) == "version")
        #expect(Suggest.nearest("zzz", in: ["version", "ref", "path"]) == nil)
        #expect(Checksum.isSHA256(String(repeating: "aB", count: 32)))
        #expect(!Checksum.isSHA256(String(repeating: "g", count: 64)) && !Checksum.isSHA256("abc"))
        #expect(Origin(kind: .manifest, file: "/home/u/app/tack.yml", line: 3, column: 1).describe(home: "/home/u") == "~/app/tack.yml:3")
        #expect(Origin(kind: .environment, file: "TACK_JQ_VERSION", line: 0, column: 0).describe(home: nil) == "TACK_JQ_VERSION")
    }
}
