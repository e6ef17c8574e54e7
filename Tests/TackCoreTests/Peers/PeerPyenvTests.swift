import Testing
@testable import TackCore

/// pyenv's own cases for .python-version and PYENV_VERSION (test/version-file-read.bats,
/// test/version-name.bats, test/version.bats), in tack's words. PYENV_VERSION is
/// TACK_PYTHON_VERSION here. The peer's test name is beside each case.
@Suite struct PeerPyenvTests {
    /// version-file-read.bats: the versions the file lists, in order.
    @Test(arguments: [
        ("reads simple version file", "3.3.5\n", ["3.3.5"]),
        ("ignores leading spaces", "  3.3.5\n", ["3.3.5"]),
        ("reads only the first word from file", "3.3.5 2.7.6 hi\n", ["3.3.5"]),
        ("loads *not* only the first line in file", "2.7.6 one\n3.3.5 two\n", ["2.7.6", "3.3.5"]),
        ("ignores leading blank lines", "\n3.3.5\n", ["3.3.5"]),
        ("handles the file with no trailing newline", "2.7.6", ["2.7.6"]),
        ("ignores carriage returns", "3.3.5\r\n", ["3.3.5"]),
        ("ignores carriage returns (a CRLF comment line)", "# comment\r\n3.3.5\r\n", ["3.3.5"]),
        ("skips comment lines", "3.9.3\n3.8.9\n  # 3.4.0\n#3.3.7\n2.7.16\n", ["3.9.3", "3.8.9", "2.7.16"]),
        ("version with prefix in name (version-name.bats)", "python-2.7.11\n", ["2.7.11"]),
    ])
    func versionFileRead(_ peerTest: String, _ text: String, _ expected: [String]) throws {
        #expect(try versions(.pythonVersion, text) == expected, "\(peerTest)")
        #expect(try skipped(.pythonVersion, text).isEmpty, "\(peerTest)")
    }

    @Test(arguments: [
        ("fails for blank file", "\n"),
        ("(tack) a comment-only file", "   # full line comment\n"),
    ])
    func pinsNothing(_ peerTest: String, _ text: String) throws {
        #expect(try versions(.pythonVersion, text) == nil, "\(peerTest)")
        #expect(try skipped(.pythonVersion, text).isEmpty, "\(peerTest)")
    }

    /// Lines pyenv skips with a warning; the other lines still pin.
    @Test(arguments: [
        ("skips `..' relative path traversal", "..\n", [String]?.none, 1),
        ("skips glob path traversal", "../*\n3.9.3\n", ["3.9.3"], 1),
        ("skips relative paths that lead outside of versions", "../3.10.3/envs/test", nil, 1),
        // A deliberate difference ("allows relative paths that exist and stay within
        // versions"): pyenv runs a virtualenv inside a version; a tack version never holds
        // `/` or `..`, so the line is skipped.
        ("allows relative paths that exist and stay within versions", "3.10.3/envs/../test\n3.10.3\n", ["3.10.3"], 1),
    ])
    func skipsLinesItCannotUse(_ peerTest: String, _ text: String, _ expected: [String]?, _ skippedLines: Int) throws {
        #expect(try versions(.pythonVersion, text) == expected, "\(peerTest)")
        let warnings = try skipped(.pythonVersion, text)
        #expect(warnings.count == skippedLines, "\(peerTest)")
        #expect(warnings.allSatisfy { $0.hasPrefix("/p/.python-version:") && $0.hasSuffix("the line is skipped") }, "\(peerTest)")
    }

    /// version-name.bats and version.bats: the variable takes a list; the first installed
    /// version of it runs, else the first.
    @Test(arguments: [
        ("PYENV_VERSION has precedence over local", "3.5.1", ["2.7.11", "3.5.1"], "3.5.1"),
        ("one missing version (second missing)", "3.5.1:1.2", ["3.5.1"], "3.5.1"),
        ("one missing version (first missing)", "1.2:3.5.1", ["3.5.1"], "3.5.1"),
        ("set by PYENV_VERSION, one missing", "3.3.3:1.2", ["3.3.3"], "3.3.3"),
        ("set by PYENV_VERSION, two missing", "3.4.2:3.3.3:1.2", ["3.3.3"], "3.3.3"),
        ("falls back to pyenv-latest", "2.7", ["2.7.11"], "2.7.11"),
        ("pyenv-latest fallback with prefix in name", "python-3.12", ["3.12.6"], "3.12.6"),
        ("(tack) asdf's spaces separate versions too", "1.2 3.5.1", ["3.5.1"], "3.5.1"),
    ])
    func environmentVariable(_ peerTest: String, _ value: String, _ installed: [String], _ expected: String) throws {
        let m = Machine(files: ["/p/.python-version": "2.7.11\n"], installed: ["python": installed], env: ["TACK_PYTHON_VERSION": value])
        #expect(try m.current("python", in: "/p") == expected, "\(peerTest)")
    }

    /// version-name.bats, "missing version": nothing installed, the first version stays.
    @Test func missingVersion() throws {
        let m = Machine(env: ["TACK_PYTHON_VERSION": "1.2.0:1.3.0"])
        #expect(try m.pin("python", in: "/p") == "1.2.0 (TACK_PYTHON_VERSION)")
        #expect(try m.current("python", in: "/p") == "1.2.0")
    }

    /// version-name.bats, "local file has precedence over global"; version.bats, "set by
    /// local file" and "set by global file".
    @Test func setBy() throws {
        var m = Machine(files: ["/home/me/.config/tack/tack.yml": "tools:\n  python: 2.7.11\n"], installed: ["python": ["2.7.11", "3.5.1"]])
        #expect(try m.pin("python", in: "/home/me/p") == "2.7.11 (~/.config/tack/tack.yml:2)")
        m.files["/home/me/p/.python-version"] = "3.5.1\n"
        #expect(try m.pin("python", in: "/home/me/p") == "3.5.1 (~/p/.python-version:1)")
    }

    /// Several lines: the first one installed, else the first.
    @Test func severalLinesPickTheFirstInstalled() throws {
        let file = ["/p/.python-version": "3.12.1\n3.11.7\n"]
        #expect(try Machine(files: file, installed: ["python": ["3.11.7"]]).current("python", in: "/p") == "3.11.7")
        #expect(try Machine(files: file, installed: ["python": ["3.12.1", "3.11.7"]]).current("python", in: "/p") == "3.12.1")
        #expect(try Machine(files: file).pin("python", in: "/p") == "3.12.1 (/p/.python-version:1)")
    }

    /// A deliberate difference (version-name.bats, "pyenv version started by python-"):
    /// pyenv runs a version directory literally named `python-3.12.6`; tack strips the prefix
    /// from the variable as from the file, and runs 3.12.6.
    @Test func differencePrefixIsAlwaysStripped() throws {
        let m = Machine(installed: ["python": ["3.12.6"]], env: ["TACK_PYTHON_VERSION": "python-3.12.6"])
        #expect(try m.current("python", in: "/p") == "3.12.6")
    }
}
