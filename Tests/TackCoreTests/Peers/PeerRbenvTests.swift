import Testing
@testable import TackCore

/// rbenv's own cases for .ruby-version (test/version-file-read.bats, test/version-file.bats,
/// test/version-name.bats), in tack's words. The peer's test name is beside each case.
@Suite struct PeerRbenvTests {
    /// version-file-read.bats: what the first word of the file pins.
    @Test(arguments: [
        ("reads simple version file", "1.9.3\n", "1.9.3"),
        ("ignores leading spaces", "  1.9.3\n", "1.9.3"),
        ("reads only the first word from file", "1.9.3-p194@tag 1.8.7 hi\n", "1.9.3-p194@tag"),
        ("loads only the first line in file", "1.8.7 one\n1.9.3 two\n", "1.8.7"),
        ("ignores leading blank lines", "\n1.9.3\n", "1.9.3"),
        ("handles the file with no trailing newline", "1.8.7", "1.8.7"),
        ("ignores carriage returns", "1.9.3\r\n", "1.9.3"),
        ("ignores carriage returns (several CRLF lines)", "1.9.3\r\n1.8.7\r\n", "1.9.3"),
        ("version with prefix in name (version-name.bats)", "ruby-1.8.7\n", "1.8.7"),
        ("system version is not checked for existence (version-name.bats)", "system\n", "system"),
    ])
    func versionFileRead(_ peerTest: String, _ text: String, _ expected: String) throws {
        #expect(try versions(.rubyVersion, text) == [expected], "\(peerTest)")
    }

    /// rbenv fails to read these; tack reads them as pinning nothing, and says nothing.
    @Test(arguments: [
        ("fails for blank file", "\n"),
        ("(tack) an empty file", ""),
        ("(tack) a comment-only file", "   # full line comment\n"),
    ])
    func pinsNothing(_ peerTest: String, _ text: String) throws {
        #expect(try versions(.rubyVersion, text) == nil, "\(peerTest)")
    }

    @Test(arguments: [
        ("prevents directory traversal", "..\n"),
        ("prevents directory traversal", "../foo\n"),
        ("disallows path segments in version string", "foo/bar\n"),
        ("(tack) a leading `-` is never a version", "-rf\n"),
        ("(tack) a control character", "1.9\u{1b}[2J\n"),
    ])
    func refused(_ peerTest: String, _ text: String) {
        #expect(isUnreadable(.rubyVersion, text), "\(peerTest)")
    }

    /// version-file.bats: the nearest file wins, walking up.
    @Test func versionFileIsFoundWalkingUp() throws {
        var m = Machine(files: ["/home/me/project/.ruby-version": "1.9.3\n"])
        // "in current directory"
        #expect(try m.pin("ruby", in: "/home/me/project") == "1.9.3 (~/project/.ruby-version:1)")
        // "in parent directory"
        #expect(try m.pin("ruby", in: "/home/me/project/a/b") == "1.9.3 (~/project/.ruby-version:1)")
        // "topmost file has precedence" (the nearest)
        m.files["/home/me/project/a/.ruby-version"] = "1.8.7\n"
        #expect(try m.pin("ruby", in: "/home/me/project/a/b") == "1.8.7 (~/project/a/.ruby-version:1)")
    }

    /// version-name.bats: the variable beats the file; the file beats the global default.
    @Test func precedence() throws {
        var m = Machine(files: ["/home/me/project/.ruby-version": "1.8.7\n"], installed: ["ruby": ["1.8.7", "1.9.3"]])
        // "RBENV_VERSION has precedence over local"
        #expect(try m.current("ruby", in: "/home/me/project") == "1.8.7")
        m.env["TACK_RUBY_VERSION"] = "1.9.3"
        #expect(try m.current("ruby", in: "/home/me/project") == "1.9.3")
        // "local file has precedence over global"
        m.env = [:]
        m.files["/home/me/.config/tack/tack.yml"] = "tools:\n  ruby: 1.9.3\n"
        #expect(try m.current("ruby", in: "/home/me/project") == "1.8.7")
        #expect(try m.current("ruby", in: "/home/me") == "1.9.3")
    }

    /// version-name.bats, "ambiguous version shouldn't choose wrong minor version": a
    /// version that is not installed stays that version.
    @Test func missingVersionIsNotReplaced() throws {
        let m = Machine(files: ["/p/.ruby-version": "1.9.4\n"], installed: ["ruby": ["1.9.3-p484"]])
        #expect(try m.current("ruby", in: "/p") == "1.9.4")
    }

    /// A deliberate difference (version-name.bats, "ambiguous version chooses closest
    /// matching"): rbenv runs 1.9.3-p484 for `1.9.3`; to tack `-p484` is a pre-release part,
    /// so `1.9.3` means the release 1.9.3 (write `1.9.3-p484` to pin the patch level).
    @Test func differenceAmbiguousPatchLevel() throws {
        let m = Machine(files: ["/p/.ruby-version": "1.9.3\n"], installed: ["ruby": ["1.9.3-p484", "1.9.3-p448"]])
        #expect(try m.current("ruby", in: "/p") == "1.9.3")
        let exact = Machine(files: ["/p/.ruby-version": "1.9.3-p484\n"], installed: ["ruby": ["1.9.3-p484", "1.9.3-p448"]])
        #expect(try exact.current("ruby", in: "/p") == "1.9.3-p484")
    }
}
