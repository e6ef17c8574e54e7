import Testing
@testable import TackCore
import BackendKinds

/// mise's mise.toml read as a version file, through a TOML reader that takes all of TOML's
/// syntax (a file's other tables must not stop its [tools] from being read).
@Suite struct MiseTOMLTests {
    func read(_ text: String, _ file: CompatibleFile = .miseTOML) throws(TackError) -> CompatibleFile.Reading {
        try file.parse(Array(text.utf8), path: "/p/mise.toml", backends: .standard)
    }

    @Test func toolsAsMiseReadsThem() throws {
        let r = try read("""
            min_version = "2024.1.0"
            [env]
            NODE_ENV = "production"
            [tools]
            node = "20"                     # a prefix: the newest 20.x
            python = ["3.12", "3.11"]       # the first
            ruby = { version = "3.3.0", postinstall = "echo hi" }
            "aqua:hashicorp/terraform" = "1.9.5"
            "ubi:BurntSushi/ripgrep" = "latest"
            "github:cli/cli" = "prefix:2.62"
            "spm:nicklockwood/SwiftFormat" = "0.55.3"
            "pipx:black" = "24"
            "npm:prettier" = "3"
            nodejs_alias = { version = "1" }
            "core:go" = "1.23"
            [tasks.build]
            run = '''
            swift build
            echo "done"
            '''
            """)
        #expect(r.pins.map(\.name) == ["node", "python", "ruby", "terraform", "ripgrep", "cli", "swiftformat", "black", "nodejs_alias", "go"])
        #expect(r.pins.map(\.source.backend) == ["registry", "registry", "registry", "aqua", "release", "release", "git", "pip", "registry", "registry"])
        #expect(r.pins.first { $0.name == "swiftformat" }?.source.identity == "https://github.com/nicklockwood/SwiftFormat.git")
        #expect(r.pins.first { $0.name == "python" }?.requirement == .prefix(Version("3.12")!))
        #expect(r.pins.first { $0.name == "ripgrep" }?.requirement == .latest)
        #expect(r.pins.first { $0.name == "cli" }?.requirement == .prefix(Version("2.62")!))
        #expect(r.pins.first { $0.name == "node" }?.origin.describe(home: nil) == "/p/mise.toml:5")
        #expect(r.skipped.map(\.message) == [
            "/p/mise.toml:2: mise's [env], [tasks] are not tack's and are ignored; tack reads [tools]",
            "/p/mise.toml:13:1: mise's npm: backend is not one tack has; \"npm:prettier\" is skipped".replacingOccurrences(of: "\"npm:prettier\"", with: "npm:prettier"),
        ])
    }

    @Test(arguments: [
        ("[tools]\nnode = \"20\"\n[tools]\n", "/p/mise.toml:3:1: the table [tools] is defined twice"),
        ("[tools]\nnode = \"20\"\nnode = \"21\"\n", "/p/mise.toml:3:1: `node` is set twice (first on line 2)"),
        ("[tools]\nnode = \"20\n", "a string without its closing `\"`"),
        ("[tools\n", "a table header ends with `]`"),
        ("[tools]\nnode = \n", "expected a value"),
        ("[tools]\n\"aqua:a/tool\" = \"1\"\n\"github:b/tool\" = \"2\"\n", "are both named `tool`"),
        ("x = " + String(repeating: "[", count: 100) + "\n", "deeper than 64"),
        (String(repeating: "a.", count: 20_000) + "b = 1\n", "more than 64 dotted parts"),
        ("[" + String(repeating: "a.", count: 20_000) + "b]\n", "more than 64 dotted parts"),
    ])
    func whatCannotBeReadSaysWhere(text: String, message: String) {
        do throws(TackError) { _ = try read(text); Issue.record("read \(text)") } catch { #expect(error.message.contains(message), "\(error.message)") }
    }

    @Test func tomlSyntax() throws {
        let doc = try TOMLDocument("""
            # a comment
            title = "a \\"quoted\\" \\u00e9 word"
            literal = 'C:\\path'
            multi = \"\"\"
            one \\
              two\"\"\"
            raw = '''
            keep \\n as is'''
            nested = [[1, 2], ["a", { b = "c" }]]
            date = 1979-05-27T07:32:00Z
            dotted.key = "v"
            site."google.com" = true
            [[products]]
            name = "a"
            [[products]]
            name = "b"
            [a.b]\r
            c = 1
            """)
        #expect(doc.value(at: ["title"]) == .string("a \"quoted\" é word"))
        #expect(doc.value(at: ["literal"]) == .string("C:\\path"))
        #expect(doc.value(at: ["multi"]) == .string("one two"))
        #expect(doc.value(at: ["raw"]) == .string("keep \\n as is"))
        #expect(doc.value(at: ["date"]) == .scalar("1979-05-27T07:32:00Z"))
        #expect(doc.value(at: ["dotted", "key"]) == .string("v"))
        #expect(doc.value(at: ["site", "google.com"]) == .scalar("true"))
        #expect(doc.value(at: ["products", "name"]) == .string("b"))
        #expect(doc.value(at: ["a", "b", "c"]) == .scalar("1"))
        if case .array(let products)? = doc.value(at: ["products"]) { #expect(products.count == 2) } else { Issue.record("no products") }
    }

    @Test func theOtherFileNamesAreReadAlike() throws {
        for file in [CompatibleFile.miseLocalTOML, .dotMiseTOML, .configMiseTOML] {
            #expect(try read("[tools]\njq = \"1.7.1\"\n", file).pins.map(\.name) == ["jq"])
        }
    }
}
