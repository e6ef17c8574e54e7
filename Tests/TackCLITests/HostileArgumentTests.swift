import ArgumentParser
import Foundation
import Testing
@testable import TackCLI

/// Every command and subcommand, fed a corpus of hostile arguments and every option without
/// its value (issue 30, items 1 and 2): no trap (no status of 128 or more, no "Fatal error"),
/// and a refusal is one `tack:` line on stderr. Each command gets invalid UTF-8 through all three
/// built binaries (the Embedded `tack` and `tack-front` read argv before `tack-cli` does); the
/// corpus goes where the harness sends it — the commands `tack` answers through the binaries,
/// `tack-cli`'s in-process, where a trap would end the test run itself.
@Suite(.ownThreads) struct HostileArgumentTests {
    /// Every command path: `install`, `registry add`, `cache push`, …
    static var commandPaths: [[String]] {
        var out: [[String]] = []
        for command in Tack.configuration.subcommands {
            let name = command._commandName
            out.append([name])
            for sub in command.configuration.subcommands { out.append([name, sub._commandName]) }
        }
        return out
    }

    static let corpus: [String] = [
        "", "@", "@1", "x@", "x@@1", "Bad!", "SwiftLint", "SwiftLint@0.57.0", "../x", "/etc/passwd", "-", "--",
        String(repeating: "a", count: 10_000), "a\u{1B}[31mb", "a\nb", "X@~>1", "x@~>>1", "x@latest@1", "%s%n",
        "\u{202E}evil", "x@" + String(repeating: "9", count: 400),
    ]

    /// Options that take a value, from the command's help (`--jobs <jobs>`).
    static func valueOptions(_ help: String) -> [String] {
        help.matches(of: /(--[a-z][a-z0-9-]*) </).map { String($0.1) }
    }

    /// Runs `args` (raw bytes allowed) through bash, so invalid UTF-8 reaches tack as it is.
    func raw(_ s: Sandbox, _ words: [String], extra: String) throws -> Sandbox.Result {
        try s.run("/bin/bash", ["-c", "exec \"$0\" \"$@\" \"$(printf '\\xff\\xfe\\x80')\"", try Sandbox.binary()] + words, in: "p")
    }

    func check(_ r: Sandbox.Result, _ args: [String]) {
        let shown = args.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 }
        #expect(r.status < 128, "\(shown): status \(r.status): \(r.stderr.prefix(300))")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Illegal instruction"), "\(shown): \(r.stderr.prefix(300))")
        // `--` only ends the options: the command then runs as it would without it.
        if args.last == "--" { return }
        if r.status == 2 {
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            #expect(lines.count == 1 && lines[0].hasPrefix("tack: "), "\(shown): one tack: line: \(r.stderr.prefix(300))")
        } else if r.status != 0 {
            let tackLines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("tack: ") }
            #expect(tackLines.count == 1 || ["exec"].contains(args.first ?? ""), "\(shown): \(r.stderr.prefix(300))")
        }
    }

    @Test(arguments: commandPaths)
    func everyCommandSurvivesHostileArguments(_ path: [String]) throws {
        let s = try Sandbox()
        try s.write("p/tack.yml", "tools:\n  jq: 1.7.1\n")
        // No real network: a registry URL or a mirror would only ever be a word here.
        s.environment["TACK_SWIFT_MIRROR"] = "http://127.0.0.1:9"
        for word in Self.corpus {
            let args = path + [word]
            check(try s.tack(args, in: "p"), args)
        }
        check(try raw(s, path, extra: ""), path + ["<invalid UTF-8>"])
        let help = try s.tack(path + ["--help"], in: "p").stdout
        for option in Self.valueOptions(help) {
            check(try s.tack(path + [option], in: "p"), path + [option])
        }
    }
}
