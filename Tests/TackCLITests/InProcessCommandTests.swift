import Foundation
import Testing
import TackCLI
import TackCore

/// `Tack.main(arguments:scope:)`: a command run in the test's own process, in a scope that is
/// its process — its environment, directory and output — with the status it would exit with.
/// The harness runs most commands this way (`Sandbox.tack`); these check the seam itself.
@Suite(.ownThreads) struct InProcessCommandTests {
    func scope(_ s: Sandbox, _ directory: String = "app", _ extra: [String: String] = [:]) -> ProcessScope {
        ProcessScope(environment: s.environment.merging(extra) { $1 }, cwd: s.root + "/" + directory, executable: nil)
    }

    @Test func statusesAndOutputAreTheCommandsOwn() async throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        let ls = scope(s)
        #expect(await Tack.main(arguments: ["ls"], scope: ls) == 0, "\(ls.standardError)")
        #expect(ls.standardOutput.isEmpty || !ls.standardOutput.contains("tack:"))

        let unknown = scope(s)
        #expect(await Tack.main(arguments: ["frobnicate"], scope: unknown) == 2)
        #expect(unknown.standardError.hasPrefix("tack: ") && unknown.standardOutput.isEmpty, "\(unknown.standardError)")

        let help = scope(s)
        #expect(await Tack.main(arguments: ["lock", "--help"], scope: help) == 0)
        #expect(help.standardOutput.contains("USAGE: tack lock"), "\(help.standardOutput)")

        let version = scope(s)
        #expect(await Tack.main(arguments: ["--version"], scope: version) == 0)
        #expect(version.standardOutput == "tack \(TackVersion.current)\n")
    }

    /// `-q` quiets the command's scope, not the test process (nor another command at once).
    @Test func quietIsTheScopesAlone() async throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        let quiet = scope(s)
        _ = await Tack.main(arguments: ["-q", "ls"], scope: quiet)
        #expect(quiet.environment["TACK_QUIET"] == "1")
        #expect(getenv("TACK_QUIET") == nil)
    }

    /// Commands at once each see their own directory and write their own output.
    @Test func commandsAtOnceKeepTheirOwnWorlds() async throws {
        let a = try Sandbox(), b = try Sandbox()
        try a.write("app/tack.yml", "tools:\n  jq: 1.7.1\n")
        try b.write("app/tack.yml", "tools:\n  yq: 4.44.1\n")
        let (sa, sb) = (scope(a), scope(b))
        async let ra = Tack.main(arguments: ["where", "jq"], scope: sa)
        async let rb = Tack.main(arguments: ["where", "yq"], scope: sb)
        let (x, y) = await (ra, rb)
        #expect(x == y)
        // (By tool and version: a sandbox's random path may hold "jq" or "yq" itself.)
        #expect(sa.standardError.contains("jq 1.7.1") && !sa.standardError.contains("yq 4.44.1"), "\(sa.standardError)")
        #expect(sb.standardError.contains("yq 4.44.1") && !sb.standardError.contains("jq 1.7.1"), "\(sb.standardError)")
        // Each names its own sandbox's manifest, not the other's.
        #expect(sa.standardError.contains(a.root + "/app/tack.yml") && !sa.standardError.contains(b.root), "\(sa.standardError)")
        #expect(sb.standardError.contains(b.root + "/app/tack.yml") && !sb.standardError.contains(a.root), "\(sb.standardError)")
    }
}
