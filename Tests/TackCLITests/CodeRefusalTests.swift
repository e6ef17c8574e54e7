import BackendKinds
import Foundation
import Testing
import TackCore

/// `TrustPolicy.codeRefusal`, the one rule for code a project file would make run: the
/// registry's own pin runs untrusted; the same pin with more of a project's choosing does not.
@Suite struct CodeRefusalTests {
    func request(_ s: Sandbox, _ entry: String) throws -> (ToolRequest, Settings) {
        try s.write("app/tack.yml", "tools:\n  hello: \(entry)\n")
        let settings = Settings(environment: s.environment, cwd: s.root + "/app", fs: LocalFileSystem(), backends: .standard)
        let manifest = try Manifest.load(s.root + "/app/tack.yml", kind: .manifest, fs: settings.fs, backends: .standard)
        return (try #require(manifest.tools.first), settings)
    }

    @Test func aProjectsVariablesForARegistrysPluginNeedTrust() throws {
        let s = try Sandbox()
        try s.write("tack-home/registries/mine/registry.yml", "hello:\n  asdf: \"https://example.com/asdf-hello.git\"\n")
        let (plain, settings) = try request(s, "{ asdf: \"https://example.com/asdf-hello.git\", version: 1.0.0 }")
        #expect(TrustPolicy(settings: settings).codeRefusal(plain, file: plain.origin) == nil, "the registry's plugin, as the registry runs it")

        let (added, _) = try request(s, "{ asdf: \"https://example.com/asdf-hello.git\", version: 1.0.0, build_env: { LD_PRELOAD: /tmp/evil.so } }")
        let refusal = TrustPolicy(settings: settings).codeRefusal(added, file: added.origin)
        #expect(refusal == .runsCode(what: "hello comes from the asdf plugin https://example.com/asdf-hello.git, whose scripts would run on this machine", origin: added.origin))
        #expect(refusal?.file == s.root + "/app/tack.yml")
    }
}
