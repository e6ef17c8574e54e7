import Foundation
import Testing

/// Git repositories made in the test with the git command line (only the tests use it; tack
/// itself uses libgit2).
struct GitFixture {
    let path: String
    let environment: [String: String]

    /// A repository whose `build:` script writes a `hello` executable that prints its version.
    /// `log` (an absolute path), when given, gets a line for every build, to count them.
    static func tool(in sandbox: Sandbox, name: String = "hello-repo", tags: [String], sleep: Double = 0, log: String? = nil) throws -> GitFixture {
        let path = sandbox.root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var env = sandbox.environment
        env["GIT_AUTHOR_NAME"] = "Test"; env["GIT_AUTHOR_EMAIL"] = "test@example.org"
        env["GIT_COMMITTER_NAME"] = "Test"; env["GIT_COMMITTER_EMAIL"] = "test@example.org"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        // Fixed dates: two repositories made alike have the same commits, whichever second
        // each was made in.
        env["GIT_AUTHOR_DATE"] = "2026-01-01T00:00:00Z"; env["GIT_COMMITTER_DATE"] = "2026-01-01T00:00:00Z"
        let repo = GitFixture(path: path, environment: env)
        try repo.git("init", "-q", "-b", "main")
        var script = "set -e\n"
        if let log { script += "echo built >> '\(log)'\n" }
        if sleep > 0 { script += "sleep \(sleep)\n" }
        script += "mkdir -p out\nprintf '#!/bin/sh\\necho hello %s\\n' \"$(cat VERSION)\" > out/hello\nchmod +x out/hello\n"
        try script.write(toFile: path + "/build.sh", atomically: true, encoding: .utf8)
        try repo.git("add", "build.sh")
        for tag in tags { try repo.commitAndTag(tag) }
        return repo
    }

    func commitAndTag(_ tag: String, annotated: Bool = false) throws {
        try "\(tag)\n".write(toFile: path + "/VERSION", atomically: true, encoding: .utf8)
        try git("add", "VERSION")
        try git("commit", "-q", "-m", "release \(tag)")
        if annotated { try git("tag", "-a", tag, "-m", tag) } else { try git("tag", tag) }
    }

    /// Moves an existing tag to a new commit, as a force-pushed release would.
    func moveTag(_ tag: String) throws {
        try "moved \(tag)\n".write(toFile: path + "/VERSION", atomically: true, encoding: .utf8)
        try git("commit", "-qam", "moved")
        try git("tag", "-f", tag)
    }

    func commit(of ref: String) throws -> String {
        try git("rev-parse", ref + "^{commit}").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func git(_ args: String...) throws -> String {
        let out = try Sandbox.OutputFile()
        let ending = try HarnessSpawn.run("/usr/bin/env", ["git", "-C", path] + args, directory: "/", environment: environment, input: nil,
                                          stdout: out.handle.fileDescriptor, stderr: out.handle.fileDescriptor)
        let text = out.text()
        guard ending.shellStatus == 0 else { throw GitFailed(message: "git \(args.joined(separator: " ")): \(text)") }
        return text
    }

    struct GitFailed: Error { var message: String }

    /// The manifest entry for this repository: `sh build.sh` makes `out/hello`, which prints
    /// the version it was built from.
    func entry(_ version: String) -> String {
        "{ git: \"\(path)\", version: \"\(version)\", build: sh build.sh, bin: [out/hello] }"
    }

    /// An asdf plugin repository at `name` in the sandbox: each of `scripts` (`list-all`,
    /// `install`, …) as `bin/<name>`, a bash script, committed on main.
    static func asdfPlugin(in s: Sandbox, name: String, scripts: [String: String]) throws -> GitFixture {
        let repo = GitFixture(path: s.root + "/" + name, environment: [
            "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_NOSYSTEM": "1", "HOME": s.root + "/home", "PATH": "/usr/bin:/bin",
        ])
        for (script, body) in scripts {
            try s.write("\(name)/bin/\(script)", "#!/usr/bin/env bash\n" + body)
            chmod(s.root + "/\(name)/bin/\(script)", 0o755)
        }
        try repo.git("init", "-q", "-b", "main")
        try repo.git("add", ".")
        try repo.git("commit", "-q", "-m", "plugin")
        return repo
    }
}
