import Backends
import Foundation
import Git
import Testing
import TackCore

/// One contract every backend keeps, run against each with fakes (no network, no process):
/// a source that answers nothing makes listing versions a `TackError` that names the tool or
/// its source — never a crash, never an empty success that would lock nothing.
@Suite struct BackendContractTests {
    /// Each kind's backend with effects that answer nothing, and a pin of that kind.
    static func unreachable(_ kind: BackendKind, scratch: String) -> (any Backend, ToolRequest) {
        let origin = Origin(kind: .manifest, file: "/app/tack.yml", line: 2, column: 3)
        let silent = FakeHTTPClient([:])
        let failing = FakeProcessRunner { _, _ in ProcessOutput(status: 1, output: "cannot reach the source") }
        let env = ["PATH": "/nonexistent"]
        switch kind {
        case .git:
            return (GitBackend(runner: failing, environment: env, git: MemoryRemotes(tags: [:])),
                    ToolRequest(name: "hello", requirement: .latest, source: .git("https://example.com/hello.git"), origin: origin))
        case .url:
            var options = ToolOptions()
            options.versionIndex = ["url": "https://example.com/releases", "regex": "hello-([0-9.]+)"]
            return (URLBackend(http: silent, retryDelays: []),
                    ToolRequest(name: "hello", requirement: .latest, source: .url("https://example.com/hello-{version}"), options: options, origin: origin))
        case .pip:
            return (PipBackend(runner: failing, http: silent, environment: env, shims: nil),
                    ToolRequest(name: "black", requirement: .latest, source: .pip("black"), origin: origin))
        case .gem:
            return (GemBackend(runner: failing, environment: env, shims: nil),
                    ToolRequest(name: "rake", requirement: .latest, source: .gem("rake"), origin: origin))
        case .asdf:
            return (AsdfBackend(runner: failing, environment: env, cache: scratch, git: MemoryRemotes(tags: [:]), mayRun: { _ in nil }),
                    ToolRequest(name: "ruby", requirement: .latest, source: .asdf("https://example.com/asdf-ruby.git"), origin: origin))
        case .swift:
            return (SwiftBackend(http: silent, runner: failing, environment: env),
                    ToolRequest(name: "swift", requirement: .latest, source: .swift(SwiftToolchain.source), origin: origin))
        }
    }

    @Test(arguments: BackendKind.allCases)
    func anUnreachableSourceIsAnErrorThatSaysWhat(_ kind: BackendKind) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tack-contract-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (backend, request) = Self.unreachable(kind, scratch: scratch)
        #expect(backend.name == kind.rawValue)
        do {
            let versions = try await backend.versions(of: request)
            Issue.record("\(kind): an unreachable source listed \(versions.count) versions")
        } catch {
            let source = backend.source(of: request)
            #expect(error.message.contains(request.name) || error.message.contains(source) || error.message.contains("swift.org"),
                    "\(kind): \(error.message)")
            #expect(!error.message.isEmpty && !error.message.contains("\n\n"), "\(kind): \(error.message)")
        }
    }
}
