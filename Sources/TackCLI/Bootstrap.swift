import ArgumentParser
import Foundation
import TackCore
import TackKit

struct Bootstrap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up this machine for the project: system packages, tools, the shell hook, bootstrap.run.",
        discussion: """
            Prints the plan first: the system packages `bootstrap.packages` lists for this \
            machine's package manager that are not installed yet (apt, dnf, pacman, apk or \
            brew; TACK_PACKAGE_MANAGER picks one), the pinned tools to install, the shell hook \
            to add (with --shell-rc) and the `bootstrap.run` commands not yet run. Installing \
            system packages needs --yes, or a yes at the prompt; sudo is used when not root.

            Then, in order: packages, tools (as `tack install`), shims, the shell hook (between \
            marker comments in your shell's start-up file; the rest of it is left as it is), \
            and the commands (trusted manifests only; with the project's tools on PATH). A step \
            that fails stops the run and says what to do; what finished is kept, and running \
            `tack bootstrap` again continues from there. A second run has nothing to do.

            Examples:
              tack bootstrap --dry-run          show what would be done
              tack bootstrap --yes --shell-rc   do everything, and add the hook for $SHELL
            """
    )

    @OptionGroup var dryRunOption: DryRunOption
    var dryRun: Bool { dryRunOption.dryRun }

    @Flag(help: "Install system packages without asking.")
    var yes = false

    @Flag(help: "Add the shell hook to your shell's start-up file (~/.bashrc, ~/.zshrc or fish's config.fish).")
    var shellRc = false

    @Option(help: "The shell for --shell-rc: bash, zsh or fish (default: $SHELL's).")
    var shell: ShellHook.Shell?

    func run() async throws {
        let project = try Workspace.current()
        let service = BootstrapService(project)
        // A dry run runs nothing, so it shows the plan of an untrusted project too.
        let untrusted = service.untrustedCommands()
        if let untrusted, !dryRun { throw fail(TackError(untrusted, home: project.home)) }
        let hook = shellRc ? try shell ?? Self.shellFromEnvironment(project.settings.environment) : nil
        let plan: BootstrapPlan
        do { plan = try await service.plan(hookFor: hook) } catch { throw fail(error) }
        let lines = plan.lines(home: project.home)
        if let note = plan.packageNote { Output.err("note: \(note)\n") }
        if lines.isEmpty {
            Output.err("tack bootstrap: nothing to do — packages, tools\(shellRc ? ", the shell hook" : "") and commands are all in place\n")
            return
        }
        Output.err("tack bootstrap will:\n" + lines.map { "  - \($0)\n" }.joined())
        if dryRun {
            if let untrusted { Output.err("note: \(untrusted.message(home: project.home))\n") }
            Output.err("(--dry-run: nothing was changed)\n")
            return
        }
        try confirmPackages(plan)
        let steps: BootstrapSteps
        do { steps = try await service.carryOut(plan, canAskForPassword: CurrentProcess.isTerminal(0)) } catch {
            if !error.done.isEmpty { Output.err("done before the failure: \(error.done.joined(separator: "; "))\n") }
            throw fail(error.error)
        }
        let done = steps.done.isEmpty ? "shims rebuilt" : steps.done.joined(separator: "; ")
        guard steps.left.isEmpty else {
            Output.err("tack bootstrap: done, except \(steps.left.joined(separator: "; ")) — \(done); run it again once they are installed\n")
            throw ExitCode(1)
        }
        Output.err("tack bootstrap: done — \(done)\n")
    }

    /// Installing system packages needs --yes or a yes at the prompt.
    func confirmPackages(_ plan: BootstrapPlan) throws {
        guard !plan.missingPackages.isEmpty && !yes else { return }
        guard CurrentProcess.isTerminal(0) else {
            throw fail(TackError("installing system packages needs --yes (stdin is not a terminal to ask) — nothing was changed"))
        }
        Output.prompt("Install the system packages? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw fail(TackError("nothing was changed")) }
    }

    static func shellFromEnvironment(_ env: [String: String]) throws -> ShellHook.Shell {
        let name = Paths.basename(env["SHELL"] ?? "")
        guard let s = ShellHook.Shell(rawValue: name) else {
            throw fail(TackError("--shell-rc needs to know your shell, and SHELL is \(quoted(env["SHELL"] ?? "")) — add --shell bash, zsh or fish"))
        }
        return s
    }
}
