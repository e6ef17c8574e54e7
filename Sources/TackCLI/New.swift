import ArgumentParser
import Scaffold
import TackCore

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a new Swift project from a template.",
        discussion: """
            The default template, `app`, makes a Swift package with a command bus (commands \
            journaled, then run in order), a store (restored at launch from a snapshot on \
            disk, changed only by the bus's handlers), a declarative layout engine, a feature \
            module wiring them, a demo executable, tests for each, and a tack.yml pinning its \
            tools. Then `git init` and a first commit (author as git picks it: GIT_AUTHOR_*, else git config). A failure \
            leaves nothing behind.

            A template is a directory with a template.yml (its variables, their defaults, and \
            files that depend on one) and files rendered with Mustache, names included.

            Examples:
              tack new MyApp
              tack new MyApp --var demo=false --no-git
              tack new MyApp --template ./my-template
              tack new MyApp --template https://github.com/me/templates.git@v1.0
            """
    )

    @Argument(help: "The project's name: the package name and the prefix of its modules.")
    var name: String

    @Option(help: "`app`, a template directory, or a git URL with an optional @ref.")
    var template = "app"

    @Flag(help: "Do not make a git repository and first commit.")
    var noGit = false

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a template variable.", valueName: "name=value"))
    var variables: [String] = []

    func validate() throws {
        if let problem = NewProject.problem(with: name) { throw ValidationError(problem) }
        for v in variables where !v.contains("=") || v.hasPrefix("=") { throw ValidationError("--var takes NAME=VALUE, not \(quoted(v))") }
    }

    func run() throws {
        let settings = try processSettings()
        var given: [String: String] = [:]
        for v in variables {
            let eq = v.firstIndex(of: "=")!
            given[String(v[..<eq])] = String(v[v.index(after: eq)...])
        }
        if given["name"] != nil { throw fail(TackError("the name is the command's argument, not a --var")) }
        var project = NewProject(
            name: name, template: template, variables: given, git: !noGit, parent: settings.cwd,
            templateRoots: NewProject.templateRoots(executable: CurrentProcess.executablePath(), environment: settings.environment))
        project.environment = settings.environment
        let result: NewProject.Result
        do { result = try project.run() } catch { throw fail(error) }
        let shown = Paths.abbreviate(result.directory, home: settings.home)
        Output.out("""
            Made \(shown) (\(result.files) files\(result.commit.map { ", first commit \($0.prefix(7))" } ?? "")).
            Next:
              cd \(name)
              tack install        # the tools tack.yml pins
              swift build
              swift test
            
            """)
    }
}
