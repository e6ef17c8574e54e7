import Foundation
import Testing
@testable import TackCore

@Suite struct ShellHookUnitTests {
    let run = RunEnvironment(binDirectories: ["/th/installs/a/1/bin", "/th/installs/b/2/bin"],
                             variables: [.init(name: "GREETING", value: "it's \"quoted\" $HOME"), .init(name: "EXISTING", value: "project")])

    /// Applies a script's effect the way the shell would (the test's own tiny evaluator).
    func apply(_ script: String, to env: [String: String]) -> [String: String] {
        var env = env
        for line in script.split(separator: "\n") {
            if line.hasPrefix("unset ") { env[String(line.dropFirst(6))] = nil; continue }
            let body = line.dropFirst("export ".count)
            let eq = body.firstIndex(of: "=")!
            var value = String(body[body.index(after: eq)...])
            value = String(value.dropFirst().dropLast()).replacingAll("'\\''", with: "'")
            env[String(body[..<eq])] = value
        }
        return env
    }

    @Test func enteringAndLeavingRestoresExactly() {
        let before = ["PATH": "/usr/bin:/bin", "EXISTING": "before", "OTHER": "x"]
        let entered = apply(ShellHook.update(.bash, run: run, environment: before, home: nil).script, to: before)
        #expect(entered["PATH"] == "/th/installs/a/1/bin:/th/installs/b/2/bin:/usr/bin:/bin")
        #expect(entered["GREETING"] == "it's \"quoted\" $HOME")
        #expect(entered["EXISTING"] == "project")
        #expect(entered[ShellHook.digestVariable] == run.digest)
        // Nothing changed: nothing to do.
        #expect(ShellHook.update(.bash, run: run, environment: entered, home: nil).script == "")
        // The user prepends to PATH meanwhile; leaving keeps that and removes only tack's entries.
        var edited = entered
        edited["PATH"] = "/mine:" + entered["PATH"]!
        let left = apply(ShellHook.update(.bash, run: nil, environment: edited, home: nil).script, to: edited)
        #expect(left == ["PATH": "/mine:/usr/bin:/bin", "EXISTING": "before", "OTHER": "x"])
    }

    @Test func aVariableTheUserChangedStaysTheirs() {
        let before = ["PATH": "/bin"]
        var entered = apply(ShellHook.update(.zsh, run: run, environment: before, home: nil).script, to: before)
        entered["EXISTING"] = "typed by hand"
        let left = apply(ShellHook.update(.zsh, run: nil, environment: entered, home: nil).script, to: entered)
        #expect(left == ["PATH": "/bin", "EXISTING": "typed by hand"])
    }

    @Test func fishQuotingAndUnset() {
        let script = ShellHook.update(.fish, run: run, environment: ["PATH": "/bin"], home: nil).script
        #expect(script.contains("set -gx GREETING 'it\\'s \"quoted\" $HOME'\n"))
        #expect(script.contains("set -gx PATH '/th/installs/a/1/bin:/th/installs/b/2/bin:/bin'\n"))
        let env = ["PATH": "/th/installs/a/1/bin:/th/installs/b/2/bin:/bin", "GREETING": run.variables[0].value, "EXISTING": "project",
                   ShellHook.diffVariable: ShellHook.Diff(prepended: run.binDirectories, variables: [
                       .init(name: "GREETING", old: nil, new: run.variables[0].value), .init(name: "EXISTING", old: nil, new: "project"),
                   ]).encode(), ShellHook.digestVariable: run.digest]
        let leave = ShellHook.update(.fish, run: nil, environment: env, home: nil).script
        #expect(leave == "set -e EXISTING\nset -e GREETING\nset -gx PATH '/bin'\nset -e __TACK_DIFF\nset -e __TACK_HOOK\n")
    }

    @Test func diffRoundTripsAnyBytesAndIgnoresGarbage() {
        let d = ShellHook.Diff(prepended: ["/a b/c:d", "/%41"], variables: [.init(name: "X", old: "", new: "=:% \n'"), .init(name: "Y", old: nil, new: "")])
        #expect(ShellHook.Diff.decode(d.encode()) == d)
        #expect(ShellHook.Diff.decode("p:%zz q:1 s:X u") == ShellHook.Diff())
        // An empty PATH never gains an empty entry (the current directory).
        let script = ShellHook.update(.bash, run: RunEnvironment(binDirectories: ["/t/bin"]), environment: ["PATH": ""], home: nil).script
        #expect(script.contains("export PATH='/t/bin'\n"))
    }
}

extension String {
    func replacingAll(_ a: String, with b: String) -> String { components(separatedBy: a).joined(separator: b) }
}
