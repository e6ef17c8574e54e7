import Testing
@testable import TackCore

/// asdf's own cases for .tool-versions (internal/toolversions/toolversions_test.go,
/// test/utils.bats, test/current_command.bats), in tack's words. ASDF_<TOOL>_VERSION is
/// TACK_<TOOL>_VERSION here. The peer's test name is beside each case.
@Suite struct PeerAsdfTests {
    @Test(arguments: [
        ("returns list of tool versions when populated file", "ruby 2.0.0", ["ruby 2.0.0"]),
        ("returns empty list with found true and no error when empty content", "", []),
        ("returns list with one tool when single tool in content", "lua 5.4.5 5.4.6", ["lua 5.4.5|5.4.6"]),
        ("returns list with multiple tools when multiple tools in content", "lua 5.4.5 5.4.6\nruby 2.0.0", ["lua 5.4.5|5.4.6", "ruby 2.0.0"]),
        ("returns empty list with found false when tool not found", "lua 5.4.5", ["lua 5.4.5"]),
        ("when passed ref and version returns struct with type of 'ref'", "dummy ref:abc123", ["dummy ref:abc123"]),
        ("when passed 'system' returns struct with type of 'system'", "dummy system", ["dummy system"]),
        ("parse_asdf_version_file should output version", "dummy 0.1.0\n", ["dummy 0.1.0"]),
        ("parse_asdf_version_file should output path version with spaces", "dummy path:/some/dummy path\n", ["dummy path:/some/dummy path"]),
        ("parse_asdf_version_file should output path version with tilda", "dummy path:~/some/dummy path\n", ["dummy path:~/some/dummy path"]),
        ("get_preset_version_for should return branch reference version", "dummy ref:master\n", ["dummy ref:master"]),
        ("strip_tool_version_comments removes lines that only contain comments", "# comment line\nruby 2.0.0\n", ["ruby 2.0.0"]),
        ("... even with missing newline", "# comment line", []),
        ("strip_tool_version_comments removes trailing comments on lines containing version information", "ruby 2.0.0 # inline comment\n", ["ruby 2.0.0"]),
        ("... even with missing newline", "ruby 2.0.0 # inline comment", ["ruby 2.0.0"]),
        ("strip_tool_version_comments removes all comments from the version file", "ruby 2.0.0 # inline comment\n# comment line\nerlang 18.2.1 # inline comment\n", ["ruby 2.0.0", "erlang 18.2.1"]),
        ("prints if .tool-versions file has carriage returns (read all the same)", "nodejs 19.6.0\r\n", ["node 19.6.0"]),
        ("(issue) several CRLF lines", "ruby 2.0.0\r\nnodejs 19.6.0\r\n", ["ruby 2.0.0", "node 19.6.0"]),
        ("current should handle long version name", "dummy nightly-2000-01-01\n", ["dummy nightly-2000-01-01"]),
        ("current should handle multiple versions", "dummy 1.2.0 1.1.0\n", ["dummy 1.2.0|1.1.0"]),
        ("current should handle comments", "dummy 1.2.0  # this is a comment\n", ["dummy 1.2.0"]),
        ("should always match the tool name exactly", "dummy 1.1.0\ny 2.1.0\n", ["dummy 1.1.0", "y 2.1.0"]),
        ("(tack) a vendor-prefixed version word", "java temurin-17.0.2+8\n", ["java temurin-17.0.2+8"]),
        ("(tack) golang is go", "golang 1.22.1\n", ["go 1.22.1"]),
        // asdf's findToolVersionsInContent answers with the first line for a tool.
        ("returns unique slice of tool versions when tool appears multiple times in slice", "foo 1\nfoo 2\n", ["foo 1"]),
        ("returns unique slice of tool versions when given slice with multiple tools", "foo 1\nbar 2\nfoo 2\nbar 2\n", ["foo 1", "bar 2"]),
    ])
    func reads(_ peerTest: String, _ text: String, _ expected: [String]) throws {
        #expect(try read(.toolVersions, text).get() == expected, "\(peerTest)")
    }

    @Test(arguments: [
        // A deliberate difference: asdf keeps an empty `ref:` and fails at install; tack
        // says so when reading.
        ("when passed 'ref:' returns struct with type of 'ref' and empty value", "dummy ref:\n"),
        ("(tack) a tool without a version", "ruby\n"),
        ("(tack) a path in a version", "ruby ../../../tmp/evil\n"),
        ("(tack) a shell character", "ruby 3.3;reboot\n"),
        ("(tack) a tool name that is not one", "Ruby 3.3.0\n"),
    ])
    func refused(_ peerTest: String, _ text: String) {
        #expect(isUnreadable(.toolVersions, text), "\(peerTest)")
    }

    /// current_command.bats: the first version installed, else the first.
    @Test func severalVersions() throws {
        let file = ["/p/.tool-versions": "dummy 1.0 3.0 2.0.0\n"]
        #expect(try Machine(files: file).pin("dummy", in: "/p") == "1.0 (/p/.tool-versions:1)")
        #expect(try Machine(files: file, installed: ["dummy": ["3.0"]]).pin("dummy", in: "/p") == "3.0 (/p/.tool-versions:1)")
        #expect(try Machine(files: file, installed: ["dummy": ["2.0.0", "3.0"]]).pin("dummy", in: "/p") == "3.0 (/p/.tool-versions:1)")
        #expect(try Machine(files: ["/p/.tool-versions": "dummy 1.2.0 1.1.0\n"], installed: ["dummy": ["1.1.0", "1.2.0"]]).current("dummy", in: "/p") == "1.2.0")
        // `system` always counts as installed.
        #expect(try Machine(files: ["/p/.tool-versions": "dummy 9.9.9 system\n"]).pin("dummy", in: "/p") == "system (/p/.tool-versions:1)")
    }

    /// current_command.bats, "current should handle long version name": an opaque version
    /// runs when exactly it is installed.
    @Test func opaqueVersionIsExact() throws {
        let m = Machine(files: ["/p/.tool-versions": "dummy nightly-2000-01-01\n"], installed: ["dummy": ["1.1.0", "nightly-2000-01-01"]])
        #expect(try m.current("dummy", in: "/p") == "nightly-2000-01-01")
    }

    /// utils.bats, "find_versions skips .tool-version file that don't list the plugin" and
    /// "get_preset_version_for returns the global version from home when project is outside
    /// of home": ~/.tool-versions is the global default.
    @Test func homeToolVersionsIsTheGlobalDefault() throws {
        var m = Machine(files: [
            "/home/me/.tool-versions": "dummy 0.1.0\n",
            "/home/me/project/.tool-versions": "another_plugin 0.3.0\n",
        ])
        #expect(try m.pin("dummy", in: "/home/me/project") == "0.1.0 (~/.tool-versions:1)")
        #expect(try m.pin("dummy", in: "/srv/project") == "0.1.0 (~/.tool-versions:1)")
        // Locked beside the global manifest, not in a project.
        #expect(try m.resolve(in: "/home/me/project").pin("dummy")?.lockDirectory == "/home/me/.config/tack")
        #expect(try m.resolve(in: "/home/me/project").projectRoot == "/home/me/project")
        // Below tack's own global manifest.
        m.files["/home/me/.config/tack/tack.yml"] = "tools:\n  dummy: 0.2.0\n"
        #expect(try m.pin("dummy", in: "/srv/project") == "0.2.0 (~/.config/tack/tack.yml:2)")
        // "get_preset_version_for returns the current version": a project's file beats it.
        m.files["/home/me/project/.tool-versions"] = "dummy 0.3.0\n"
        #expect(try m.pin("dummy", in: "/home/me/project") == "0.3.0 (~/project/.tool-versions:1)")
    }

    /// utils.bats, "get_preset_version_for returns the tool version from env if
    /// ASDF_{TOOL}_VERSION is defined"; "find_versions should return the version set by
    /// environment variable".
    @Test func environmentVariable() throws {
        let m = Machine(files: ["/p/.tool-versions": "dummy 0.2.0\n"], env: ["TACK_DUMMY_VERSION": "3.0.0"])
        #expect(try m.pin("dummy", in: "/p") == "3.0.0 (TACK_DUMMY_VERSION)")
        let list = Machine(installed: ["lua": ["5.4.6"]], env: ["TACK_LUA_VERSION": "5.4.5 5.4.6"])
        #expect(try list.pin("lua", in: "/p") == "5.4.6 (TACK_LUA_VERSION)")
    }

    /// utils.bats, "find_tool_versions will find a .tool-versions path if it exists in
    /// parent directory".
    @Test func foundInAParentDirectory() throws {
        let m = Machine(files: ["/home/me/project/.tool-versions": "dummy 0.1.0\n"])
        #expect(try m.pin("dummy", in: "/home/me/project/child") == "0.1.0 (~/project/.tool-versions:1)")
    }
}
