import Foundation
import Git
import Testing

@Suite(.ownThreads) struct GitWrapperTests {
    @Test func opensARepositoryAndReadsItsConfig() throws {
        let s = try Sandbox()
        let repo = s.root + "/repo"
        try s.mkdir("repo")
        for args in [["init", "-q", repo], ["-C", repo, "config", "user.name", "Ada Lovelace"],
                     ["-C", repo, "-c", "user.email=ada@example.org", "commit", "-q", "--allow-empty", "-m", "first"]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git"] + args
            p.environment = s.environment
            try p.run()
            p.waitUntilDone()
            try #require(p.terminationStatus == 0)
        }
        let r = try GitRepository.open(repo)
        #expect(try r.config().string("user.name") == "Ada Lovelace")
        #expect(try r.config().string("no.such-key") == nil)
        #expect(try r.headCommit().count == 40)
        #expect(Git.libraryVersion.split(separator: ".").count == 3)
    }

    @Test func missingRepositoryIsAClearError() throws {
        let s = try Sandbox()
        #expect(throws: GitError.self) { try GitRepository.open(s.root + "/nothing") }
        do { _ = try GitRepository.open(s.root + "/nothing") } catch {
            #expect(error.description.hasPrefix("opening the git repository at \(s.root)/nothing: "))
        }
    }
}
