import Foundation
import Testing
import BackendKinds
import TackCore
import TackKit

/// A backend that installs from memory: versions it lists, installs that write `bin/TOOL`
/// printing the version, and how many installs it made.
final class MemoryBackend: Backend, @unchecked Sendable {
    let name: String
    private var listed: [String]
    var versions: [String] { lock.withLock { listed } }
    /// Versions whose install fails.
    let failing: Set<String>
    private let lock = NSLock()
    private var installed: [String] = []
    var installs: [String] { lock.withLock { installed } }

    init(name: String = "url", versions: [String], failing: Set<String> = []) {
        self.name = name
        self.listed = versions
        self.failing = failing
    }

    /// A new release appears.
    func publish(_ version: String) { lock.withLock { listed.append(version) } }

    func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        versions.compactMap { Version($0).map { AvailableVersion(version: $0) } }
    }

    func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        if failing.contains(job.locked.version.text) { throw TackError("\(job.locked.name) \(job.locked.version) does not build") }
        let bin = job.directory + "/bin"
        do {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try WrapperScript(comment: "test", command: ["/bin/echo", "\(job.locked.name) \(job.locked.version)"]).write(to: bin + "/" + job.locked.name, fs: LocalFileSystem())
        } catch { throw TackError("\(error)") }
        lock.withLock { installed.append("\(job.locked.name)@\(job.locked.version)") }
        return InstallOutcome(binaries: ["bin/" + job.locked.name])
    }

    func resolve(ref: String, of request: ToolRequest) async throws(TackError) -> AvailableVersion {
        throw TackError("no refs here")
    }
}

/// What a service said, kept in order.
final class Notices: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Notice] = []
    func add(_ n: Notice) { lock.withLock { list.append(n) } }
    var all: [Notice] { lock.withLock { list } }
    var problems: [String] { failures.map(\.message) }
    /// The problems as errors, with their cases where their area has them.
    var failures: [TackError] { all.compactMap { if case .problem(let e) = $0 { e } else { nil } } }
    var lockChanges: [String] { all.compactMap { if case .lockChanged(let c) = $0 { c.description } else { nil } } }
}

/// A sandbox with a project and a backend from memory, and contexts to run services in.
struct ServiceSetup {
    let sandbox: Sandbox
    let backend: MemoryBackend
    let notices = Notices()
    func context(in dir: String = "app", environment: [String: String] = [:]) -> Context {
        let notices = self.notices, backend = self.backend
        let settings = Settings(environment: sandbox.environment.merging(environment) { $1 }, cwd: sandbox.root + "/" + dir, fs: LocalFileSystem(), backends: .standard)
        return Context(settings: settings, notify: { notices.add($0) }, makeBackends: { _, _, _ in BackendRegistry([backend]) }, defaultJobs: 2)
    }
}

/// A project whose tack.yml is `manifest`, served by a backend with `versions`.
func serviceSetup(_ manifest: String, versions: [String] = ["1.0.0", "1.1.0", "2.0.0"], failing: Set<String> = [], backend: String = "url") throws -> ServiceSetup {
    let s = try Sandbox()
    try s.write("app/tack.yml", manifest)
    return ServiceSetup(sandbox: s, backend: MemoryBackend(name: backend, versions: versions, failing: failing))
}
