import Testing
@testable import TackCore

@Suite struct RequirementTests {
    @Test(arguments: [
        // prefix
        ("1.2", "1.2.7", true), ("1.2", "1.2", true), ("1.2", "1.20.0", false), ("1.2", "1.3.0", false),
        ("1.2", "1.2.8-rc1", false), ("1.2.3", "1.2.3", true), ("1.2.3", "1.2.4", false), ("v1.2", "1.2.1", true),
        ("2.0.0-rc1", "2.0.0-rc1", true), ("20240101", "20240101", true),
        ("1.1.0", "1.1.5", false), ("2.0", "2.1.0", false), ("1.2.0", "1.2", true), ("1.0", "1.0.7", true),
        // Bundler's pessimistic operator
        ("~> 1.2", "1.9", true), ("~> 1.2", "2.0", false), ("~> 1.2", "1.1", false),
        ("~> 1.2.3", "1.2.9", true), ("~> 1.2.3", "1.3.0", false), ("~> 1", "1.9", true), ("~> 1", "2.0", false),
        ("~> 0.54", "0.54.1", true), ("~> 0.54", "0.99", true), ("~> 1.9", "1.10", true),
        // caret
        ("^1.2", "1.9.9", true), ("^1.2", "2.0.0", false), ("^0.2.3", "0.2.9", true), ("^0.2.3", "0.3.0", false),
        ("^0.0.3", "0.0.3", true), ("^0.0.3", "0.0.4", false),
        // ranges
        (">= 1.0, < 2", "1.5", true), (">= 1.0, < 2", "2.0", false), (">= 1.0, < 2", "0.9", false),
        (">= 24, < 25", "24.10.0", true), ("> 1.0", "1.0", false), ("<= 1.0", "1.0", true),
        ("!= 1.5, >= 1", "1.5", false), ("= 1.4", "1.4.0", true), (">= 2.0.0-rc1", "2.0.0-rc2", true),
        (">= 1.0", "2.0.0-rc1", false),
        // latest
        ("latest", "9.9", true), ("latest", "10.0-beta", false),
    ])
    func matching(_ req: String, _ version: String, _ expected: Bool) throws {
        let r = try Requirement.parse(req)
        #expect(r.matches(try #require(Version(version))) == expected, "\(req) vs \(version)")
    }

    @Test func best() throws {
        let versions = ["0.53.0", "0.54.0", "0.54.1", "0.55.0-rc1", "1.0.0"].compactMap({ Version($0) })
        #expect(try Requirement.parse("~> 0.54").best(of: versions)?.text == "0.54.1")
        #expect(try Requirement.parse("latest").best(of: versions)?.text == "1.0.0")
        #expect(try Requirement.parse("0.53").best(of: versions)?.text == "0.53.0")
        #expect(try Requirement.parse("2").best(of: versions) == nil)
    }

    @Test(arguments: [
        ("system", Requirement.system), ("latest", .latest), ("ref:main", .ref("main")),
        ("ref:feature/x", .ref("feature/x")), ("path:~/src/tool", .path("~/src/tool")),
    ])
    func keywords(_ text: String, _ expected: Requirement) throws {
        #expect(try Requirement.parse(text) == expected)
    }

    @Test(arguments: [
        ("", Requirement.ParseError.empty),
        ("../../../tmp/evil", .unsafe("/")),
        ("1.2;rm -rf", .unsafe(";")),
        ("$(reboot)", .unsafe("$")),
        ("1.2`x`", .unsafe("`")),
        ("1.0\u{7}", .unsafe("\u{7}")),
        ("1..2", .invalid("`..` is not part of any version")),
        ("~>> 1.2", .invalid("`> 1.2` is not a version (versions look like 1.2.3, v1.2 or 20240101)")),
        (">=", .invalid("an operator without a version")),
        ("ref:../x", .invalid("`../x` is not a valid git ref")),
        ("ref:a;b", .unsafe(";")),
    ])
    func rejects(_ text: String, _ expected: Requirement.ParseError) {
        #expect(throws: expected) { try Requirement.parse(text) }
    }

    @Test func exactVersion() throws {
        #expect(try Requirement.parse("0.57.0").exactVersion?.text == "0.57.0")
        #expect(try Requirement.parse("1.2").exactVersion == nil)
        #expect(try Requirement.parse("= 1.4").exactVersion?.text == "1.4")
        #expect(try Requirement.parse("~> 1.2").exactVersion == nil)
    }

    @Test func descriptionRoundTrips() throws {
        for text in ["1.2.3", "~> 0.54", "^1.2", ">= 1.0, < 2", "latest", "system", "ref:v1.2"] {
            #expect(try Requirement.parse(text).description == text)
            #expect(try Requirement.parse(Requirement.parse(text).description) == Requirement.parse(text))
        }
    }
}
