@testable import TackCore
import Testing

/// The words tack accepts from files and the command line before they become paths, commands
/// or environment variables: a tool's name, a binary's name, a `bin:` path, and the path
/// arithmetic every caller shares.
@Suite struct NamesAndPathsTests {
    @Test func toolNamesAreNeverPathsOrOptions() {
        for good in ["jq", "swift-format", "node.js", "a_b", "7zip"] { #expect(ToolName.isValid(good), "\(good)") }
        for bad in ["", "SwiftLint", "-rf", ".hidden", "a/b", "../x", "a b", "a\nb", String(repeating: "a", count: 65), "é"] {
            #expect(!ToolName.isValid(bad), "\(bad.debugDescription)")
        }
        #expect(ToolName.environmentVariable("swift-format") == "TACK_SWIFT_FORMAT_VERSION")
        #expect(ToolName.environmentVariable("node.js") == "TACK_NODE_JS_VERSION")
    }

    @Test func binaryNamesAndBinPathsStayInside() {
        for good in ["tool", "Tool", "tool.sh", "x-1"] { #expect(ToolName.isValidBinaryName(good), "\(good)") }
        for bad in ["", ".", "..", "-x", "a/b", "a\u{1B}b"] { #expect(!ToolName.isValidBinaryName(bad), "\(bad.debugDescription)") }
        #expect(BinSpec.split("bin/tool") == ("bin/tool", "tool"))
        #expect(BinSpec.split("dist/tool-linux=tool") == ("dist/tool-linux", "tool"))
        for good in ["bin/tool", "a/./b", "tool"] { #expect(BinSpec.isSafeRelativePath(good), "\(good)") }
        for bad in ["", "/usr/bin/tool", "../tool", "a/../../b", "a\nb"] { #expect(!BinSpec.isSafeRelativePath(bad), "\(bad.debugDescription)") }
    }

    @Test func pathsAreNormalisedJoinedAndShortenedForPeople() {
        #expect(Paths.normalize("/a//b/./c/../d/") == "/a/b/d")
        #expect(Paths.normalize("/../..") == "/")
        // Paths that are normal already come back as they are; every other form is rewritten.
        let cases: [(String, String)] = [
            ("/", "/"), ("/a", "/a"), ("/a/b.c/.d/..e/...", "/a/b.c/.d/..e/..."), ("", "/"), ("a/b", "/a/b"),
            ("/a/", "/a"), ("//", "/"), ("/a//b", "/a/b"), ("/.", "/"), ("/a/.", "/a"), ("/a/..", "/"),
            ("/a/./b", "/a/b"), ("/a/../b", "/b"), ("/..a/b..", "/..a/b.."), ("/é/ü", "/é/ü"),
        ]
        for (path, normal) in cases {
            #expect(Paths.normalize(path) == normal, "\(path)")
            #expect(Paths.isNormal(path) == (path == normal), "\(path)")
        }
        #expect(Paths.join("/a/b", "../c") == "/a/c")
        #expect(Paths.join("/a", "/etc/x") == "/etc/x", "an absolute name wins")
        #expect(Paths.join("/", "x") == "/x")
        #expect(Paths.dirname("/a/b") == "/a" && Paths.dirname("/a") == "/" && Paths.dirname("a") == ".")
        #expect(Paths.basename("/a/b.txt") == "b.txt" && Paths.basename("b") == "b")
        // A `/` a combining mark follows is a separator all the same, as the file system has it.
        #expect(Paths.dirname("/a/\u{301}b") == "/a" && Paths.basename("/a/\u{301}b") == "\u{301}b")
        #expect(Paths.abbreviate("/home/u/p", home: "/home/u") == "~/p")
        #expect(Paths.abbreviate("/home/u", home: "/home/u") == "~")
        #expect(Paths.abbreviate("/home/user2/p", home: "/home/u") == "/home/user2/p", "a longer name is not under home")
        #expect(Paths.abbreviate("/p", home: "/") == "/p")
    }

    @Test func whatReachesATerminalHasNoEscapeSequences() {
        #expect(Terminal.escapeControls("plain text\n") == "plain text\n")
        #expect(Terminal.escapeControls("\u{1B}[31mred") == "\\u{1B}[31mred")
        #expect(Terminal.escapeControls("a\u{7F}b\u{9B}c") == "a\\u{7F}b\\u{9B}c")
        #expect(Terminal.word("two\nlines\t") == "two\\nlines\\u{09}")
        #expect(Terminal.word(String(repeating: "x", count: 100), limit: 10) == String(repeating: "x", count: 10) + "…")
        #expect(formatSize(512) == "512 bytes" && formatSize(2048) == "2 KiB" && formatSize(3 << 19) == "1.5 MiB")
        #expect(formatSize(5 << 30) == "5.0 GiB" && formatSize(Int(1.25 * Double(1 << 40))) == "1.2 TiB")
    }
}
