import Foundation
import Testing
import BackendKinds
import TackCore
@testable import TackCLI

/// The documentation that ships with tack stays true: every command it shows exists, every
/// command is documented, every example manifest and lock reads.
@Suite(.ownThreads) struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func pages() throws -> [(name: String, text: String)] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        return try (["README.md"] + docs.map { "docs/" + $0 }).map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    /// Inline code spans and the lines of fenced blocks.
    static func code(_ text: String) -> (spans: [String], blocks: [(lang: String, body: String)]) {
        var spans: [String] = [], blocks: [(String, String)] = []
        var inBlock: String?
        var body: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let lang = inBlock {
                    blocks.append((lang, body.joined(separator: "\n") + "\n"))
                    inBlock = nil
                    body = []
                } else {
                    inBlock = String(line.dropFirst(3))
                }
                continue
            }
            if inBlock != nil { body.append(line); continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            for (i, p) in parts.enumerated() where i % 2 == 1 { spans.append(String(p)) }
        }
        return (spans, blocks)
    }

    /// `tack WORD …` in code: WORD must be a command.
    @Test func everyCommandTheDocsShowExists() throws {
        let names = Set(Tack.commandNames + ["help"])
        var checked = 0
        for page in try Self.pages() {
            let (spans, blocks) = Self.code(page.text)
            let lines = spans + blocks.filter { ["sh", "", "console", "bash"].contains($0.lang) }.flatMap { $0.body.split(separator: "\n").map(String.init) }
            for raw in lines {
                var line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("$ ") { line.removeFirst(2) }
                guard line.hasPrefix("tack ") else { continue }
                guard let word = line.split(separator: " ").dropFirst().first.map(String.init), !word.hasPrefix("-"),
                      word.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0 == "-" }) else { continue }
                #expect(names.contains(word), "\(page.name): `\(raw)` names no command")
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    @Test func everyCommandIsDocumented() throws {
        let commands = try String(contentsOfFile: Self.root + "/docs/commands.md", encoding: .utf8)
        for name in Tack.commandNames {
            #expect(commands.contains("`tack \(name)"), "docs/commands.md does not document `tack \(name)`")
        }
        // The exit statuses the tests check, in the table.
        for status in ["| 0 |", "| 1 |", "| 2 |", "| 126 |", "| 127 |"] { #expect(commands.contains(status)) }
    }

    /// Every YAML example is a manifest that reads (or, in formats.md, a lock).
    @Test func everyExampleManifestReads() throws {
        var manifests = 0
        for page in try Self.pages() {
            for block in Self.code(page.text).blocks where block.lang == "yaml" {
                if block.body.contains("# tack.lock") {
                    #expect(throws: Never.self, "\(page.name)") { try Lockfile.parse(Array(block.body.utf8), path: "tack.lock", backends: .standard) }
                    continue
                }
                let fs = InMemoryFileSystem(files: ["/p/tack.yml": block.body])
                do { _ = try Manifest.load("/p/tack.yml", kind: .manifest, fs: fs, backends: .standard) } catch {
                    Issue.record("\(page.name): an example does not read: \(error.message)\n\(block.body)")
                }
                manifests += 1
            }
        }
        #expect(manifests >= 3)
    }

    /// The README is for users: nothing in it points outside the repository.
    @Test func theReadmeLinksOnlyToWhatShips() throws {
        for page in try Self.pages() {
            #expect(!page.text.contains("../shared"), "\(page.name)")
            for match in page.text.matches(of: /\]\(([^)#]+)\)/) {
                let target = String(match.1)
                if target.hasPrefix("http") { continue }
                let base = page.name.hasPrefix("docs/") ? Self.root + "/docs/" : Self.root + "/"
                #expect(FileManager.default.fileExists(atPath: base + target), "\(page.name) links to \(target)")
            }
        }
    }

    /// Every example runs as written (issue 43, item 16): in a shell block that starts in a new
    /// directory (`mkdir`), a file an example hands to a command (`tack exec -- ink-cli
    /// README.md`) or a build (`swift build`, which needs a Package.swift) is made first.
    @Test func examplesThatStartInANewDirectoryMakeTheFilesTheyUse() throws {
        for page in try Self.pages() {
            for block in Self.code(page.text).blocks where block.lang == "sh" && block.body.contains("mkdir ") {
                let lines = block.body.split(separator: "\n").map { line in
                    String(line.range(of: " #").map { line[..<$0.lowerBound] } ?? line[...]).trimmingCharacters(in: .whitespaces)
                }
                for (i, line) in lines.enumerated() {
                    let earlier = lines[..<i].joined(separator: "\n")
                    if line.hasPrefix("tack exec -- ink-cli "), let file = line.split(separator: " ").last {
                        #expect(earlier.contains("> \(file)"), "\(page.name): \(line) runs before \(file) is written")
                    }
                    if line.hasPrefix("tack exec -- swift build") {
                        #expect(earlier.contains("swift package init") || earlier.contains("tack new"), "\(page.name): \(line) runs with no package made")
                    }
                }
            }
        }
    }
}
