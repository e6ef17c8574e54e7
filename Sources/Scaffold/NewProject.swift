import Foundation
import Git
import TackCore

/// `tack new`: a template rendered into a new directory, with a first commit, all or nothing.
public struct NewProject: Sendable {
    public var name: String
    /// `app` (a template shipped with tack), a directory, or a git URL with an optional `@ref`.
    public var template: String
    public var variables: [String: String]
    public var git: Bool
    /// Where the project goes: `parent/name`.
    public var parent: String
    /// Where tack's own templates are looked for, in order.
    public var templateRoots: [String]
    /// The process's environment: git's `GIT_AUTHOR_*`, `GIT_COMMITTER_*` and `EMAIL` choose
    /// the first commit's people, as they do for git.
    public var environment: [String: String] = [:]
    /// Render and report, but write nothing.
    public var dryRun = false
    /// Where templates are read and the project is written.
    public var fs: any FileSystem
    /// How a template in a git repository is fetched.
    public var remotes: any GitRemotes

    public init(name: String, template: String, variables: [String: String], git: Bool, parent: String, templateRoots: [String],
                fs: any FileSystem, remotes: any GitRemotes) {
        self.name = name
        self.template = template
        self.variables = variables
        self.git = git
        self.parent = parent
        self.templateRoots = templateRoots
        self.fs = fs
        self.remotes = remotes
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "Swift", "Foundation", "Type", "Protocol",
    ]

    /// Modules a package may import that a target of the same name would hide.
    static let systemModules: Set<String> = [
        "Testing", "XCTest", "Dispatch", "Synchronization", "Observation", "Distributed", "RegexBuilder", "Cxx",
        "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
        "Glibc", "Musl", "Darwin", "WinSDK", "os", "CoreFoundation", "Combine", "SwiftUI", "UIKit", "AppKit",
    ]

    /// Why `name` cannot be a package and module name, or nil.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "the project needs a name" }
        guard name.range(of: #"^[A-Za-z][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
            return "\(quoted(name)) is not a valid package and module name: start with a letter, then letters, digits or _ (like MyApp)"
        }
        if name.count > 64 { return "\(quoted(name)) is too long for a module name (at most 64 characters)" }
        if keywords.contains(name) || systemModules.contains(name) { return "\(quoted(name)) is a Swift keyword or a standard module; pick another name" }
        return nil
    }

    /// Why `name` would collide with a module the template makes itself (`Sources/Layout`).
    static func collision(_ name: String, templateDirectory: String, fs: any FileSystem) -> String? {
        let sources = (try? fs.list(templateDirectory + "/Sources")) ?? []
        guard let taken = sources.first(where: { !$0.contains("{{") && $0.lowercased() == name.lowercased() }) else { return nil }
        return "\(quoted(name)) is the name of a module the template makes (Sources/\(taken)); pick another name"
    }

    /// What was made: the directory, the template's description, the commit (if any).
    public struct Result: Sendable {
        public var directory: String
        public var files: Int
        public var commit: String?
        /// The files' paths in the new project (sorted).
        public var paths: [String] = []
    }

    /// Where the project is made before it is renamed into place (removed on failure and
    /// on Ctrl-C).
    public var staging: String { Paths.join(parent, ".tack-new-\(name)-\(getpid())") }

    public func run() async throws(TackError) -> Result {
        if let p = Self.problem(with: name) { throw TackError(p) }
        let target = Paths.join(parent, name)
        if fs.info(target) != nil || fs.linkTarget(target) != nil {
            guard fs.isDirectory(target), ((try? fs.list(target)) ?? ["?"]).isEmpty else {
                throw TackError("\(target) already exists and is not empty; pick another name, or remove it")
            }
        }
        let scratch = staging
        try? fs.remove(scratch)
        defer { try? fs.remove(scratch) }
        try fs.makeDirectory(scratch)
        let templateDir = try await locateTemplate(scratch: scratch + "/template")
        if let p = Self.collision(name, templateDirectory: templateDir, fs: fs) { throw TackError.usage(p) }
        let template = try Template.load(templateDir, fs: fs)
        var given = variables
        given["name"] = name
        let values = try template.values(given)
        let files = try template.render(values)
        let paths = files.map(\.path).sorted()
        if dryRun { return Result(directory: target, files: files.count, commit: nil, paths: paths) }

        // Everything is written (and committed) beside the target, then renamed into place.
        let out = scratch + "/project"
        try write(files, into: out)
        let commit = git ? try firstCommit(out, template: template) : nil
        if fs.isDirectory(target), (try? fs.list(target))?.isEmpty == true { try? fs.remove(target) }
        do { try fs.move(out, to: target) } catch { throw TackError("cannot move the new project to \(target): \(error)") }
        return Result(directory: target, files: files.count, commit: commit, paths: paths)
    }

    /// The rendered files (links as links, scripts executable) under `out`.
    func write(_ files: [Template.File], into out: String) throws(TackError) {
        try fs.makeDirectory(out)
        for f in files {
            let path = out + "/" + f.path
            try fs.makeDirectory(Paths.dirname(path))
            if let target = f.linkTarget {
                do { try fs.makeLink(path, to: target) } catch { throw TackError("cannot write the link \(path): \(error)") }
                continue
            }
            do { try fs.writeAtomically(path, f.contents, permissions: f.executable ? 0o755 : 0o644) } catch {
                throw TackError.cannotWrite(path, error)
            }
        }
    }

    /// A repository at `out` with everything in it committed; the commit.
    func firstCommit(_ out: String, template: Template) throws(TackError) -> String {
        let (author, committer) = try Self.people(environment)
        do {
            let repo = try GitRepository.create(out)
            return try repo.commitAll(message: "Initial commit: \(name), from tack new (\(template.description.isEmpty ? self.template : template.description))",
                                      author: author, committer: committer)
        } catch { throw TackError("cannot make the first commit: \(error.message) — or use --no-git") }
    }

    /// The first commit's author and committer, as git picks them: `GIT_AUTHOR_NAME` /
    /// `GIT_AUTHOR_EMAIL` (and `GIT_COMMITTER_*`) from the environment, else `user.name` and
    /// `user.email` from git's configuration, else (for the email) `EMAIL`.
    static func people(_ env: [String: String]) throws(TackError) -> (author: (name: String, email: String), committer: (name: String, email: String)) {
        func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
        let config = try? GitConfig.user()
        let name = nonEmpty(config?.string("user.name"))
        let email = nonEmpty(config?.string("user.email")) ?? nonEmpty(env["EMAIL"])
        guard let authorName = nonEmpty(env["GIT_AUTHOR_NAME"]) ?? name, let authorEmail = nonEmpty(env["GIT_AUTHOR_EMAIL"]) ?? email,
              let committerName = nonEmpty(env["GIT_COMMITTER_NAME"]) ?? name ?? nonEmpty(env["GIT_AUTHOR_NAME"]),
              let committerEmail = nonEmpty(env["GIT_COMMITTER_EMAIL"]) ?? email ?? nonEmpty(env["GIT_AUTHOR_EMAIL"]) else {
            throw TackError("git has no author to make the first commit with: run `git config --global user.name \"Your Name\"` and `git config --global user.email you@example.com` (or set GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL), or use --no-git")
        }
        return ((authorName, authorEmail), (committerName, committerEmail))
    }

    /// The template directory: one of tack's own by name, a local directory, or a git
    /// repository cloned (at `@ref`, a tag, branch or commit) into `scratch`.
    func locateTemplate(scratch: String) async throws(TackError) -> String {
        let t = template
        if Self.isGitURL(t) {
            var url = t, ref: String?
            if let at = t.lastIndex(of: "@"), let slash = t.lastIndex(of: "/"), at > slash {
                url = String(t[..<at])
                ref = String(t[t.index(after: at)...])
            }
            if !url.contains("://") && !url.hasPrefix("git@") {
                let local = resolved(url)
                guard fs.info(local) != nil else { throw TackError("there is no template repository at \(local)") }
            }
            do {
                if let ref { _ = try await remotes.checkout(url, ref: ref, into: scratch) } else { try await remotes.clone(url, into: scratch) }
            } catch { throw TackError("cannot fetch the template \(url)\(ref.map { " at \($0)" } ?? ""): \(error.message)") }
            return scratch
        }
        if t.contains("/") || t.hasPrefix(".") {
            let dir = resolved(t)
            guard fs.info(dir + "/" + Template.manifestName) != nil else {
                throw TackError("\(dir) is not a tack template: it has no \(Template.manifestName)")
            }
            return dir
        }
        for root in templateRoots where fs.info(root + "/" + t + "/" + Template.manifestName) != nil {
            return root + "/" + t
        }
        let known = Self.available(in: templateRoots, fs: fs).map(\.name)
        throw TackError("there is no template named \(quoted(t))" + (known.isEmpty ? " (tack's templates were not found: reinstall with ./bootstrap.sh)" : "; tack has: \(known.joined(separator: ", "))") + ", or give a directory or a git URL")
    }

    /// A path as the user wrote it, against the directory the project goes in.
    func resolved(_ path: String) -> String { path.hasPrefix("/") ? path : Paths.normalize(Paths.join(parent, path)) }

    /// tack's own templates (name, directory), the first root holding a name winning.
    public static func available(in roots: [String], fs: any FileSystem) -> [(name: String, directory: String)] {
        var seen = Set<String>(), out: [(String, String)] = []
        for root in roots {
            for name in (try? fs.list(root)) ?? [] where !name.hasPrefix(".") {
                let dir = root + "/" + name
                guard fs.info(dir + "/" + Template.manifestName) != nil, seen.insert(name).inserted else { continue }
                out.append((name, dir))
            }
        }
        return out
    }

    /// The template `template` names, loaded (a git template is fetched into a temporary directory).
    public func loadTemplate() async throws(TackError) -> Template {
        let scratch = Paths.child(CurrentProcess.temporaryDirectory, ".tack-template-\(getpid())")
        try? fs.remove(scratch)
        defer { try? fs.remove(scratch) }
        return try Template.load(try await locateTemplate(scratch: scratch), fs: fs)
    }

    static func isGitURL(_ s: String) -> Bool {
        s.contains("://") || s.hasPrefix("git@") || s.hasSuffix(".git") || s.contains(".git@")
    }

    /// tack's template directories for an executable at `executable`: `share/tack/templates` of
    /// an installation, or `templates/` of the source tree it was built in.
    public static func templateRoots(executable: String?, environment: [String: String], fs: any FileSystem) -> [String] {
        var roots: [String] = []
        if let env = environment["TACK_TEMPLATES"], !env.isEmpty { roots.append(env) }
        guard let exe = executable else { return roots }
        var dir = Paths.dirname(exe)
        roots.append(Paths.normalize(dir + "/../../share/tack/templates"))
        roots.append(Paths.normalize(dir + "/../share/tack/templates"))
        for _ in 0..<6 {
            if fs.info(dir + "/Package.swift") != nil && fs.info(dir + "/templates") != nil {
                roots.append(dir + "/templates")
                break
            }
            dir = Paths.dirname(dir)
        }
        return roots
    }
}
