import Foundation
import Testing
@testable import TackCore
@testable import YAML

/// `SimpleYAML` reads what tack writes without libyaml, and must build exactly the nodes
/// libyaml's events build (values, quoting, marks and ends), or decline and leave the file to
/// libyaml: over hand-picked documents, every lock tack's writer can make, and thousands of
/// mutations of the fuzzer's seeds.
@Suite struct SimpleYAMLTests {
    /// Both readers on `text`: libyaml's node (or its error) and the simple reader's, if it
    /// read the file at all.
    func both(_ bytes: [UInt8]) -> (full: Result<Node?, YAMLError>, simple: Node?) {
        let full: Result<Node?, YAMLError>
        do { full = .success(try YAMLParser.parseWithLibYAML(bytes, aliases: false)) } catch { full = .failure(error) }
        return (full, SimpleYAML.parse(bytes))
    }

    func agree(_ bytes: [UInt8]) -> Bool {
        let (full, simple) = both(bytes)
        guard let simple else { return true }
        if case .success(let node?) = full { return node == simple }
        return false
    }

    @Test func readsWhatTackWritesAsLibYAMLDoes() {
        let documents = [
            "version: 1\ntools:\n  jq:\n    backend: \"url\"\n    requested: \"1.7\"\n    sha256:\n      linux-x86_64: \"ab\"\n    source: \"u\"\n    version: \"1.7.1\"\n",
            "# tack.lock: written by tack\n# more\nversion: 1\nplatforms: [\"linux-x86_64\", \"darwin-arm64\"]\ntools: {}\n",
            "version: 1\ntools:\n  a:\n    binaries: [\"bin/a\", \"bin/b\"]\n    options: {}\n    sha256:\n      x: \"1\"\n  b:\n    version: \"2\"\n",
            "tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }\n  jq: 1.7.1\n\n  rg: { version: \"14\" , bin: rg }\nlist: [ rg , \"x\" ]\n",
            "tools:\n  a: \"quote \\\" backslash \\\\ newline \\n tab \\t return \\r # not a comment: yes\"\n",
            "\"quoted key\": \"v\"\nplain.key_with-dots/and+plus: word\n",
            "a:\n  b:\n    c:\n      d: \"e\"\n  f: g\nh: i",
            "a: {}\nb: []\nc: { }\nd: [ ]\n",
            "version: 1\n",
        ]
        for text in documents {
            let (full, simple) = both(Array(text.utf8))
            #expect(simple != nil, "read by the simple reader: \(text)")
            guard case .success(let node?) = full, let simple else {
                Issue.record("libyaml reads \(text): \(full)")
                continue
            }
            #expect(node == simple, "\(text)\nlibyaml: \(node)\nsimple: \(simple)")
        }
    }

    @Test func leavesEverythingElseToLibYAML() {
        let declined = [
            "", "# only a comment\n", "a:\tb\n", "a: b # comment\n", "a: b \n", "a:\n  - b\n", "? a\n: b\n", "a: b\r\n",
            "\u{FEFF}a: b\n", "a: \"é\"\n", "a: b\na: c\n", "a: \"unterminated\n", "a: \"\\u0041\"\n", "a:\n  # indented\n  b: c\n",
            "a:\nb: c\n", "a:\n", " a: b\n", "a: b\n  c: d\n", "a: {b: c, b: d}\n", "a: [b, ]\n", "a: [[b]]\n", "a: {b: {c: d}}\n",
            "a: ~\n", "a: 'single'\n", "a: &x b\n", "a: *x\n", "a: !tag b\n", "--- \na: b\n", "a: b\n---\nc: d\n", "a: https://x/y\n",
            "a:b\n", "a : b\n", "a: |\n  text\n", "a: >\n  text\n", "a: b\n\tc: d\n", "a: \"x\u{0}\"\n", "\(String(repeating: "k", count: 1100)): v\n",
            "x: {\(String(repeating: "k", count: 1025)): v}\n", "x: {\((0..<65).map { "k\($0): v" }.joined(separator: ", "))}\n",
            (0..<65).map { String(repeating: " ", count: $0) + "a:\n" }.joined() + String(repeating: " ", count: 65) + "a: b\n",
        ]
        for text in declined {
            #expect(SimpleYAML.parse(Array(text.utf8)) == nil, "\(text.debugDescription)")
        }
    }

    /// Every lock the writer makes of tools with awkward names, sources and fields reads the
    /// same both ways (or is left to libyaml).
    @Test func locksTheWriterMakesReadAlike() {
        var generator = SplitMix64(seed: 45)
        let pieces = ["a", "Z", "0", "1.2", "-", "_", ".", "/", "+", " ", "\"", "\\", "#", ":", ",", "[", "]", "{", "}", "\n", "\t", "é",
                      "{version}", "~> 1", "null", "true", "&", "*", "!", "%", "@", "'", "`", "?", "\u{7}", ""]
        func text(_ count: Int) -> String { (0..<count).map { _ in pieces[generator.next(pieces.count)] }.joined() }
        var readBySimple = 0
        for _ in 0..<400 {
            var tools: [String: LockedTool] = [:]
            for t in 0..<(1 + generator.next(4)) {
                let name = "tool\(t)" + (generator.next(3) == 0 ? "-x.y_z" : "")
                var fields: [String: LockValue] = [:]
                if generator.next(2) == 0 { fields["sha256"] = .map(["linux-x86_64": text(3), "darwin-arm64": text(2)]) }
                if generator.next(2) == 0 { fields["binaries"] = .list((0..<generator.next(3)).map { _ in text(2) }) }
                if generator.next(3) == 0 { fields["options"] = .map([:]) }
                if generator.next(3) == 0 { fields[text(2).isEmpty ? "k" : "odd key " + text(1)] = .string(text(4)) }
                tools[name] = LockedTool(name: name, version: Version(word: "1.0.\(t)")!, requested: text(3), backend: "url",
                                         source: text(5), fields: fields)
            }
            let platforms = generator.next(2) == 0 ? ["linux-x86_64"] : []
            let bytes = Lockfile(tools: tools, platforms: platforms).serialized()
            if SimpleYAML.parse(bytes) != nil { readBySimple += 1 }
            #expect(agree(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(readBySimple > 100, "most locks are read by the simple reader: \(readBySimple) of 400")
    }

    /// Mutations of the fuzzer's YAML seeds and of tack's own registry: whatever the simple
    /// reader accepts, libyaml reads to the same nodes.
    @Test func mutatedFilesReadAlikeOrAreDeclined() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL.path
        var seeds: [[UInt8]] = []
        for name in ["lock", "manifest", "yaml", "aquayaml", "match"] {
            if let d = FileManager.default.contents(atPath: root + "/Fuzz/seeds/" + name) { seeds.append(Array(d)) }
        }
        let registry = try #require(FileManager.default.contents(atPath: root + "/Sources/TackCore/Resources/registry.yml"))
        seeds.append(Array(registry.prefix(3000)))
        seeds.append(Array("version: 1\ntools:\n  jq:\n    backend: \"url\"\n    binaries: [\"bin/jq\"]\n    requested: \"1.7\"\n    sha256:\n      linux-x86_64: \"ab\"\n    source: \"u\"\n    version: \"1.7.1\"\n".utf8))
        seeds.append(Array("tools:\n  hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }\n  jq: 1.7.1\n".utf8))
        #expect(seeds.count == 8)
        let inserts: [[UInt8]] = [" ", "\n", ":", "\"", "\\", "#", ",", "[", "]", "{", "}", "-", "  ", ": ", "\n  ", "\n    ", "a", "~", "?", "'", "\t"]
            .map { Array($0.utf8) }
        var generator = SplitMix64(seed: 7)
        var accepted = 0
        for seed in seeds {
            for _ in 0..<1500 {
                var bytes = seed
                for _ in 0..<(1 + generator.next(3)) {
                    guard !bytes.isEmpty else { break }
                    let at = generator.next(bytes.count)
                    switch generator.next(4) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(contentsOf: inserts[generator.next(inserts.count)], at: at)
                    case 2: bytes[at] = inserts[generator.next(inserts.count)][0]
                    default:
                        // A line repeated elsewhere (duplicate keys, wrong indents).
                        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                        let line = lines[generator.next(lines.count)]
                        bytes.insert(contentsOf: Array(line) + [0x0A], at: bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? 0)
                    }
                }
                if SimpleYAML.parse(bytes) != nil { accepted += 1 }
                #expect(agree(bytes), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        #expect(accepted > 400, "enough mutants are read by the simple reader to compare: \(accepted)")
    }
}

extension SplitMix64 {
    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
