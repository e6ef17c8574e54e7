import BackendKinds
import Backends
import Foundation
import Git
import Testing
import TackCore

/// One contract every backend keeps, run against each with fakes (no network, no process): a
/// source that answers nothing is an error that says what, never a crash or an empty success;
/// a lock entry a backend cannot verify installs nothing; and what `BackendKind` says of a
/// kind (refs, builds, per-platform checksums) is what its backend does.
@Suite(.ownThreads) struct BackendContractTests {
    /// Each kind's backend with effects that answer nothing, and a pin of that kind.
    static func unreachable(_ kind: String, scratch: String) throws -> (any Backend, ToolRequest) {
        let origin = Origin(kind: .manifest, file: "/app/tack.yml", line: 2, column: 3)
        let silent = FakeHTTPClient([:])
        let failing = FakeProcessRunner { _, _ in ProcessOutput(status: 1, output: "cannot reach the source") }
        let env = ["PATH": "/nonexistent"]
        switch kind {
        case "git":
            return (GitBackend(runner: failing, environment: env, git: MemoryRemotes(tags: [:])),
                    ToolRequest(name: "hello", requirement: .latest, source: .git("https://example.com/hello.git"), origin: origin))
        case "url":
            var options = ToolOptions()
            options.url.versionIndex = ["url": "https://example.com/releases", "regex": "hello-([0-9.]+)"]
            return (URLBackend(http: silent, retryDelays: []),
                    ToolRequest(name: "hello", requirement: .latest, source: .url("https://example.com/hello-{version}"), options: options, origin: origin))
        case "pip":
            return (PipBackend(runner: failing, http: silent, environment: env, shims: nil),
                    ToolRequest(name: "black", requirement: .latest, source: .pip("black"), origin: origin))
        case "gem":
            return (GemBackend(runner: failing, environment: env, shims: nil),
                    ToolRequest(name: "rake", requirement: .latest, source: .gem("rake"), origin: origin))
        case "asdf":
            return (AsdfBackend(runner: failing, environment: env, cache: scratch, git: MemoryRemotes(tags: [:]), mayRun: { _ in nil }),
                    ToolRequest(name: "ruby", requirement: .latest, source: .asdf("https://example.com/asdf-ruby.git"), origin: origin))
        case "swift":
            return (SwiftBackend(http: silent, runner: failing, environment: env),
                    ToolRequest(name: "swift", requirement: .latest, source: .swift(SwiftToolchain.source), origin: origin))
        case "release":
            return (ReleaseBackend(http: silent, fs: LocalFileSystem(), retryDelays: []),
                    ToolRequest(name: "hello", requirement: .latest, source: .release("acme/hello"), origin: origin))
        case "aqua":
            return (AquaBackend(http: silent, fs: LocalFileSystem(), cache: scratch, environment: [:], retryDelays: []),
                    ToolRequest(name: "gh", requirement: .latest, source: .aqua("cli/cli"), origin: origin))
        default:
            throw TackError("no contract case for the \(kind) backend: add one here")
        }
    }

    /// Every kind tack registers.
    static let kinds = BackendCatalog.standard.kinds.map(\.name)

    @Test(arguments: kinds)
    func anUnreachableSourceIsAnErrorThatSaysWhat(_ kind: String) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tack-contract-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (backend, request) = try Self.unreachable(kind, scratch: scratch)
        #expect(backend.name == kind)
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

    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tack-contract-\(UUID().uuidString)").path
    }

    /// A lock entry with nothing but its name, version and source (no commit, no checksum,
    /// no packages): each backend refuses it, and leaves the install's directory empty.
    @Test(arguments: kinds)
    func aLockEntryItCannotVerifyInstallsNothing(_ kind: String) async throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (backend, request) = try Self.unreachable(kind, scratch: root + "/cache")
        for dir in ["install", "scratch", "cache"] { try FileManager.default.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true) }
        let locked = LockedTool(name: request.name, version: Version("1.0.0")!, requested: "1.0.0", backend: kind, source: backend.source(of: request))
        let job = InstallJob(request: request, locked: locked, directory: root + "/install", scratch: root + "/scratch", cache: root + "/cache", report: { _ in })
        do {
            let outcome = try await backend.install(job)
            Issue.record("\(kind): an entry with nothing to verify installed \(outcome.binaries)")
        } catch {
            #expect(!error.message.isEmpty && !error.message.contains("\n\n"), "\(kind): \(error.message)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root + "/install")) ?? []
        #expect(!left.contains("bin"), "\(kind) left \(left) in the install directory")
    }

    /// Only kinds whose pins lock refs take `ref:`; the rest say the pin is for git tools.
    @Test(arguments: kinds)
    func refsAreTakenOnlyWhereTheKindLocksThem(_ kind: String) async throws {
        let (backend, request) = try Self.unreachable(kind, scratch: Self.scratch())
        do {
            _ = try await backend.resolve(ref: "main", of: request)
            Issue.record("\(kind): an unreachable ref resolved")
        } catch {
            if try #require(BackendCatalog.standard.kind(named: kind)).locksRefs {
                #expect(!error.message.contains("has no refs"), "\(kind): \(error.message)")
            } else {
                #expect(error.message.contains("which has no refs; `ref:` pins are for git tools"), "\(kind): \(error.message)")
            }
        }
    }

    /// Kinds that do not build have no build inputs (the team cache keys only builds); kinds
    /// that build lock a commit, never another platform's artifacts.
    @Test(arguments: kinds)
    func theKindsTraitsAreWhatItsBackendDoes(_ kind: String) async throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (backend, request) = try Self.unreachable(kind, scratch: root)
        let locked = LockedTool(name: request.name, version: Version("1.0.0")!, requested: "1.0.0", backend: kind, source: backend.source(of: request))
        let builds = try #require(BackendCatalog.standard.kind(named: kind)).builds
        if !builds {
            let inputs = try await backend.buildInputs(request, locked, destination: root + "/install", built: nil)
            #expect(inputs == nil, "\(kind) is not a build, yet has build inputs \(inputs ?? [:])")
        }
        if builds {
            let added = try await backend.completeLock(locked, for: request, cache: root, platforms: [Platform(os: "darwin", arch: "arm64")], jobs: 1)
            #expect(added.isEmpty, "\(kind) builds, yet added \(added.keys.sorted()) to a lock")
        }
        #expect(!backend.source(of: request).isEmpty)
    }
}
