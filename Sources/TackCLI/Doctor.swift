import ArgumentParser
import Foundation
import TackCore
import TackKit

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tack's installation and this directory, and say how to fix what is wrong.",
        discussion: """
            Checks the libraries tack is linked with, that $TACK_HOME is writable, that the \
            shims directory is on PATH or the shell hook is active, that every manifest and \
            version file pinning tools here reads cleanly, that installs match the locks that \
            use them and have the commands they should, that the projects tack remembers still \
            exist, and that Swift builds match the toolchain. Exits 1 when anything is wrong.
            """
    )

    @Flag(help: "Print a JSON object: problems (a count) and checks, each with status (ok, note or problem) and message.")
    var json = false

    func run() async throws {
        let report = await DoctorService(Context.cli(try processSettings())).run()
        if json {
            Output.out(JSON.object([
                ("problems", .int(report.problems)),
                ("checks", .array(report.checks.map { .object([("status", .string($0.status.rawValue)), ("message", .string($0.message))]) })),
            ]).serialized() + "\n")
            if report.problems > 0 { throw ExitCode(1) }
            return
        }
        for check in report.checks {
            let label = switch check.status { case .ok: "ok       "; case .note: "note     "; case .problem: "problem  " }
            Output.out(label + check.message + "\n")
        }
        if report.problems > 0 {
            Output.out("\(report.problems) problem\(report.problems == 1 ? "" : "s") found\n")
            throw ExitCode(1)
        }
        Output.out("no problems found\n")
    }
}
