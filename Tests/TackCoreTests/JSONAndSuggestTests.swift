@testable import TackCore
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

/// `current --json` is written byte by byte on the cold path; it must be what the `JSON` value
/// it replaced wrote, for any row.
@Suite struct CurrentReportJSONTests {
    @Test func rowsAreWrittenAsTheJSONValueWritesThem() {
        let origin = Origin(kind: .manifest, file: "/w/tack.yml", line: 2, column: 3)
        let rows = [
            CurrentTool(tool: "jq", requested: "1.7", version: "1.7.1", backend: "url", source: "/w/tack.yml", line: 2, installed: true,
                        origin: origin, installDirectory: nil),
            CurrentTool(tool: "odd", requested: "path:./a \"b\" \\ \u{7} é\n", version: nil, backend: "path", source: "TACK_ODD_VERSION",
                        line: nil, installed: false, origin: origin, installDirectory: nil),
        ]
        func value(_ tools: [CurrentTool]) -> String {
            JSON.array(tools.map { t in
                .object([
                    ("tool", .string(t.tool)), ("requested", .string(t.requested)),
                    ("version", t.version.map({ JSON.string($0) }) ?? .null), ("backend", .string(t.backend)),
                    ("source", .string(t.source)), ("line", t.line.map({ JSON.int($0) }) ?? .null), ("installed", .bool(t.installed)),
                ])
            }).serialized()
        }
        #expect(CurrentReport.json(rows) == value(rows))
        #expect(CurrentReport.json([]) == "[]")
        let answers = CurrentReport.answers(rows, home: nil)
        #expect(answers.first { $0.key == "current --json" }?.output == value(rows) + "\n")
        #expect(answers.first { $0.key == "current jq --json" }?.output == value([rows[0]]) + "\n")
    }
}
