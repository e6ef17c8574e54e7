import ArgumentParser
import TackCore

struct Env: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the PATH and env a shim or `tack exec` would run with here.",
        discussion: """
            As shell commands (for SHELL, default: the one in $SHELL, else bash), or with \
            --json as one object of variable names to values. Only trusted manifests' env is \
            included, as for a shim; a pinned tool that is not installed is left out and named \
            on stderr.

            Examples:
              tack env                  export PATH='…/installs/jq/1.7.1/bin:/usr/bin:…'
              eval "$(tack env bash)"
              tack env --json           {"PATH":"…","RUST_LOG":"debug"}
            """
    )

    @Argument(help: "bash, zsh or fish.")
    var shell: ShellHook.Shell?

    @Flag(help: "Print a JSON object: variable name to value.")
    var json = false

    func validate() throws {
        if json && shell != nil { throw ValidationError("give a shell or --json, not both") }
    }

    func run() throws {
        let settings = try processSettings()
        let run: RunEnvironment
        do {
            let resolution = try Resolver(settings).resolve()
            run = RunEnvironment.make(resolution: resolution, rows: try resolution.current(settings: settings), settings: settings)
        } catch { throw fail(error) }
        for file in run.untrusted { Output.error(RunEnvironment.untrustedWarning(file, home: settings.home)) }
        if !run.missing.isEmpty {
            Output.error("not installed here, so left out: \(run.missing.joined(separator: ", ")) — run `tack install`")
        }
        var variables: [(String, String)] = []
        variables.append(("PATH", run.path(after: settings.environment["PATH"]) ?? ""))
        for v in run.variables { variables.append((v.name, v.value)) }
        if json {
            Output.out(JSON.object(variables.map { ($0.0, .string($0.1)) }).serialized() + "\n")
            return
        }
        let shell = self.shell ?? Self.loginShell(settings)
        Output.out(variables.map { ShellHook.line(shell, $0.0, $0.1) }.joined())
    }

    /// The shell named by $SHELL, when tack knows it; else bash.
    static func loginShell(_ settings: Settings) -> ShellHook.Shell {
        settings.environment["SHELL"].flatMap { ShellHook.Shell(rawValue: Paths.basename($0)) } ?? .bash
    }
}
