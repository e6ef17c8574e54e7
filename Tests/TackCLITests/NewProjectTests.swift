import Foundation
import Git
import Scaffold
import TackCore
import Testing

/// A git "server" that hands out one template: what `tack new --template URL@REF` fetches,
/// written into the file system the project is made on.
final class TemplateRemotes: GitRemotes, @unchecked Sendable {
    let fs: InMemoryFileSystem
    let files: [String: String]
    private(set) var asked: [(url: String, ref: String?)] = []
    init(fs: InMemoryFileSystem, files: [String: String]) {
        self.fs = fs
        self.files = files
    }
    func listTags(_ url: String) async throws(GitError) -> [RemoteTag] { [] }
    func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] { [] }
    func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String {
        asked.append((url, ref))
        for (path, text) in files { fs.seed(directory + "/" + path, Array(text.utf8)) }
        return String(repeating: "a", count: 40)
    }
    func clone(_ url: String, into directory: String) async throws(GitError) {
        _ = try await checkout(url, ref: "HEAD", into: directory)
        asked[asked.count - 1].ref = nil
    }
    func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        throw GitError(message: "not here")
    }
}

/// `tack new` as a service on an in-memory disk: templates found by name, path or git URL,
/// rendered into the new project whole, nothing left when it fails.
@Suite(.ownThreads) struct NewProjectTests {
    static let template = [
        "template.yml": "description: A test template\nvariables:\n  name: { description: The name }\n  greeting: { description: What it says, default: hello }\n",
        "Package.swift": "// {{name}}\n",
        "Sources/{{name}}/main.swift": "print(\"{{greeting}}\")\n",
    ]

    func project(_ fs: InMemoryFileSystem, template: String, remotes: any GitRemotes = TemplateRemotes(fs: InMemoryFileSystem(), files: [:])) -> NewProject {
        NewProject(name: "MyApp", template: template, variables: [:], git: false, parent: "/work", templateRoots: ["/share/templates"], fs: fs, remotes: remotes)
    }

    @Test func aTemplateByNameIsRenderedWholeWithItsScriptsAndLinks() async throws {
        let fs = InMemoryFileSystem()
        for (path, text) in Self.template { fs.seed("/share/templates/basic/" + path, Array(text.utf8)) }
        try fs.writeAtomically("/share/templates/basic/run.sh", Array("#!/bin/sh\n".utf8), permissions: 0o755)
        try fs.makeLink("/share/templates/basic/README", to: "Package.swift")
        try fs.createDirectory("/work")
        let result = try await project(fs, template: "basic").run()
        #expect(result.directory == "/work/MyApp")
        #expect(result.paths == ["Package.swift", "README", "Sources/MyApp/main.swift", "run.sh"])
        #expect(try fs.read("/work/MyApp/Sources/MyApp/main.swift") == Array("print(\"hello\")\n".utf8))
        #expect(fs.isExecutable("/work/MyApp/run.sh"))
        #expect(fs.linkTarget("/work/MyApp/README") == "Package.swift")
        #expect(try fs.list("/work") == ["MyApp"], "nothing of the staging directory is left")
    }

    /// A file with no tag is copied as it is, unrendered (a 2 MB fixture took seconds to
    /// render); one with a tag, even at its very end, is rendered.
    @Test func filesWithNoTagAreCopiedAsTheyAre() async throws {
        let fs = InMemoryFileSystem()
        for (path, text) in Self.template { fs.seed("/share/templates/basic/" + path, Array(text.utf8)) }
        let data = "{\"a\":[{\"b\":\"{ {\"}],\"c\":\"}}\"}\n"
        fs.seed("/share/templates/basic/data.json", Array(data.utf8))
        fs.seed("/share/templates/basic/tail.txt", Array("by {{name}}".utf8))
        try fs.createDirectory("/work")
        _ = try await project(fs, template: "basic").run()
        #expect(try fs.read("/work/MyApp/data.json") == Array(data.utf8))
        #expect(try fs.read("/work/MyApp/tail.txt") == Array("by MyApp".utf8))
    }

    @Test func aGitTemplateIsFetchedThroughTheRemotesAtItsRef() async throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/work")
        let remotes = TemplateRemotes(fs: fs, files: Self.template)
        _ = try await project(fs, template: "https://example.com/templates.git@v1.2", remotes: remotes).run()
        #expect(remotes.asked.map(\.url) == ["https://example.com/templates.git"])
        #expect(remotes.asked.map(\.ref) == ["v1.2"])
        #expect(try fs.read("/work/MyApp/Package.swift") == Array("// MyApp\n".utf8))
        #expect(try fs.list("/work") == ["MyApp"])
    }

    @Test func whatCannotBeMadeLeavesNothing() async throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/work/MyApp")
        try fs.writeAtomically("/work/MyApp/keep.txt", Array("mine".utf8))
        await #expect(throws: TackError("/work/MyApp already exists and is not empty; pick another name, or remove it")) {
            _ = try await project(fs, template: "basic").run()
        }
        #expect(try fs.list("/work/MyApp") == ["keep.txt"])
        try fs.remove("/work/MyApp")
        // An unknown template, and a template that renders a file outside the project.
        await #expect(throws: TackError("there is no template named \"nothing\" (tack's templates were not found: reinstall with ./bootstrap.sh), or give a directory or a git URL")) {
            _ = try await project(fs, template: "nothing").run()
        }
        fs.seed("/share/templates/escape/template.yml", Array("variables:\n  name: {}\n  where: { default: \"..\" }\n".utf8))
        fs.seed("/share/templates/escape/{{where}}/evil", Array("x".utf8))
        do {
            _ = try await project(fs, template: "escape").run()
            Issue.record("a file outside the project was written")
        } catch {
            #expect(error.message.contains("which is not inside the new project"), "\(error.message)")
        }
        #expect(try fs.list("/work").isEmpty, "nothing is left beside the project")
    }
}
