import ArgumentParser
import Backends
import Foundation
import Scaffold
import TackCore

struct New: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a new Swift project from a template.",
        discussion: """
            The default template, `app`, makes a Swift package with a command bus (commands \
            journaled with checksums and outcomes, run in order, replayed after a crash), a \
            store (restored at launch from a snapshot, with schema migrations and undo), a \
            flexbox layout engine with a text renderer, a feature module wiring them, a demo \
            executable, benchmarks, tests for each, and a tack.yml pinning its tools. Then \
            `git init` and a first commit (author as git picks it: GIT_AUTHOR_*, else git \
            config). A failure or Ctrl-C leaves nothing behind.

            A template is a directory with a template.yml (its variables, their defaults, and \
            files that depend on one) and files rendered with Mustache, names included. \
            `tack new --list` shows tack's templates; `tack new TEMPLATE --help` (or \
            `--template TEMPLATE --help`) shows its variables.

            Examples:
              tack new MyApp
              tack new MyApp --dry-run
              tack new MyApp --var demo=false --no-git
              tack new MyApp --template ./my-template
              tack new MyApp --template https://github.com/me/templates.git@v1.0
            """
    )

    @Argument(help: "The project's name: the package name and the prefix of its modules.")
    var name: String?

    @Option(help: "`app`, a template directory, or a git URL with an optional @ref.")
    var template = "app"

    @Flag(help: "Do not make a git repository and first commit.")
    var noGit = false

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a template variable.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(help: "Show what would be made, and make nothing.")
    var dryRun = false

    @Flag(help: "List tack's templates and their variables.")
    var list = false

    func validate() throws {
        if list { return }
        guard let name else { throw ValidationError("tack new needs the project's name (or --list)") }
        if let problem = NewProject.problem(with: name) { throw ValidationError(problem) }
        for v in variables where !v.contains("=") || v.hasPrefix("=") { throw ValidationError("--var takes NAME=VALUE, not \(quoted(v))") }
    }

    func run() async throws {
        let settings = try processSettings()
        let roots = Self.templateRoots(settings)
        if list {
            let templates = NewProject.available(in: roots, fs: settings.fs)
            if templates.isEmpty { throw fail(TackError("tack's templates were not found: reinstall with ./bootstrap.sh")) }
            for (name, directory) in templates {
                let t: Template
                do { t = try Template.load(directory, fs: settings.fs) } catch { throw fail(error) }
                Output.out("\(name)\(t.description.isEmpty ? "" : " — \(t.description)")\n" + Self.describe(t.variables) + "\n")
            }
            return
        }
        guard let name else { return }
        var given: [String: String] = [:]
        for v in variables {
            guard let eq = v.firstIndex(of: "=") else { continue }
            given[String(v[..<eq])] = String(v[v.index(after: eq)...])
        }
        if given["name"] != nil { throw fail(TackError("the name is the command's argument, not a --var")) }
        var project = NewProject(name: name, template: template, variables: given, git: !noGit, parent: settings.cwd, templateRoots: roots,
                                 fs: settings.fs, remotes: LibGit2Remotes())
        project.environment = settings.environment
        project.dryRun = dryRun
        Interrupts.removeOnInterrupt(project.staging)
        defer { Interrupts.keep(project.staging) }
        let result: NewProject.Result
        do { result = try await project.run() } catch {
            if error.isUsage { throw ValidationError(error.message) }
            throw fail(error)
        }
        let shown = Paths.abbreviate(result.directory, home: settings.home)
        if dryRun {
            Output.out("Would make \(shown) (\(result.files) files\(noGit ? "" : ", and a first commit")):\n"
                       + result.paths.map { "  \($0)\n" }.joined())
            return
        }
        Output.out("""
            Made \(shown) (\(result.files) files\(result.commit.map { ", first commit \($0.prefix(7))" } ?? "")).
            Next:
              cd \(name)
              tack install        # the tools tack.yml pins
              swift build
              swift test

            """)
    }

    /// Where tack's own templates are, for this executable.
    static func templateRoots(_ settings: Settings) -> [String] {
        NewProject.templateRoots(executable: CurrentProcess.executablePath(), environment: settings.environment, fs: settings.fs)
    }

    /// A template's variables, one per line: name, description, default.
    static func describe(_ variables: [Template.Variable]) -> String {
        variables.map { v in
            let shown = v.name == "name" ? "  NAME (the argument)" : "  --var \(v.name)=\(v.isBoolean ? "true|false" : "VALUE")"
            return shown + (v.description.isEmpty ? "" : " — \(v.description)")
                + (v.defaultValue.map { "; default \($0)" } ?? (v.name == "name" ? "" : "; required"))
        }.joined(separator: "\n")
    }

    /// For `tack new [--template T] --help`: the template's variables, after the usual help.
    static func templateHelp(_ arguments: [String]) async -> String? {
        guard arguments.first == _commandName else { return nil }
        var template = "app"
        for (i, a) in arguments.enumerated() {
            if a == "--template", i + 1 < arguments.count { template = arguments[i + 1] }
            if a.hasPrefix("--template=") { template = String(a.dropFirst("--template=".count)) }
        }
        guard let settings = try? processSettings() else { return nil }
        let roots = templateRoots(settings)
        func load(_ name: String) async -> Template? {
            try? await NewProject(name: "Help", template: name, variables: [:], git: false, parent: settings.cwd, templateRoots: roots,
                                  fs: settings.fs, remotes: LibGit2Remotes()).loadTemplate()
        }
        // `tack new TEMPLATE --help`: the first word after `new` that names a template.
        if !arguments.contains(where: { $0 == "--template" || $0.hasPrefix("--template=") }),
           let word = arguments.dropFirst().first(where: { !$0.hasPrefix("-") }), await load(word) != nil {
            template = word
        }
        guard let t = await load(template) else { return nil }
        return "TEMPLATE \(template)\(t.description.isEmpty ? "" : ": \(t.description)")\n" + describe(t.variables)
    }
}
