import Foundation
import BackendKinds
import TackCore
import TackKit
import Testing

/// `tack doctor` as a service on an in-memory machine: each check's line, with no binary run
/// and no program started but the ones the fake runner answers.
@Suite(.ownThreads) struct DoctorServiceTests {
    static let home = "/home/u"
    static let tackHome = "/home/u/.local/share/tack"

    func context(_ fs: InMemoryFileSystem, environment: [String: String] = [:], swift: String? = nil) -> Context {
        let env = ["HOME": Self.home, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        var settings = Settings(environment: env, cwd: "/work/app", fs: fs, backends: .standard)
        settings.trace = .off
        let runner = FakeProcessRunner { program, _ in
            program == "swift" && swift != nil ? ProcessOutput(status: 0, output: swift ?? "") : ProcessOutput(status: 1, output: "")
        }
        return Context(settings: settings, launcher: { "/opt/tack/bin/tack" }, runner: runner)
    }

    func messages(_ report: DoctorReport, _ status: DoctorReport.Status) -> [String] {
        report.checks.filter { $0.status == status }.map(\.message)
    }

    @Test func aFreshMachineIsToldWhatIsMissingAndHowToFixIt() async throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/work/app")
        try fs.createDirectory(Self.home)
        let report = await DoctorService(context(fs)).run()
        let ok = messages(report, .ok), problems = messages(report, .problem)
        #expect(ok.contains("TACK_HOME \(Self.tackHome) will be created on first install"), "\(ok)")
        #expect(ok.contains("0 tools pinned here, from 0 files"), "\(ok)")
        #expect(problems.contains("tack-front is missing beside /opt/tack/bin/tack (or in ../libexec/tack), so `tack` cannot hand commands to it — reinstall tack with ./bootstrap.sh"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("neither the shims directory (~/.local/share/tack/shims) is on PATH nor the shell hook active") }, "\(problems)")
        #expect(report.problems == problems.count)
    }

    @Test func theHookCountsAndTheHelpersBesideTackAreFound() async throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/work/app")
        for name in ["tack", "tack-front", "tack-cli"] {
            fs.seed("/opt/tack/bin/" + name, Array("#!/bin/sh\n".utf8))
            try fs.makeExecutable("/opt/tack/bin/" + name)
        }
        let report = await DoctorService(context(fs, environment: ["__TACK_HOOK": "x"])).run()
        #expect(messages(report, .ok).contains("the shell hook is active"))
        #expect(messages(report, .ok).contains("binaries: /opt/tack/bin/tack, /opt/tack/bin/tack-front, /opt/tack/bin/tack-cli"))
        #expect(!messages(report, .problem).contains { $0.contains("missing beside") })
    }

    @Test func brokenInstallsGoneProjectsAndOldBuildsAreNamed() async throws {
        let fs = InMemoryFileSystem()
        try fs.createDirectory("/work/app")
        let install = Self.tackHome + "/installs/hello/1.0.0"
        fs.seed(install + "/.tack-install.lock", Array("""
            version: 1
            tools:
              hello: { backend: "git", binaries: ["bin/hello"], built: { swift: "Swift version 5.10 (swift-5.10-RELEASE)" }, commit: "\(String(repeating: "a", count: 40))", requested: "1.0.0", source: "https://example.com/hello.git", tag: "1.0.0", version: "1.0.0" }

            """.utf8))
        fs.seed(Self.tackHome + "/state/projects", Array("/gone/project\n".utf8))
        let report = await DoctorService(context(fs, swift: "Swift version 6.0.3 (swift-6.0.3-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n")).run()
        let problems = messages(report, .problem)
        #expect(problems.contains("hello 1.0.0 lacks bin/hello, which its install made — run `tack uninstall hello@1.0.0` and `tack install`"), "\(problems)")
        #expect(problems.contains("1 project tack installed for no longer exists (/gone/project) — run `tack prune` to forget them and remove the tools only they used"), "\(problems)")
        #expect(problems.contains("hello 1.0.0 was built with Swift version 5.10 (swift-5.10-RELEASE), but the toolchain is now Swift version 6.0.3 (swift-6.0.3-RELEASE) — run `tack install --rebuild` in a project that pins it"), "\(problems)")
    }
}
