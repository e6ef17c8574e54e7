import Foundation
import BackendKinds
import TackCore
import TackKit
import Testing

/// `tack bootstrap` as a service on an in-memory project: the plan asks the package manager
/// (a fake) what is missing, the commands run once each, and a failing step keeps what finished.
@Suite(.ownThreads) struct BootstrapServiceTests {
    static let manifest = """
        bootstrap:
          packages: { apt: [libfoo-dev, libbar], dnf: [foo-devel] }
          run: ["make setup", "make hooks"]

        """

    final class Shell: @unchecked Sendable {
        private let lock = NSLock()
        private var ran: [(String, String)] = []
        let failing: String?
        init(failing: String? = nil) { self.failing = failing }
        var commands: [(command: String, directory: String)] { lock.withLock { ran } }
        func run(_ command: String, _ directory: String, _ env: [String: String]) -> Int32 {
            lock.withLock { ran.append((command, directory)) }
            return command == failing ? 3 : 0
        }
    }

    func workspace(_ fs: InMemoryFileSystem, runner: FakeProcessRunner) throws -> Workspace {
        let env = ["HOME": "/home/u", "PATH": "/usr/bin:/bin", "TACK_PACKAGE_MANAGER": "apt"]
        let settings = Settings(environment: env, cwd: "/work/app", fs: fs, backends: .standard)
        return try Workspace(Context(settings: settings, launcher: { "/opt/tack/bin/tack" }, runner: runner))
    }

    @Test func thePlanHoldsOnlyWhatIsMissingAndCommandsRunOnce() async throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": Self.manifest])
        try fs.createDirectory("/home/u")
        let runner = FakeProcessRunner { program, _ in
            ProcessOutput(status: program == "dpkg-query" ? 1 : 0, output: program == "dpkg-query" ? "libbar\tinstall ok installed\n" : "")
        }
        let shell = Shell()
        let service = BootstrapService(try workspace(fs, runner: runner)) { command, directory, env in shell.run(command, directory, env) }
        #expect(service.untrustedCommands() == .bootstrapCommands(file: "/work/app/tack.yml"))
        let plan = try await service.plan(hookFor: .zsh)
        #expect(plan.manager == .apt)
        #expect(plan.missingPackages == ["libfoo-dev"])
        #expect(plan.toolsUpToDate)
        #expect(plan.commands.map(\.command) == ["make setup", "make hooks"])
        #expect(plan.rcChange?.file == "/home/u/.zshrc")
        #expect(plan.lines(home: "/home/u").last == "run: make hooks  (from /work/app/tack.yml)")
        // Not trusted: nothing runs, nothing is written.
        await #expect(throws: BootstrapFailure.self) { _ = try await service.carryOut(plan, canAskForPassword: false) }
        #expect(shell.commands.isEmpty && fs.info("/home/u/.zshrc") == nil)
        try TrustService(service.context).trust(directory: "/work/app", untrust: false) { _ in }

        let steps = try await service.carryOut(plan, canAskForPassword: false)
        #expect(shell.commands.map(\.command) == ["make setup", "make hooks"])
        #expect(shell.commands.allSatisfy { $0.directory == "/work/app" })
        #expect(steps.done.contains("ran `make hooks`") && steps.done.contains("added the hook to ~/.zshrc"), "\(steps.done)")
        #expect(String(decoding: try fs.read("/home/u/.zshrc"), as: UTF8.self).contains("/opt/tack/bin/tack"))
        // A second plan has no commands and no hook left to add.
        let again = try await BootstrapService(try workspace(fs, runner: runner)) { _, _, _ in 0 }.plan(hookFor: .zsh)
        #expect(again.commands.isEmpty && again.rcChange == nil)
    }

    @Test func aFailingCommandStopsTheRunAndKeepsWhatFinished() async throws {
        let fs = InMemoryFileSystem(files: ["/work/app/tack.yml": Self.manifest])
        try fs.createDirectory("/home/u")
        let runner = FakeProcessRunner { _, _ in ProcessOutput(status: 0, output: "libfoo-dev\tinstall ok installed\nlibbar\tinstall ok installed\n") }
        let shell = Shell(failing: "make hooks")
        let service = BootstrapService(try workspace(fs, runner: runner)) { command, directory, env in shell.run(command, directory, env) }
        try TrustService(service.context).trust(directory: "/work/app", untrust: false) { _ in }
        let plan = try await service.plan(hookFor: nil)
        #expect(plan.missingPackages.isEmpty && plan.rcChange == nil)
        do {
            _ = try await service.carryOut(plan, canAskForPassword: false)
            Issue.record("a failing command did not stop the run")
        } catch {
            #expect(error.done == ["ran `make setup`"])
            #expect(error.error.message == "running `make hooks` failed: it exited with 3 — fix that and run `tack bootstrap` again; it continues from here")
        }
        // The next run continues from the failed command.
        #expect(try await service.plan(hookFor: nil).commands.map(\.command) == ["make hooks"])
    }
}
