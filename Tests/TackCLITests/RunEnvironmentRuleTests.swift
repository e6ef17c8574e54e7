import Foundation
import Testing
import TackCore

/// One rule for the environment a command runs with (issue 45): the pinned tools' bin
/// directories first on PATH, the caller's PATH after, the trusted env set; and `env` cannot
/// set PATH or the hook's `__TACK_*` state, which the shim, `tack exec`, `tack env`, the hook
/// and bootstrap each treated differently (the shim let it replace PATH, dropping the pinned
/// tools; exec put the tools before it; env and the hook ignored it; bootstrap let it win).
@Suite(.ownThreads) struct RunEnvironmentRuleTests {
    @Test func pathIsTheBinDirectoriesThenTheCallersPath() {
        let run = RunEnvironment(binDirectories: ["/t/a/bin", "/t/b/bin"], variables: [.init(name: "GREETING", value: "hi")])
        #expect(run.path(after: "/usr/bin:/bin") == "/t/a/bin:/t/b/bin:/usr/bin:/bin")
        #expect(run.path(after: nil) == "/t/a/bin:/t/b/bin" && run.path(after: "") == "/t/a/bin:/t/b/bin")
        #expect(RunEnvironment().path(after: "/usr/bin") == "/usr/bin" && RunEnvironment().path(after: nil) == nil)
        let env = run.applied(to: ["PATH": "/usr/bin", "HOME": "/h"])
        #expect(env == ["PATH": "/t/a/bin:/t/b/bin:/usr/bin", "HOME": "/h", "GREETING": "hi"])
        #expect(RunEnvironment().applied(to: ["HOME": "/h"]) == ["HOME": "/h"], "no PATH is made up")
    }

    @Test func envCannotSetPathOrTheHooksState() throws {
        let s = try Sandbox()
        try s.mkdir("bin-dir")
        try s.write("app/tack.yml", "tools:\n  mytool: { path: ../bin-dir }\nenv:\n  PATH: /nowhere\n")
        for args in [["trust"], ["exec", "--", "sh", "-c", "echo $PATH"], ["env"], ["current"], ["hook-env", "bash"]] {
            let r = try s.tack(args, in: "app")
            #expect(r.stderr.contains("`env` cannot set PATH"), "\(args): \(r)")
            #expect(!r.stdout.contains("/nowhere"), "\(args): \(r.stdout)")
        }
        let shimmed = try s.tack(["exec", "--", "sh", "-c", "echo $PATH"], in: "app")
        #expect(shimmed.status != 0)
        try s.write("app/tack.yml", "env:\n  __TACK_DIFF: x\n")
        let hook = try s.tack(["env"], in: "app")
        #expect(hook.status != 0 && hook.stderr.contains("`env` cannot set `__TACK_DIFF`"), "\(hook)")
        // Another name is set, after the pinned tools' PATH.
        try s.writeTrusted("app/tack.yml", "tools:\n  mytool: { path: ../bin-dir }\nenv:\n  GREETING: hello\n")
        let fine = try s.tack(["exec", "--", "sh", "-c", "echo \"$GREETING ${PATH%%:*}\""], in: "app")
        #expect(fine.status == 0 && fine.stdout.hasPrefix("hello /"), "\(fine)")
    }
}
