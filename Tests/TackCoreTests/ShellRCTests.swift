import TackCore
import Testing

/// The block `tack bootstrap --shell-rc` keeps in a start-up file: added once, replaced in
/// place, the rest of the file never touched, an incomplete block never guessed at.
@Suite struct ShellRCTests {
    let line = ShellRC.line(.bash, tack: "/opt/tack bin/tack")

    @Test func theBlockIsAddedOnceAndReplacedInPlace() throws {
        let original = "export EDITOR=vi\nalias ll='ls -l'\n"
        let added = try #require(try ShellRC.apply(original, line: line))
        #expect(added.hasPrefix(original + "\n" + ShellRC.begin + "\n"))
        #expect(added.hasSuffix(ShellRC.end + "\n"))
        #expect(line == "eval \"$('/opt/tack bin/tack' activate bash)\"", "the path is quoted for the shell")
        #expect(try ShellRC.apply(added, line: line) == nil, "a second run changes nothing")
        let moved = try #require(try ShellRC.apply(added, line: ShellRC.line(.bash, tack: "/usr/local/bin/tack")))
        #expect(moved.hasPrefix(original) && moved.contains("/usr/local/bin/tack") && !moved.contains("/opt/tack"))
        #expect(moved.components(separatedBy: ShellRC.begin).count == 2, "still one block")
    }

    @Test func anIncompleteBlockIsAnErrorAndEachShellHasItsFile() throws {
        #expect(throws: TackError.self) { _ = try ShellRC.apply("a\n\(ShellRC.begin)\nb\n", line: line) }
        #expect(try ShellRC.apply("", line: line) == ShellRC.begin + "\n" + line + "\n" + ShellRC.end + "\n")
        #expect(ShellRC.file(.bash, home: "/h", environment: [:]) == "/h/.bashrc")
        #expect(ShellRC.file(.zsh, home: "/h", environment: ["ZDOTDIR": "/z"]) == "/z/.zshrc")
        #expect(ShellRC.file(.zsh, home: "/h", environment: ["ZDOTDIR": ""]) == "/h/.zshrc")
        #expect(ShellRC.file(.fish, home: "/h", environment: [:]) == "/h/.config/fish/config.fish")
        #expect(ShellRC.line(.fish, tack: "/t/tack").hasSuffix(" activate fish | source"))
    }
}
