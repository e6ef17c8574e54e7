import ArgumentParser
import Foundation
import Testing
import TackCore
import TackLean
@testable import TackCLI

/// One dispatcher, one voice (issue 15): the table of hot forms, `--help` everywhere, one
/// error format with documented exit statuses, and "did you mean".
@Suite(.ownThreads) struct CommandLineTests {
    /// `HotCommand.classify` on `words` (after `tack`).
    static func classify(_ words: [String]) -> (HotCommand, [UnsafeMutablePointer<CChar>?]) {
        var argv: [UnsafeMutablePointer<CChar>?] = (["tack"] + words).map { strdup($0) }
        argv.append(nil)
        let form = argv.withUnsafeMutableBufferPointer { HotCommand.classify(argc: words.count + 1, argv: $0.baseAddress!) }
        return (form, argv)
    }

    static let hotForms: [[String]] = [
        ["exec", "jq", "--version"], ["exec", "--", "jq", "-n", "1"], ["exec", "--frozen", "jq"],
        ["exec", "--frozen", "--", "sh", "-c", "exit 3"], ["exec", "--", "sh", "-c", "x", "--", "y"],
        ["which", "jq"], ["current"], ["current", "jq"], ["current", "--json"], ["current", "jq", "--json"],
        ["current", "--json", "jq"], ["install"], ["install", "--frozen"],
        ["hook-env", "bash"], ["hook-env", "zsh"], ["hook-env", "fish"],
    ]

    static let fullForms: [[String]] = [
        [], ["--help"], ["-h"], ["exec", "--help"], ["exec", "-h"], ["exec"], ["exec", "--frozen"],
        ["exec", "jq@1.7.1", "--", "jq"], ["which", "--help"], ["which"], ["which", "a", "b"],
        ["current", "--help"], ["current", "-h"], ["current", "a", "b"], ["current", "--json", "--json"],
        ["install", "--help"], ["install", "jq"], ["install", "--jobs", "2"], ["install", "--frozen", "--frozen"],
        ["hook-env", "--help"], ["hook-env", "tcsh"], ["hook-env"], ["ls"], ["version"], ["--version"], ["isntall"],
    ]

    /// Every form the fast binaries answer is read the same way by tack-cli's parser, so a
    /// command means one thing whichever binary ends up answering it.
    @Test(arguments: hotForms)
    func hotFormsReadAsTheFullParserReadsThem(_ words: [String]) throws {
        let (form, argv) = Self.classify(words)
        defer { for p in argv { free(p) } }
        let parsed = try Tack.parseAsRoot(words)
        switch form {
        case .exec(let frozen, let command):
            let exec = try #require(parsed as? Exec)
            let invocation = try exec.invocation()
            #expect(invocation.frozen == frozen)
            #expect(invocation.overrides.isEmpty)
            #expect(invocation.command == Array(words[(command - 1)...]))
        case .which(let command):
            #expect(try #require(parsed as? Which).command == String(cString: command))
        case .current(let tool, let json):
            let current = try #require(parsed as? Current)
            #expect(current.tool == tool.map { String(cString: $0) })
            #expect(current.json == json)
        case .install(let frozen):
            let install = try #require(parsed as? Install)
            #expect(install.frozen == frozen)
            #expect(install.tools.isEmpty)
        case .hookEnv(let shell):
            #expect(try #require(parsed as? HookEnv).shell.rawValue == String(cString: shell))
        case .shim, .full:
            Issue.record("\(words) should be a hot form")
        }
    }

    /// Everything else — every `--help` included — is tack-cli's.
    @Test(arguments: fullForms)
    func otherFormsGoToTheFullCLI(_ words: [String]) {
        let (form, argv) = Self.classify(words)
        defer { for p in argv { free(p) } }
        if case .full = form {} else { Issue.record("\(words) should go to tack-cli") }
    }

    @Test func aToolsCommandNameIsAShim() {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/home/me/.local/share/tack/shims/jq"), strdup("-n"), nil]
        defer { for p in argv { free(p) } }
        let form = argv.withUnsafeMutableBufferPointer { HotCommand.classify(argc: 2, argv: $0.baseAddress!) }
        guard case .shim(let name) = form else {
            Issue.record("expected a shim")
            return
        }
        #expect(String(cString: name) == "jq")
    }

    /// Every command answers `--help` (and `-h`, and `tack help CMD`) on stdout with status 0,
    /// whichever binary would answer its other forms.
    @Test func everyCommandAnswersHelp() throws {
        let s = try Sandbox()
        try s.mkdir("p")
        for name in Tack.commandNames {
            for form in [[name, "--help"], [name, "-h"], ["help", name]] {
                let r = try s.tack(form, in: "p")
                #expect(r.status == 0, "\(form): \(r.stderr)")
                #expect(r.stdout.contains("USAGE: tack \(name)"), "\(form)")
                #expect(r.stderr == "", "\(form)")
            }
        }
        let root = try s.tack(["--help"], in: "p")
        #expect(root.status == 0)
        for name in ["install", "where", "env", "completion", "deactivate", "version"] { #expect(root.stdout.contains("  \(name) ")) }
    }

    /// The exit-status table in the README, row by row.
    @Test func exitStatusesAreTheDocumentedOnes() throws {
        let s = try Sandbox()
        try s.mkdir("p")
        try s.write("p/not-executable", "echo hi\n")
        func status(_ args: [String]) throws -> (Int32, String) {
            let r = try s.tack(args, in: "p")
            return (r.status, r.stderr)
        }
        #expect(try status(["version"]).0 == 0)
        #expect(try status(["where", "jq"]).0 == 1, "a failure")
        for usage in [["isntall"], ["ls", "Bad!"], ["current", "Bad!"], ["use"], ["install", "--jobs", "0"], ["help", "nosuch"],
                      ["exec"], ["uninstall", "jq"], ["which", "a/b"], ["completion", "tcsh"], ["env", "bash", "--json"]] {
            let (code, err) = try status(usage)
            #expect(code == 2, "\(usage)")
            #expect(err.hasPrefix("tack: ") && err.contains(" — ") && !err.contains("Error:") && !err.contains("USAGE"), "\(usage): \(err)")
            #expect(err.split(separator: "\n").count == 1, "one line: \(usage): \(err)")
        }
        #expect(try status(["exec", "--", "sh", "-c", "exit 7"]).0 == 7, "the command's own status")
        #expect(try status(["exec", "--", "./not-executable"]).0 == 126, "found but cannot run")
        let (missing, err) = try status(["exec", "--", "no-such-command-anywhere"])
        #expect(missing == 127)
        #expect(err == "tack: no-such-command-anywhere: command not found\n")
    }

    @Test func aTypoGetsDidYouMean() throws {
        let s = try Sandbox()
        try s.mkdir("p")
        let r = try s.tack(["isntall"], in: "p")
        #expect(r.status == 2)
        #expect(r.stderr == "tack: `isntall` is not a tack command — did you mean `tack install`?\n")
        #expect(try s.tack(["uptade"], in: "p").stderr == "tack: `uptade` is not a tack command — did you mean `tack update`?\n")
        let far = try s.tack(["frobnicate"], in: "p")
        #expect(far.status == 2)
        #expect(far.stderr == "tack: `frobnicate` is not a tack command — see `tack --help` for the list\n")
        let help = try s.tack(["help", "isntall"], in: "p")
        #expect(help.status == 2)
        #expect(help.stdout == "")
        #expect(help.stderr == "tack: `isntall` is not a tack command — did you mean `tack install`?\n")
    }

    /// `tack exec --help` was read as a command named `--help` (status 127).
    @Test func execHelpIsHelp() throws {
        let s = try Sandbox()
        try s.mkdir("p")
        let r = try s.tack(["exec", "--help"], in: "p")
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: tack exec"))
        // After the command, `--help` is the command's.
        let passed = try s.tack(["exec", "--", "sh", "-c", "echo \"$1\"", "sh", "--help"], in: "p")
        #expect(passed.stdout == "--help\n")
    }

    @Test func suggestionsAreCloseNames() {
        let names = Tack.commandNames
        #expect(UsageError.suggestions(for: "isntall", among: names) == ["install"])
        #expect(UsageError.suggestions(for: "instal", among: names) == ["install"])
        #expect(UsageError.suggestions(for: "ls-remtoe", among: names) == ["ls-remote"])
        #expect(UsageError.suggestions(for: "zzzzzz", among: names).isEmpty)
        #expect(UsageError.suggestions(for: "", among: names).isEmpty)
    }

    @Test func swiftBuildStepsAreRead() {
        #expect(InstallPhase.swiftBuildStep("[12/345] Compiling Foo Foo.swift") == "[12/345]")
        #expect(InstallPhase.swiftBuildStep("[1/1] Linking hello") == "[1/1]")
        #expect(InstallPhase.swiftBuildStep("Building for production...") == nil)
        #expect(InstallPhase.swiftBuildStep("[a/b] x") == nil)
        #expect(InstallPhase.swiftBuildStep("[1/2/3] x") == nil)
        #expect(InstallPhase.buildStep("[3/9]").label == "building [3/9]")
    }
}
