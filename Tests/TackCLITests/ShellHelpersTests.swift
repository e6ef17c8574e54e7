import Foundation
import Testing
import TackCore

/// The helpers every caller goes through: finding a program on PATH, quoting for a shell, and
/// the wrapper scripts written into `bin/`.
@Suite(.ownThreads) struct ShellHelpersTests {
    func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tack-helpers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func file(_ path: String, _ text: String = "#!/bin/sh\n", mode: Int = 0o755) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // As tack writes files: its descriptor closed on exec, so no child another test starts
        // holds it open and running it at once never fails with "text file busy".
        try LocalFileSystem().writeAtomically(path, Array(text.utf8), permissions: UInt16(mode))
    }

    /// What `sh -c SCRIPT sh ARGS...` prints.
    func sh(_ script: String, _ arguments: [String] = [], environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> String {
        try runProgram("/bin/sh", ["-c", script, "sh"] + arguments, environment: environment)
    }

    @Test func findsTheFirstExecutableRegularFileOutsideSkippedDirectories() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/a/ruby", withIntermediateDirectories: true)  // a directory
        try file(root + "/b/ruby", mode: 0o644)  // not executable
        try file(root + "/shims/ruby")
        try file(root + "/c/ruby")
        try file(root + "/d/ruby")
        let path = [root + "/a", "", root + "/b", root + "/shims", root + "/c", root + "/d"].joined(separator: ":")
        #expect(ExecutableSearch(path: path, skipping: [root + "/shims"]).find("ruby") == root + "/c/ruby")
        #expect(ExecutableSearch(path: path).find("ruby") == root + "/shims/ruby")
        #expect(ExecutableSearch(path: path).find("ruby") { !$0.hasPrefix(root + "/shims") && !$0.hasPrefix(root + "/c") } == root + "/d/ruby")
        #expect(ExecutableSearch(path: path).find("gem") == nil)
        #expect(ExecutableSearch(path: path).find("") == nil)
        // A name with a slash is a path, taken only when it is an executable file.
        #expect(ExecutableSearch(path: "").find(root + "/d/ruby") == root + "/d/ruby")
        #expect(ExecutableSearch(path: "").find(root + "/b/ruby") == nil)
        #expect(ExecutableSearch(path: "").find(root + "/a/ruby") == nil)
        // Relative entries, from the directory given; entries normalised, so skipping matches.
        let relative = ExecutableSearch(path: "shims/:./c", skipping: [root + "/shims"], directory: root)
        #expect(relative.find("ruby") == root + "/c/ruby")
        // No PATH at all: the default one.
        #expect(ExecutableSearch(environment: [:]).directories == ["/usr/bin", "/bin"])
        #expect(ExecutableSearch(environment: [:]).find("sh") != nil)
    }

    @Test(arguments: ["plain", "", "it's", "a b", "$HOME", "`id`", "back\\slash", "line\nbreak", "'", "''", "-n", "*", "über"])
    func posixQuotingRoundTrips(_ word: String) throws {
        #expect(try sh("printf '%s' " + ShellQuote.posix(word)) == word)
        #expect(try sh("printf '%s' " + ShellQuote.posixIfNeeded(word)) == word)
    }

    @Test func posixQuotingIfNeededLeavesPlainWordsAlone() {
        #expect(ShellQuote.posixIfNeeded("/usr/bin/swift") == "/usr/bin/swift")
        #expect(ShellQuote.posixIfNeeded("--jobs=2") == "--jobs=2")
        #expect(ShellQuote.posixIfNeeded("a b") == "'a b'")
        #expect(ShellQuote.posixIfNeeded("") == "''")
        #expect(ShellQuote.fish("it's \\") == "'it\\'s \\\\'")
    }

    @Test func wrapperScriptsExportUnsetAndPassEveryArgument() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try file(root + "/it's here/tool", "#!/bin/sh\nprintf '%s|' \"$GEM_HOME\" \"${RUBYOPT-unset}\" \"$@\"\n")
        let script = WrapperScript(
            comment: "tool from\nsomewhere",
            exports: [("GEM_HOME", "/g'ems $x"), ("1BAD", "x"), ("BAD-NAME", "y")],
            unsets: ["RUBYOPT", "NOT A NAME"],
            command: [root + "/it's here/tool"])
        let fs = LocalFileSystem()
        try script.write(to: root + "/bin-tool", fs: fs)
        #expect(ExecutableSearch.isExecutable(root + "/bin-tool"))
        let text = script.text
        #expect(text.hasPrefix("#!/bin/sh\n# Written by tack: tool from somewhere\n"))
        #expect(!text.contains("1BAD") && !text.contains("BAD-NAME") && !text.contains("NOT A NAME"))
        let out = try sh(ShellQuote.posix(root + "/bin-tool") + " \"$@\"", ["a b", "", "c'd"], environment: ["PATH": "/usr/bin:/bin", "RUBYOPT": "-w"])
        #expect(out == "/g'ems $x|unset|a b||c'd|")
    }

    @Test func inMemoryWrapperScriptsAreExecutableUntilReplaced() throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/tools/bin")
        try WrapperScript(comment: "x", command: ["/bin/true"]).write(to: "/tools/bin/x", fs: fs)
        #expect(fs.isExecutable("/tools/bin/x"))
        try fs.writeAtomically("/tools/bin/x", Array("plain".utf8))
        #expect(!fs.isExecutable("/tools/bin/x"))
        #expect(throws: FileSystemError.self) { try fs.makeExecutable("/tools/bin/none") }
    }
}
