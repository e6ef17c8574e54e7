import Foundation
import Testing

/// ARCHITECTURE.md stays true to the tree: every repository path it names in backticks
/// (`Sources/…`, `Tests/…`, `docs/…`, `Package.swift`, …) exists, so a moved or renamed file
/// fails here instead of leaving the contributors' map pointing at nothing.
@Suite struct ArchitectureDocTests {
    /// The repository root: this file is `Tests/TackCoreTests/ArchitectureDocTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/TackCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .path

    /// The repository's top-level folders a path may start with, and its top-level files.
    static let topLevelFolders: Set<String> = ["Sources", "Tests", "bench", "docs", "Fuzz", "templates"]
    static let topLevelFiles: Set<String> = ["Package.swift", "Package.resolved", "README.md", "ARCHITECTURE.md", "bootstrap.sh"]

    /// Inline code spans outside fenced blocks.
    static func codeSpans(_ text: String) -> [String] {
        var spans: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock { continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            for (i, part) in parts.enumerated() where i % 2 == 1 { spans.append(String(part)) }
        }
        return spans
    }

    /// The repository path a span names, if it names one: its first word, without a
    /// trailing `:line`, punctuation or slash.
    static func repositoryPath(_ span: String) -> String? {
        guard var path = span.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) else { return nil }
        while let last = path.last, ".,;:)!?/".contains(last) { path.removeLast() }
        if let colon = path.lastIndex(of: ":"), !path[path.index(after: colon)...].isEmpty,
           path[path.index(after: colon)...].allSatisfy(\.isNumber) {
            path = String(path[..<colon])
        }
        while let last = path.last, ".,;:)!?/".contains(last) { path.removeLast() }
        guard !path.isEmpty else { return nil }
        if topLevelFiles.contains(path) { return path }
        guard path.contains("/"), let first = path.split(separator: "/").first, topLevelFolders.contains(String(first)) else { return nil }
        return path
    }

    @Test func everyPathItNamesExists() throws {
        let text = try String(contentsOfFile: Self.root + "/ARCHITECTURE.md", encoding: .utf8)
        let paths = Set(Self.codeSpans(text).compactMap(Self.repositoryPath))
        for path in paths.sorted() {
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + path), "ARCHITECTURE.md names `\(path)`, which does not exist")
        }
        #expect(paths.count >= 15, "only \(paths.count) repository paths found in ARCHITECTURE.md: \(paths.sorted())")
    }
}
