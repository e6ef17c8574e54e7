import Testing
@testable import TackCore

func compat(_ file: CompatibleFile, _ text: String) throws -> [ToolRequest] {
    try file.parse(Array(text.utf8), path: "/p/\(file.rawValue)")
}

func compatError(_ file: CompatibleFile, _ text: String) -> String? {
    do {
        _ = try compat(file, text)
        return nil
    } catch { return (error as! TackError).message }
}

@Suite struct CompatibleFileTests {
    /// (file, contents, expected "tool requirement line" for each pin)
    @Test(arguments: [
        (CompatibleFile.toolVersions, "ruby 3.3.0\nnodejs 20.11.1 18.0.0 # comment\n# a comment\n\npython system\n", ["ruby 3.3.0 1", "node 20.11.1 2", "python system 5"]),
        (.toolVersions, "golang ref:v1.22\nswiftlint path:/src/swiftlint\r\n", ["go ref:v1.22 1", "swiftlint path:/src/swiftlint 2"]),
        (.rubyVersion, "ruby-3.3.0\n", ["ruby 3.3.0 1"]),
        (.rubyVersion, "3.2.2", ["ruby 3.2.2 1"]),
        (.rubyVersion, "system\n", ["ruby system 1"]),
        (.pythonVersion, "# pyenv\n3.12.1\n3.11.7\n", ["python 3.12.1 2"]),
        (.nodeVersion, "v20.11.1\n", ["node 20.11.1 1"]),
        (.nvmrc, "20\n", ["node 20 1"]),
        (.swiftVersion, "6.0.3\n", ["swift 6.0.3 1"]),
        (.mintfile, "realm/SwiftLint@0.54.0\n# comment\nnicklockwood/SwiftFormat\nyonaskolb/XcodeGen@2.40.1 # pinned\n", ["swiftlint 0.54.0 1", "swiftformat latest 3", "xcodegen 2.40.1 4"]),
    ])
    func reads(_ file: CompatibleFile, _ text: String, _ expected: [String]) throws {
        let pins = try compat(file, text)
        #expect(pins.map { "\($0.name) \($0.requirement) \($0.origin.line)" } == expected)
        #expect(pins.allSatisfy { $0.origin.kind == file.kind && $0.origin.file == "/p/\(file.rawValue)" })
    }

    @Test func mintfileSource() throws {
        let pins = try compat(.mintfile, "realm/SwiftLint@0.54.0\n")
        #expect(pins[0].source == .git("https://github.com/realm/SwiftLint.git"))
    }

    @Test(arguments: [
        (CompatibleFile.rubyVersion, "../../../tmp/evil\n", "/p/.ruby-version:1:1: expected a version of ruby, found \"../../../tmp/evil\": `/` is not allowed in a version requirement"),
        (.rubyVersion, "\n\n", "/p/.ruby-version:1: the file is empty; write the ruby version in it, like `3.3.0`"),
        (.nvmrc, "lts/*\n", "/p/.nvmrc:1:1: node version \"lts/*\" is an alias (like `lts/*` or `node`); aliases are not supported yet — write a version number like `20.11.1`"),
        (.nvmrc, "lts/hydrogen\n", "/p/.nvmrc:1:1: node version \"lts/hydrogen\" is an alias (like `lts/*` or `node`); aliases are not supported yet — write a version number like `20.11.1`"),
        (.nodeVersion, "node\n", "/p/.node-version:1:1: node version \"node\" is an alias (like `lts/*` or `node`); aliases are not supported yet — write a version number like `20.11.1`"),
        (.toolVersions, "ruby\n", "/p/.tool-versions:1:1: `ruby` has no version; write `ruby 1.2.3`"),
        (.toolVersions, "ruby 3.3.0\nruby 3.2.0\n", "/p/.tool-versions:2:1: `ruby` is listed twice (first on line 1)"),
        (.toolVersions, "Ruby 3.3.0\n", "/p/.tool-versions:1:1: `Ruby` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"),
        (.toolVersions, "ruby 3.3;reboot\n", "/p/.tool-versions:1:6: expected a version of ruby, found \"3.3;reboot\": `;` is not allowed in a version requirement"),
        (.mintfile, "SwiftLint@1.0\n", "/p/Mintfile:1:1: expected `owner/repo@version`, found \"SwiftLint@1.0\""),
        (.mintfile, "realm/SwiftLint@../x\n", "/p/Mintfile:1:17: expected a version of swiftlint, found \"../x\": `/` is not allowed in a version requirement"),
        (.mintfile, "realm/SwiftLint@1 extra\n", "/p/Mintfile:1:19: expected one `owner/repo@version` per line, found more after it"),
        (.pythonVersion, "pypy3.10-7.3.15\n", "/p/.python-version:1:1: expected a version of python, found \"pypy3.10-7.3.15\": `pypy3.10-7.3.15` is not a version (versions look like 1.2.3, v1.2 or 20240101)"),
        (.swiftVersion, "ref:main\n", "/p/.swift-version:1:1: expected a version of swift, found \"ref:main\""),
    ])
    func badInput(_ file: CompatibleFile, _ text: String, _ expected: String) {
        #expect(compatError(file, text) == expected)
    }
}
